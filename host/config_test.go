package host

import (
	"errors"
	"testing"
)

// The process's modules are read with one Config: once TestMain's Prepare used it, another is
// refused and the one in force stays.
func TestConfigureAfterUseIsRefused(t *testing.T) {
	t.Parallel()
	before := config()
	if err := Configure(Config{ModuleDir: t.TempDir()}); !errors.Is(err, ErrConfigured) {
		t.Fatalf("Configure after Prepare = %v, want ErrConfigured", err)
	}
	if after := config(); after.ModuleDir != before.ModuleDir || after.CompilationCacheDir != before.CompilationCacheDir {
		t.Errorf("the Config in force changed: %+v, was %+v", after, before)
	}
}

// NoCompilationCache wins over a folder; an empty Config caches in the default folder.
func TestConfigCacheDir(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{}, DefaultCompilationCacheDir()},
		{Config{CompilationCacheDir: "/x"}, "/x"},
		{Config{CompilationCacheDir: "/x", NoCompilationCache: true}, ""},
	} {
		if got := c.cfg.cacheDir(); got != c.want {
			t.Errorf("%+v.cacheDir() = %q, want %q", c.cfg, got, c.want)
		}
	}
}
