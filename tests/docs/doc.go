// Package docs holds the tests that keep the repository's documents true to its code: every
// "DESIGN.md §n" a comment cites exists, wasm/ABI.md lists exactly the envelope kinds, calls,
// store methods, fetch codes and init fields of internal/abi (and the kinds the JS driver sends
// and handles), and docs/errors.md lists exactly the error codes of errors.go.
//
//	go test ./tests/docs
package docs
