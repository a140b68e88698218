// Package binding is a2aport's client of A2A's two HTTP bindings, JSON-RPC and HTTP+JSON, in
// versions 1.0 and 0.3: a2aclient transports that send through a [Client], an http.Client that
// never falls back to http.DefaultTransport.
//
// a2a-go's own transports take an *http.Client, and using one at all links net/http's connection
// code and crypto/tls into the WebAssembly module, where the host's fetch does HTTP and TLS: with
// them the 1.0 module was 14.1 MB, without them under 9. A2A 0.3 is spoken here too (v03.go,
// jsonrpc03.go, rest03.go, card03.go) rather than through a2a-go's compat layer, whose package
// links gRPC, a2a-go's server and http.Client: with it the module was 31 MB, without it 10.5.
// The requests, headers, error mapping and event decoding follow a2a-go's transports (sdk_test.go
// compares them on both versions); the SDK's types (package a2a) stay in use above them.
//
// Streams are decoded faster than a2a-go does: an event whose parts are all text (the hot one is
// an artifact update of one text chunk) is decoded once by easyjson-generated code into exactly
// the a2a types encoding/json would have built, in 1.0 (fast.go) and in 0.3's JSON-RPC (fast03.go,
// through a2a-go's 0.3 types and the same conversion as the full decoder); anything else (a data
// or file part, metadata, an error, a field the fast decoder does not know) goes through
// encoding/json and a2a's own types. A fuzz differential holds each to the full decoder. Past a
// stream's first chunk, a chunk whose bytes are the one before it but for its text is read as
// that chunk with another text, one JSON string instead of five objects (repeat.go), held to the
// fast decoder the same way.
//
//	client := &binding.Client{Transport: http.DefaultTransport}
//	factory := a2aclient.NewFactory(a2aclient.WithDefaultsDisabled(),
//		binding.WithJSONRPCTransport(client), binding.WithRESTTransport(client))
//
//go:generate go tool easyjson -no_std_marshalers -disallow_unknown_fields wire.go
//go:generate go tool easyjson -no_std_marshalers -disallow_unknown_fields wire03.go
package binding
