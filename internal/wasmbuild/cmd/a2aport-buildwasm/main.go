// Command a2aport-buildwasm builds both flavours of the module into a folder (`make build.wasm`).
//
//	go run ./internal/wasmbuild/cmd/a2aport-buildwasm -o bin
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/a2aport/a2aport/internal/wasmbuild"
)

func main() {
	dir := flag.String("o", "bin", "the folder the modules are written to")
	flag.Parse()
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "a2aport-buildwasm:", err)
		os.Exit(1)
	}
	for _, f := range []wasmbuild.Flavour{wasmbuild.Full, wasmbuild.NoLegacy} {
		cmd := wasmbuild.Command("go", ".", filepath.Join(*dir, f.File), f)
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		if err := cmd.Run(); err != nil {
			fmt.Fprintf(os.Stderr, "a2aport-buildwasm: %s: %v\n", f.File, err)
			os.Exit(1)
		}
	}
}
