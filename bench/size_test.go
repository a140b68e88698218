package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/a2aport/a2aport/internal/wasmbuild"
)

// BenchmarkModuleSizeByPackage prints where the module's code goes, grouped by Go package, as go
// build writes it, before wasm-opt drops the function names (the same code; wasm-opt shrinks it
// by about 5 %).
func BenchmarkModuleSizeByPackage(b *testing.B) {
	out := filepath.Join(b.TempDir(), wasmbuild.File)
	if msg, err := wasmbuild.Command("go", "..", out).CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, msg)
	}
	module, err := os.ReadFile(out)
	if err != nil {
		b.Fatal(err)
	}
	printSizes(b, "a2aport.wasm before wasm-opt", module)
	for b.Loop() {
	}
}

func printSizes(b *testing.B, name string, module []byte) {
	sizes, err := SizeByPackage(module)
	if err != nil {
		b.Fatal(err)
	}
	total := 0
	for _, s := range sizes {
		total += s.Bytes
	}
	fmt.Printf("code by package in %s (%.1f MB of code in a %.1f MB module):\n", name, float64(total)/1e6, float64(len(module))/1e6)
	for _, s := range Top(sizes, 15) {
		fmt.Printf("  %7.2f MB  %s\n", float64(s.Bytes)/1e6, s.Package)
	}
}
