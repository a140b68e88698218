// Package apiguard keeps the public API from changing unnoticed: it lists the exported
// declarations of every public Go package (signatures only: no comments, no parameter names) and
// the declarations of the JS package's index.d.ts (no comments), and its test compares them with
// the listing committed in api/. A change to either fails `make test` until the listing is
// written again, with the change said in CHANGELOG.md:
//
//	go run ./internal/apiguard/cmd/apiguard -w    # writes api/*.txt from the tree
package apiguard
