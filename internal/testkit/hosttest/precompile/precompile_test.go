// Package precompile compiles the module the tests will run (hosttest.ModuleDir) into the tests'
// wazero cache (hosttest.CompilationCacheDir) before they start. A test binary built with -race
// compiles the module many times slower than one without, and the compiled code is the same; `make
// test.go` runs this first, without -race:
//
//	go test -count=1 ./internal/testkit/hosttest/precompile
//
// It is a test, not a command: wazero keys its cache by its own version, which a test binary
// does not know (it reads "dev"), so only a test binary writes what other test binaries read.
package precompile

import (
	"context"
	"testing"
	"time"

	"github.com/a2aport/a2aport/host"
	"github.com/a2aport/a2aport/internal/testkit/hosttest"
)

func TestPrecompile(t *testing.T) {
	start := time.Now()
	moduleDir, cacheDir := hosttest.MustDirs()
	if err := host.Configure(host.Config{ModuleDir: moduleDir, CompilationCacheDir: cacheDir}); err != nil {
		t.Fatal(err)
	}
	if err := host.Prepare(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Logf("module compiled into %s in %v", cacheDir, time.Since(start).Round(time.Millisecond))
}
