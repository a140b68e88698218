// Command wasm is a2aport.wasm: the adapter compiled once for GOOS=wasip1 GOARCH=wasm as a
// reactor (-buildmode=c-shared). It holds no A2A logic of its own: exports.go is the ABI and
// internal/bridge connects the adapter to the host through it. ABI.md documents both.
//
// How it is built (target, flags, experiments, each flavour's tags) is defined once, in
// internal/wasmbuild:
//
//	make build.wasm   # go run ./internal/wasmbuild/cmd/a2aport-buildwasm -o bin
package main

// main is never called: a reactor is entered through _initialize and its exports.
func main() {}
