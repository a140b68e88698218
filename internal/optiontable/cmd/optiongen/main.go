// Command optiongen writes what internal/optiontable's table states: a2aport's Options and its
// defaults (options.go), the options that cross to the module (internal/abi/options_gen.go), the
// defaults and ranges of the numbers (internal/a2aclient/options_gen.go), the JS package's option
// table (js/src/optiontable.js) and its declaration (index.d.ts AdapterOptions), and both tables
// of docs/options.md. go generate runs it (internal/abi/doc.go) before easyjson.
//
//	go run ./internal/optiontable/cmd/optiongen -root .
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/a2aport/a2aport/internal/optiontable"
)

func main() {
	root := flag.String("root", ".", "the module root")
	flag.Parse()
	if err := run(*root); err != nil {
		fmt.Fprintln(os.Stderr, "optiongen:", err)
		os.Exit(1)
	}
}

func run(root string) error {
	dts, err := os.ReadFile(filepath.Join(root, "js", "index.d.ts"))
	if err != nil {
		return err
	}
	docs, err := os.ReadFile(filepath.Join(root, "docs", "options.md"))
	if err != nil {
		return err
	}
	files, err := optiontable.Files(string(dts), string(docs))
	if err != nil {
		return err
	}
	for path, b := range files {
		if err := os.WriteFile(filepath.Join(root, path), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}
