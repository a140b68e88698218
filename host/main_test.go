package host

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/a2aport/a2aport/adapter"
	"github.com/a2aport/a2aport/internal/testkit/hosttest"
	"github.com/a2aport/a2aport/tests/agent"
)

var server *agent.Server

func TestMain(m *testing.M) {
	ModuleDir, CompilationCacheDir = hosttest.MustDirs()
	if err := Prepare(context.Background(), Full); err != nil {
		fmt.Fprintln(os.Stderr, "preparing the module:", err)
		os.Exit(1)
	}
	var err error
	if server, err = agent.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "starting the test agent:", err)
		os.Exit(1)
	}
	code := m.Run()
	server.Close()
	if n := sleeps.Load(); n != 0 && code == 0 { // every adapter is closed by now
		// The module asked the host to sleep: a goroutine was counted wrong somewhere (DESIGN.md §4).
		fmt.Fprintf(os.Stderr, "the Go runtime in the module asked to sleep %d times\n", n)
		code = 1
	}
	os.Exit(code)
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// newAdapter starts a module-backed adapter on the variant v of the test agent.
func newAdapter(t *testing.T, v agent.Variant, opts adapter.Options) *Adapter {
	t.Helper()
	opts.AgentCardURL = server.CardURL(v)
	if opts.PollInterval == 0 {
		opts.PollInterval = adapter.MinPollInterval
	}
	h, err := New(context.Background(), opts)
	if err != nil {
		t.Fatalf("New() = %v", err)
	}
	t.Cleanup(func() {
		if err := h.Close(); err != nil {
			t.Errorf("Close() = %v", err)
		}
	})
	return h
}

var streaming = agent.Variants()[0] // 1.0 JSON-RPC with streaming
