// Package module holds both builds of a2aport.wasm, gzip-compressed, as `make build.wasm` wrote
// them from this tree: the Go host runs them, so a program that uses it needs no toolchain and
// builds nothing at run time. `make check.module` (part of `make test`, so of CI) rebuilds them
// and fails when the committed bytes are not that build; each records the source it was built
// from (Source), which the tests compare with the tree before they trust it.
//
//	wasm, err := module.Bytes("a2aport-1.0.wasm")
package module
