// Package binding is a2aport's client of A2A 1.0's two HTTP bindings, JSON-RPC and HTTP+JSON:
// a2aclient transports that send through a [Client], an http.Client that never falls back to
// http.DefaultTransport.
//
// a2a-go's own transports take an *http.Client, and using one at all links net/http's connection
// code and crypto/tls into the WebAssembly module, where the host's fetch does HTTP and TLS: with
// them the 1.0 module was 14.1 MB, without them under 9. The requests, headers, error mapping and
// event decoding follow a2a-go's transports; the SDK's types (package a2a) and its client
// (a2aclient) stay in use above them.
//
// Streams are decoded faster than a2a-go does: the one hot event, an artifact update whose parts
// are all text, is decoded once by easyjson-generated code into exactly the a2a types
// encoding/json would have built; anything else (a task, a message, a status, an error, a field
// the fast decoder does not know) goes through encoding/json and a2a's own types.
//
//	client := &binding.Client{Transport: http.DefaultTransport}
//	factory := a2aclient.NewFactory(a2aclient.WithDefaultsDisabled(),
//		binding.WithJSONRPCTransport(client), binding.WithRESTTransport(client))
//
//go:generate go tool easyjson -no_std_marshalers -disallow_unknown_fields wire.go
package binding
