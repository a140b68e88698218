package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/a2aport/a2aport/internal/wasmbuild"
)

// BenchmarkModuleSizeByPackage prints where the code of each module goes, grouped by Go
// package: the full module from bin/ (`make build.wasm`), and the 1.0 one as go build writes it,
// before wasm-opt drops the function names (the same code; wasm-opt shrinks it by about 5 %).
func BenchmarkModuleSizeByPackage(b *testing.B) {
	full, err := os.ReadFile("../bin/a2aport.wasm")
	if err != nil {
		b.Skipf("%v (run make build.wasm first)", err)
	}
	printSizes(b, "a2aport.wasm", full)
	out := filepath.Join(b.TempDir(), "a2aport-1.0.wasm")
	if msg, err := wasmbuild.Command("go", "..", out, wasmbuild.NoLegacy).CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, msg)
	}
	noLegacy, err := os.ReadFile(out)
	if err != nil {
		b.Fatal(err)
	}
	printSizes(b, "a2aport-1.0.wasm before wasm-opt", noLegacy)
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
