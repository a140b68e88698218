package host

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
)

// Config says where this process's module and its compiled code come from. The zero Config is
// the default: the module embedded in this Go module, wazero's compiled code cached in the
// user's cache folder. Give another with Configure, before the first New or Prepare.
type Config struct {
	// Module is a2aport.wasm of your own build; it wins over ModuleDir and the embedded module.
	Module []byte
	// ModuleDir is a folder with a2aport.wasm as `make build.wasm` writes it, read when the first
	// adapter starts. It wins over the embedded module.
	ModuleDir string
	// CompilationCacheDir keeps wazero's compiled code on disk, so that only the first process of
	// a machine compiles the module (seconds; a fraction of one from the cache). Default:
	// DefaultCompilationCacheDir, skipped when it cannot be written (the code is then compiled
	// in memory, once per process); a folder given here that cannot be written is an error.
	CompilationCacheDir string
	// NoCompilationCache compiles in memory, once per process, and writes nothing to disk.
	NoCompilationCache bool
}

// ErrConfigured is Configure's answer once the process's module is in use: the Config they were
// read with stays.
var ErrConfigured = errors.New("host: Configure after the first New or Prepare")

// configured is the process's Config; used is set once a module was looked for with it.
var configured struct {
	sync.Mutex
	c    Config
	used bool
}

// Configure sets the process's Config. Call it once, before the first New or Prepare: every
// adapter of the process shares the compiled module.
func Configure(c Config) error {
	configured.Lock()
	defer configured.Unlock()
	if configured.used {
		return ErrConfigured
	}
	configured.c = c
	return nil
}

// config is the Config in force, from now on fixed.
func config() Config {
	configured.Lock()
	defer configured.Unlock()
	configured.used = true
	return configured.c
}

// cacheDir is the folder for compiled code c asks for ("" for none).
func (c Config) cacheDir() string {
	switch {
	case c.NoCompilationCache:
		return ""
	case c.CompilationCacheDir != "":
		return c.CompilationCacheDir
	}
	return DefaultCompilationCacheDir()
}

// DefaultCompilationCacheDir is where compiled code is kept by default: a2aport/wazero in the
// user's cache folder (os.UserCacheDir), or "" when the user has none.
func DefaultCompilationCacheDir() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "a2aport", "wazero")
}
