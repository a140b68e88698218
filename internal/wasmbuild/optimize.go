package wasmbuild

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// BinaryenVersion is the binaryen release whose wasm-opt optimizes the module (the npm build, a dev dependency of js/: `make deps` installs it). A module is the build of a
// tree only with this exact version, so it is part of SourceKey.
const BinaryenVersion = "132.0.0"

// WasmOpt are wasm-opt's flags: -O2 and the features Go's wasm output uses. On the module (then
// A2A 1.0 only) they measured 5 % fewer bytes (2.4 % brotli) and a third less time to compile and
// start in V8 (docs/benchmarks.md).
var WasmOpt = []string{"-O2", "--enable-bulk-memory", "--enable-sign-ext", "--enable-nontrapping-float-to-int", "--enable-mutable-globals"}

// wasmOptPath is the npm package's wasm-opt below root, checked to be BinaryenVersion.
func wasmOptPath(root string) (string, error) {
	dir := filepath.Join(root, "js", "node_modules", "binaryen")
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return "", fmt.Errorf("wasmbuild: binaryen %s is not installed in js/node_modules (run make deps): %w", BinaryenVersion, err)
	}
	var pkg struct{ Version string }
	if err := json.Unmarshal(b, &pkg); err != nil || pkg.Version != BinaryenVersion {
		return "", fmt.Errorf("wasmbuild: js/node_modules has binaryen %q, the build needs %s (run make deps)", pkg.Version, BinaryenVersion)
	}
	return filepath.Join(dir, "bin", "wasm-opt"), nil
}

// OptimizeCommand returns wasm-opt (run by node) rewriting the module at in into out, for the
// source tree at root.
func OptimizeCommand(root, in, out string) (*exec.Cmd, error) {
	wasmOpt, err := wasmOptPath(root)
	if err != nil {
		return nil, err
	}
	args := append([]string{wasmOpt}, WasmOpt...)
	cmd := exec.Command("node", append(args, in, "-o", out)...)
	cmd.Dir = root
	return cmd, nil
}
