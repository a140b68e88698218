// Package hosttest holds what tests of the wazero host share: where compiled code is cached so
// that only the first test process of a machine pays for compiling the module.
//
//	func TestMain(m *testing.M) {
//		host.CompilationCacheDir = hosttest.CompilationCacheDir()
//		os.Exit(m.Run())
//	}
package hosttest

import (
	"os"
	"path/filepath"
)

// CompilationCacheDir is wazero's on-disk cache for tests: $A2APORT_WAZERO_CACHE, or a folder in
// the user's cache directory.
func CompilationCacheDir() string {
	if dir := os.Getenv("A2APORT_WAZERO_CACHE"); dir != "" {
		return dir
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	return filepath.Join(dir, "a2aport", "wazero")
}
