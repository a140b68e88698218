// Package hosttest holds what tests of the wazero host share: the modules they run (the build of
// the tree under test, never an older one) and where compiled code is cached, so that only the
// first test process of a machine pays for compiling them.
//
//	func TestMain(m *testing.M) {
//		moduleDir, cacheDir := hosttest.MustDirs()
//		_ = host.Configure(host.Config{ModuleDir: moduleDir, CompilationCacheDir: cacheDir})
//		os.Exit(m.Run())
//	}
package hosttest

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/a2aport/a2aport/internal/module"
	"github.com/a2aport/a2aport/internal/testkit/agent"
	"github.com/a2aport/a2aport/internal/wasmbuild"
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

// ModuleDir is the folder of the module to test, for host.Config.ModuleDir: bin/ when `make build.wasm`
// built it from this tree, else "" when the embedded module is this tree's build (a fresh clone
// of a landed commit). Otherwise an error says how to build them: a test never runs a module
// older than the code it tests, and never builds one itself.
func ModuleDir() (string, error) {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", fmt.Errorf("hosttest: the source tree is unknown")
	}
	root := filepath.Join(filepath.Dir(file), "..", "..", "..")
	key, err := wasmbuild.SourceKey(root)
	if err != nil {
		return "", err
	}
	stamp, err := os.ReadFile(filepath.Join(root, "bin", wasmbuild.Stamp))
	bin := err == nil && string(stamp) == key
	embedded := module.Source() == key
	switch {
	case bin:
		return filepath.Join(root, "bin"), nil
	case embedded:
		return "", nil
	}
	return "", fmt.Errorf("hosttest: neither bin/ nor the embedded module is the build of this tree: run `make build.wasm`")
}

// MustDirs returns ModuleDir and CompilationCacheDir, for a TestMain; when no module is this
// tree's build it says so and exits, before any test starts.
func MustDirs() (moduleDir, cacheDir string) {
	dir, err := ModuleDir()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	return dir, CompilationCacheDir()
}

// Host is what Main needs of the wazero host, given as functions: the host's own tests cannot
// import it by name.
type Host struct {
	// Prepare points the host at the modules and cache of MustDirs and compiles them.
	Prepare func(moduleDir, cacheDir string) error
	// Sleeps counts the module's requests to sleep (sleepcount.Ended).
	Sleeps func() int64
}

// Main runs the tests of a package that drives the host: the modules compiled before any test's
// deadline starts, the test agent started (in *server), and once the tests are done, a failure if
// the Go runtime in the module ever asked to sleep: a quiescence count is wrong (DESIGN.md §4).
func Main(m *testing.M, h Host, server **agent.Server) {
	if err := h.Prepare(MustDirs()); err != nil {
		fmt.Fprintln(os.Stderr, "preparing the module:", err)
		os.Exit(1)
	}
	s, err := agent.Start()
	if err != nil {
		fmt.Fprintln(os.Stderr, "starting the test agent:", err)
		os.Exit(1)
	}
	*server = s
	code := m.Run()
	s.Close()
	if n := h.Sleeps(); n != 0 && code == 0 { // every adapter is closed by now
		fmt.Fprintf(os.Stderr, "the Go runtime in the module asked to sleep %d times: a quiescence count is wrong\n", n)
		code = 1
	}
	os.Exit(code)
}
