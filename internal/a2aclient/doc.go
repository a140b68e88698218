// Package a2aclient is the A2A client behind every a2aport Port: the native one (package
// adapter's New) and the one inside the WebAssembly module (wasm/, through NewHosted). It turns a
// Work into A2A requests over the official Go SDK and A2A's answers into the contract's events and
// one outcome (docs/DESIGN.md §3), and has no I/O of its own: HTTP goes through Options.Transport,
// time through Options.Clock, so that the module's host can supply both.
package a2aclient
