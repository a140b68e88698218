package bench

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// BenchmarkModuleSizeByPackage prints where the code of each built module goes (bin/, from
// `make build.wasm`), grouped by Go module path prefix and by package.
func BenchmarkModuleSizeByPackage(b *testing.B) {
	for _, file := range []string{"../bin/a2aport.wasm", "../bin/a2aport-1.0.wasm"} {
		module, err := os.ReadFile(file)
		if err != nil {
			b.Skipf("%v (run make build.wasm first)", err)
		}
		sizes, err := SizeByPackage(module)
		if err != nil {
			b.Fatal(err)
		}
		total := 0
		for _, s := range sizes {
			total += s.Bytes
		}
		fmt.Printf("code by package in %s (%.1f MB of code in a %.1f MB module):\n", strings.TrimPrefix(file, "../bin/"), float64(total)/1e6, float64(len(module))/1e6)
		for _, s := range Top(sizes, 15) {
			fmt.Printf("  %7.2f MB  %s\n", float64(s.Bytes)/1e6, s.Package)
		}
	}
	for b.Loop() {
	}
}
