package wasmbuild

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
)

// SourcePackages are the packages of this repository the module links (`go list -deps ./wasm`
// for wasip1; a test keeps the two equal).
var SourcePackages = []string{
	".", "internal/a2aclient", "internal/abi", "internal/binding", "internal/cardsig", "internal/credentials",
	"internal/growing", "internal/netfail", "internal/park", "wasm", "wasm/internal/bridge",
}

// SourceKey hashes what the module is built from in the source tree at root: the toolchain, the
// flags (wasm-opt's too), the non-test Go files of SourcePackages, go.mod and go.sum. A module
// whose recorded key (Stamp) equals it is the build of that tree.
func SourceKey(root string) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%s %s %v %v\n", runtime.Version(), File, Env, BuildFlags)
	fmt.Fprintf(h, "binaryen %s %v\n", BinaryenVersion, WasmOpt)
	files := []string{"go.mod", "go.sum"}
	for _, pkg := range SourcePackages {
		entries, err := os.ReadDir(filepath.Join(root, pkg))
		if err != nil {
			return "", fmt.Errorf("wasmbuild: reading the module's source: %w", err)
		}
		for _, e := range entries {
			if name := e.Name(); !e.IsDir() && strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
				files = append(files, pkg+"/"+name)
			}
		}
	}
	slices.Sort(files)
	for _, file := range files {
		b, err := os.ReadFile(filepath.Join(root, file))
		if err != nil {
			return "", fmt.Errorf("wasmbuild: reading the module's source: %w", err)
		}
		fmt.Fprintf(h, "%s %d\n", file, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// Stamp is the file beside a built module that records the SourceKey it was built from.
const Stamp = File + ".source"
