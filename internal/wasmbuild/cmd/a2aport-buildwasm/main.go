// Command a2aport-buildwasm builds both flavours of the module into a folder, each with a stamp
// of the source it was built from, skipping a flavour whose stamp is already this tree's; with
// -embed it also writes them, compressed, where internal/module embeds them (`make build.wasm`).
//
//	go run ./internal/wasmbuild/cmd/a2aport-buildwasm -o bin -embed internal/module
package main

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/a2aport/a2aport/internal/wasmbuild"
)

func main() {
	dir := flag.String("o", "bin", "the folder the modules are written to")
	embed := flag.String("embed", "", "also write the modules, gzip-compressed, into this folder")
	flag.Parse()
	if err := run(*dir, *embed); err != nil {
		fmt.Fprintln(os.Stderr, "a2aport-buildwasm:", err)
		os.Exit(1)
	}
}

func run(dir, embed string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range wasmbuild.Flavours {
		key, err := wasmbuild.SourceKey(".", f)
		if err != nil {
			return err
		}
		out, stamp := filepath.Join(dir, f.File), filepath.Join(dir, f.Stamp())
		if built, err := os.ReadFile(stamp); err != nil || string(built) != key || !exists(out) {
			if err := build(f, out); err != nil {
				return err
			}
			if err := os.WriteFile(stamp, []byte(key), 0o644); err != nil {
				return err
			}
		} else {
			fmt.Printf("%s is the build of this tree (%s)\n", out, key)
		}
		if embed != "" {
			if err := compress(out, filepath.Join(embed, f.File+".gz")); err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(embed, f.Stamp()), []byte(key), 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

// build runs the go build of f into a temporary file and moves it into place, so that nobody
// reads a half-written module.
func build(f wasmbuild.Flavour, out string) error {
	tmp := fmt.Sprintf("%s.%d.tmp", out, os.Getpid())
	defer os.Remove(tmp)
	cmd := wasmbuild.Command("go", ".", tmp, f)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %w", f.File, err)
	}
	if f.Optimize {
		opt := tmp + ".opt"
		defer os.Remove(opt)
		start := time.Now()
		cmd, err := wasmbuild.OptimizeCommand(".", tmp, opt)
		if err != nil {
			return err
		}
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("%s: wasm-opt: %w", f.File, err)
		}
		fmt.Printf("%s: wasm-opt %v in %v\n", f.File, wasmbuild.WasmOpt, time.Since(start).Round(time.Second))
		tmp = opt
	}
	return os.Rename(tmp, out)
}

// compress writes src gzip-compressed to dst with nothing in the header that varies (no name, no
// time), so one build always gives the same bytes and a stale copy shows as a change.
func compress(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression) // a valid level: no error
	if _, err := zw.Write(b); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return os.WriteFile(dst, buf.Bytes(), 0o644)
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
