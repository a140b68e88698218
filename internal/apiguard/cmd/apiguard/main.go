// Command apiguard writes api/, the listing of the public API that internal/apiguard's test holds
// the tree to (run it from the module root after a change that is meant, and say the change in
// CHANGELOG.md):
//
//	go run ./internal/apiguard/cmd/apiguard -w
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/a2aport/a2aport/internal/apiguard"
)

func main() {
	write := flag.Bool("w", false, "write api/ from the tree")
	flag.Parse()
	if !*write {
		fmt.Fprintln(os.Stderr, "usage: apiguard -w (from the module root)")
		os.Exit(2)
	}
	if err := apiguard.Write("."); err != nil {
		fmt.Fprintln(os.Stderr, "apiguard:", err)
		os.Exit(1)
	}
}
