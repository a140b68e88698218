package host

import (
	"context"
	"testing"
	"time"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/internal/sleepcount"
	"github.com/a2aport/a2aport/internal/testkit/agent"
	"github.com/a2aport/a2aport/internal/testkit/hosttest"
)

var server *agent.Server

func TestMain(m *testing.M) {
	hosttest.Main(m, hosttest.Host{
		Prepare: func(moduleDir, cacheDir string) error {
			if err := Configure(Config{ModuleDir: moduleDir, CompilationCacheDir: cacheDir}); err != nil {
				return err
			}
			return Prepare(context.Background())
		},
		Sleeps: sleepcount.Ended.Load,
	}, &server)
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// newAdapter starts a module-backed adapter on the variant v of the test agent.
func newAdapter(t *testing.T, v agent.Variant, opts a2aport.Options) *Adapter {
	t.Helper()
	opts.AgentCardURL = server.CardURL(v)
	if opts.PollInterval == 0 {
		opts.PollInterval = a2aport.MinPollInterval
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
