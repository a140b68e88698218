package host

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCompilationCacheDefaultIsTheUserCacheFolder(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	want := filepath.Join(os.Getenv("XDG_CACHE_HOME"), "a2aport", "wazero")
	if got := DefaultCompilationCacheDir(); got != want {
		t.Fatalf("DefaultCompilationCacheDir() = %q, want %q", got, want)
	}
	cache, err := compilationCache(want)
	if err != nil || cache == nil {
		t.Fatalf("compilationCache(default) = %v, %v; want a cache", cache, err)
	}
	if fi, err := os.Stat(want); err != nil || !fi.IsDir() {
		t.Fatalf("the default folder was not created: %v", err)
	}
}

func TestCompilationCacheThatCannotBeWritten(t *testing.T) {
	// A file where the folder's parent should be: unwritable even for root, whom permissions
	// do not stop.
	base := t.TempDir()
	blocker := filepath.Join(base, "file")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CACHE_HOME", blocker) // a2aport/wazero below a file: never a folder
	t.Setenv("HOME", base)
	dir := DefaultCompilationCacheDir()
	if cache, err := compilationCache(dir); err != nil || cache != nil {
		t.Errorf("an unwritable default: compilationCache = %v, %v; want none and no error (compile in memory)", cache, err)
	}
	chosen := filepath.Join(blocker, "chosen")
	if _, err := compilationCache(chosen); err == nil || !strings.Contains(err.Error(), "compilation cache") {
		t.Errorf("an unwritable folder the caller chose: err = %v, want a compilation cache error", err)
	}
	if cache, err := compilationCache(""); err != nil || cache != nil {
		t.Errorf(`compilationCache("") = %v, %v; want none`, cache, err)
	}
}
