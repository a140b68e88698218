// Package module holds a2aport.wasm, gzip-compressed, as `make build.wasm` wrote it from this
// tree: the Go host runs it, so a program that uses it needs no toolchain and builds nothing at
// run time. `make check.module` (part of `make test`, so of CI) rebuilds it and fails when the
// committed bytes are not that build; it records the source it was built from (Source), which
// the tests compare with the tree before they trust it.
//
//	wasm, err := module.Bytes()
package module
