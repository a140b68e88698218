// Command a2aport-buildwasm builds the module into a folder, with a stamp of the source it was
// built from, unless the stamp there is already this tree's; with -embed it also writes it,
// compressed, where internal/module embeds it (`make build.wasm`).
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
	key, err := wasmbuild.SourceKey(".")
	if err != nil {
		return err
	}
	out, stamp := filepath.Join(dir, wasmbuild.File), filepath.Join(dir, wasmbuild.Stamp)
	if built, err := os.ReadFile(stamp); err != nil || string(built) != key || !exists(out) {
		if err := build(out); err != nil {
			return err
		}
		if err := os.WriteFile(stamp, []byte(key), 0o644); err != nil {
			return err
		}
	} else {
		fmt.Printf("%s is the build of this tree (%s)\n", out, key)
	}
	if embed == "" {
		return nil
	}
	if err := compress(out, filepath.Join(embed, wasmbuild.File+".gz")); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(embed, wasmbuild.Stamp), []byte(key), 0o644)
}

// build runs the go build and wasm-opt into temporary files and moves the result into place,
// so that nobody reads a half-written module.
func build(out string) error {
	tmp := fmt.Sprintf("%s.%d.tmp", out, os.Getpid())
	defer os.Remove(tmp)
	cmd := wasmbuild.Command("go", ".", tmp)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %w", wasmbuild.File, err)
	}
	opt := tmp + ".opt"
	defer os.Remove(opt)
	start := time.Now()
	cmd, err := wasmbuild.OptimizeCommand(".", tmp, opt)
	if err != nil {
		return err
	}
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: wasm-opt: %w", wasmbuild.File, err)
	}
	fmt.Printf("%s: wasm-opt %v in %v\n", wasmbuild.File, wasmbuild.WasmOpt, time.Since(start).Round(time.Second))
	return os.Rename(opt, out)
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
