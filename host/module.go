package host

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/a2aport/a2aport/internal/module"
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

// Binary, when set before the first New that needs it, is the module of that flavour: a build of
// your own. It wins over ModuleDir and the embedded modules.
var Binary = map[Flavour][]byte{}

// ModuleDir, when set, is a folder with the modules as `make build.wasm` writes them
// (a2aport.wasm, a2aport-1.0.wasm), each read only when an adapter first needs its flavour. It
// wins over the embedded modules.
var ModuleDir string

// moduleBytes returns the module of flavour f: Binary's, ModuleDir's, else the one embedded in
// this Go module (internal/module), so nothing is built at run time and no toolchain is needed.
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
	return embeddedModule(f)
}

// embeddedModule inflates the embedded module of f. With CompilationCacheDir it keeps the result
// there, named by the source it was built from, so later processes read it (milliseconds) instead
// of inflating it again (100 ms for the 1.0-only module, 200 ms for the full one).
func embeddedModule(f Flavour) ([]byte, error) {
	if CompilationCacheDir == "" {
		return module.Bytes(f.String())
	}
	path := filepath.Join(CompilationCacheDir, "modules", module.Source(f.String())+"-"+f.String())
	if b, err := os.ReadFile(path); err == nil {
		return b, nil
	}
	b, err := module.Bytes(f.String())
	if err != nil {
		return nil, err
	}
	// Best effort: a cache that cannot be written costs the next process the inflating only.
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err == nil {
		tmp := fmt.Sprintf("%s.%d.tmp", path, os.Getpid())
		if os.WriteFile(tmp, b, 0o644) == nil && os.Rename(tmp, path) != nil {
			_ = os.Remove(tmp)
		}
	}
	return b, nil
}
