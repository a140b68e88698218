// Command wasm is a2aport.wasm: the adapter compiled once for GOOS=wasip1 GOARCH=wasm as a
// reactor (-buildmode=c-shared). It holds no A2A logic of its own: exports.go is the ABI and
// internal/bridge connects the adapter to the host through it. ABI.md documents both.
//
//	GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -trimpath -o a2aport.wasm ./wasm
//	GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -trimpath -tags a2aport_nolegacy -o a2aport-1.0.wasm ./wasm
package main

// main is never called: a reactor is entered through _initialize and its exports.
func main() {}
