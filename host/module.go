package host

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/a2aport/a2aport/internal/wasmbuild"
)

// Flavour selects one of the two builds of a2aport.wasm made from the same source.
type Flavour int

const (
	// Full speaks A2A 1.0 and, through a2a-go's compat layer, 0.3.
	Full Flavour = iota
	// NoLegacy speaks A2A 1.0 only; the compat layer links gRPC and more than doubles the module.
	// Every adapter starts on it and moves to Full only when the card needs 0.3 (flavour.go).
	NoLegacy
)

func (f Flavour) String() string { return f.build().File }

// build is the flavour's build definition.
func (f Flavour) build() wasmbuild.Flavour {
	if f == NoLegacy {
		return wasmbuild.NoLegacy
	}
	return wasmbuild.Full
}

// Binary, when set before the first New that needs it, is the module of that flavour (as built
// by `make build.wasm`). Otherwise the module is built from this package's source tree on
// demand, once, and cached by content (see ModuleCacheDir): a fresh clone needs no extra step.
var Binary = map[Flavour][]byte{}

// ModuleCacheDir holds modules built on demand; empty means os.UserCacheDir()/a2aport.
var ModuleCacheDir string

// ModuleDir, when set, is a directory with the modules as `make build.wasm` writes them
// (a2aport.wasm, a2aport-1.0.wasm), each read only when an adapter first needs its flavour.
// Binary wins over it; without either the module is built from the source tree.
var ModuleDir string

// moduleBytes returns the module of flavour f.
func moduleBytes(f Flavour) ([]byte, error) {
	if b := Binary[f]; len(b) > 0 {
		return b, nil
	}
	if ModuleDir != "" {
		b, err := os.ReadFile(filepath.Join(ModuleDir, f.String()))
		if err != nil {
			return nil, fmt.Errorf("host: ModuleDir: %w", err)
		}
		return b, nil
	}
	root, err := sourceRoot()
	if err != nil {
		return nil, err
	}
	key, err := sourceKey(root, f)
	if err != nil {
		return nil, err
	}
	dir := ModuleCacheDir
	if dir == "" {
		if dir, err = os.UserCacheDir(); err != nil {
			return nil, fmt.Errorf("host: no cache directory for the module: %w", err)
		}
		dir = filepath.Join(dir, "a2aport")
	}
	path := filepath.Join(dir, key+"-"+f.String())
	if b, err := os.ReadFile(path); err == nil {
		return b, nil
	}
	if err := buildModule(root, f, path); err != nil {
		return nil, err
	}
	return os.ReadFile(path)
}

// sourceRoot finds the repository (the directory with go.mod) this package was compiled from.
func sourceRoot() (string, error) {
	_, file, _, ok := runtime.Caller(0)
	if !ok || !filepath.IsAbs(file) {
		return "", errors.New("host: no module Binary is set and the source tree is unknown (built with -trimpath?): set host.Binary or build with `make build.wasm`")
	}
	root := filepath.Dir(filepath.Dir(file))
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		return "", fmt.Errorf("host: no module Binary is set and %s is not the source tree: %w", root, err)
	}
	return root, nil
}

// sourceKey hashes everything the module is built from, so a cached build is never stale.
func sourceKey(root string, f Flavour) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%s %s %v %v\n", runtime.Version(), f, f.build().Tags, wasmbuild.Env)
	var files []string
	for _, dir := range []string{"adapter", "internal", "wasm"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			return "", fmt.Errorf("host: reading the module source: %w", err)
		}
	}
	files = append(files, filepath.Join(root, "go.mod"), filepath.Join(root, "go.sum"))
	slices.Sort(files)
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			return "", fmt.Errorf("host: reading the module source: %w", err)
		}
		fmt.Fprintf(h, "%s %d\n", strings.TrimPrefix(path, root), len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// buildModule runs the Go toolchain for wasip1 and moves the result into place atomically, so
// concurrent test binaries never read a half-written module.
func buildModule(root string, f Flavour, path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("host: %w", err)
	}
	tmp := fmt.Sprintf("%s.%d.tmp", path, os.Getpid())
	if out, err := wasmbuild.Command(goTool(), root, tmp, f.build()).CombinedOutput(); err != nil {
		return fmt.Errorf("host: building %s: %v\n%s", f, err, out)
	}
	return os.Rename(tmp, path)
}

// goTool is the go command: the one on PATH, else the name, for exec to report.
func goTool() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	return "go"
}
