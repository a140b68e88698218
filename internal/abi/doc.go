// Package abi is the wire format between a2aport.wasm and its hosts: the envelopes of a batch and
// the frame that carries them with their bytes. The module (wasm/) and the Go host (host/) share
// these types; the JS package implements the same format. wasm/ABI.md documents every message.
//
// A frame is a little-endian uint32 header length, the header (a JSON Batch), then the payload:
// raw bytes that envelopes reference by Span, so HTTP bodies cross as bytes, never base64.
//
//	var w abi.Writer
//	w.Add(abi.Envelope{Kind: abi.KindFetch, ID: 1, Method: "GET", URL: "https://agent.example/card"})
//	frame, err := w.Frame(0)
//	b, payload, err := abi.ReadFrame(frame)
package abi

// First the options that cross as they are, from the one option table (WireOptions, which Init
// embeds), then the envelopes.
//
//go:generate go run ../optiontable/cmd/optiongen -root ../..
//go:generate go tool easyjson -no_std_marshalers envelope.go
