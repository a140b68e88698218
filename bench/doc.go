// Package bench measures a2aport against the baselines named in docs/benchmarks.md: a2a-go's own
// client natively, and (in js/bench) @a2a-js/sdk's client in Node, on the same bytes from the
// replay agent (package replay). It holds benchmarks only: run them with `make bench`.
//
//	go test -run '^$' -bench Stream -benchtime 3x ./bench/
package bench
