// Package rpcstream reads A2A 1.0 JSON-RPC event streams (SendStreamingMessage, SubscribeToTask)
// faster than a2a-go's own transport, which it wraps and otherwise leaves alone.
//
// a2a-go decodes each event through encoding/json several times over (the envelope, the event,
// each part): in WebAssembly that decoding was half of a2aport's time on a streamed answer. Here
// the one hot event, an artifact update whose parts are all text, is decoded once by
// easyjson-generated code into exactly the a2a types a2a-go would have built. Anything else (a
// task, a message, a status, an error, a field the fast decoder does not know, a number where it
// wants a string) is handed to a2a-go's own transport, replayed from the event's bytes, so the
// result is a2a-go's to the letter. The request, the headers and the errors are a2a-go's too.
//
//	factory := a2aclient.NewFactory(rpcstream.WithJSONRPCTransport(httpClient), ...)
//
//go:generate go tool easyjson -no_std_marshalers -disallow_unknown_fields wire.go
package rpcstream
