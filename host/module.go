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

// moduleBytes returns the module of flavour f: c.Modules', c.ModuleDir's, else the one embedded in
// this Go module (internal/module), so nothing is built at run time and no toolchain is needed.
func moduleBytes(c Config, f Flavour) ([]byte, error) {
	if b := c.Modules[f]; len(b) > 0 {
		return b, nil
	}
	if c.ModuleDir != "" {
		b, err := os.ReadFile(filepath.Join(c.ModuleDir, f.String()))
		if err != nil {
			return nil, fmt.Errorf("host: ModuleDir: %w", err)
		}
		return b, nil
	}
	return embeddedModule(c.cacheDir(), f)
}

// embeddedModule inflates the embedded module of f. With a cache folder it keeps the result
// there, named by the source it was built from, so later processes read it (milliseconds) instead
// of inflating it again (100 ms for the 1.0-only module, 200 ms for the full one).
func embeddedModule(cacheDir string, f Flavour) ([]byte, error) {
	if cacheDir == "" {
		return module.Bytes(f.String())
	}
	path := filepath.Join(cacheDir, "modules", module.Source(f.String())+"-"+f.String())
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
