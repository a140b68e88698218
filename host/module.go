package host

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/a2aport/a2aport/internal/module"
	"github.com/a2aport/a2aport/internal/wasmbuild"
)

// moduleBytes returns the module: c.Module, c.ModuleDir's, else the one embedded in this Go
// module (internal/module), so nothing is built at run time and no toolchain is needed.
func moduleBytes(c Config) ([]byte, error) {
	if len(c.Module) > 0 {
		return c.Module, nil
	}
	if c.ModuleDir != "" {
		b, err := os.ReadFile(filepath.Join(c.ModuleDir, wasmbuild.File))
		if err != nil {
			return nil, fmt.Errorf("host: ModuleDir: %w", err)
		}
		return b, nil
	}
	return embeddedModule(c.cacheDir())
}

// embeddedModule inflates the embedded module. With a cache folder it keeps the result there,
// named by the source it was built from, so later processes read it (milliseconds) instead of
// inflating it again (about 100 ms).
func embeddedModule(cacheDir string) ([]byte, error) {
	if cacheDir == "" {
		return module.Bytes()
	}
	path := filepath.Join(cacheDir, "modules", module.Source()+"-"+wasmbuild.File)
	if b, err := os.ReadFile(path); err == nil {
		return b, nil
	}
	b, err := module.Bytes()
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
