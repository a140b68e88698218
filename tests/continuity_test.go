package tests

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/internal/testkit/agent"
)

// contextOf submits a "context" Work and returns the remote context id the agent saw.
func contextOf(ctx context.Context, t *testing.T, p a2aport.Port, w a2aport.Work) string {
	t.Helper()
	out, err := p.Submit(ctx, w)
	if err != nil {
		t.Fatalf("Submit(%s) = %v", w.ID, err)
	}
	id, ok := strings.CutPrefix(out.Content, "context=")
	if !ok || id == "" {
		t.Fatalf("content = %q, want context=<id>", out.Content)
	}
	return strings.SplitN(id, "\n", 2)[0]
}

func TestContinuity(t *testing.T) {
	t.Parallel()
	onMatrixEnds(t, func(t *testing.T, ctx context.Context, impl implementation, v agent.Variant) {
		p := newPort(t, impl, a2aport.Options{AgentCardURL: server.CardURL(v), PollInterval: a2aport.MinPollInterval, ReuseContext: true})
		first := contextOf(ctx, t, p, newWork("carol", "context first"))
		if again := contextOf(ctx, t, p, newWork("carol", "context second")); again != first {
			t.Errorf("second Work of an owner ran in context %q, want %q", again, first)
		}
		isolated := newWork("carol", "context isolated")
		isolated.Continuity = a2aport.ContinuityIsolated
		if other := contextOf(ctx, t, p, isolated); other == first {
			t.Error("an isolated Work reused the owner's context")
		}
		if again := contextOf(ctx, t, p, newWork("carol", "context third")); again != first {
			t.Errorf("an isolated Work changed the owner's mapping: %q, want %q", again, first)
		}
		if other := contextOf(ctx, t, p, newWork("dave", "context other owner")); other == first {
			t.Error("another owner shares carol's context")
		}
	})
}

func TestContinuityOffByDefault(t *testing.T) {
	t.Parallel()
	for _, impl := range implementations {
		ctx := testContext(t)
		p := newPort(t, impl, a2aport.Options{AgentCardURL: server.CardURL(agent.Variants()[0])})
		if a, b := contextOf(ctx, t, p, newWork("erin", "context a")), contextOf(ctx, t, p, newWork("erin", "context b")); a == b {
			t.Errorf("%s: without ReuseContext two Works share context %q", impl.name, a)
		}
	}
}

func TestConcurrentFirstWorksShareTheDiscoveredContext(t *testing.T) {
	t.Parallel()
	for _, impl := range implementations {
		ctx := testContext(t)
		p := newPort(t, impl, a2aport.Options{AgentCardURL: server.CardURL(agent.Variants()[0]), ReuseContext: true})
		if _, err := p.Start(ctx); err != nil {
			t.Fatal(err)
		}
		got := make(chan string, 4)
		for i := range cap(got) {
			go func() {
				out, err := p.Submit(ctx, newWork("frank", fmt.Sprintf("context concurrent %d", i)))
				if err != nil {
					got <- "error: " + err.Error()
					return
				}
				got <- out.Content
			}()
		}
		first := <-got
		for range cap(got) - 1 {
			if c := <-got; c != first {
				t.Errorf("%s: concurrent first Works of one owner ran in %q and %q", impl.name, first, c)
			}
		}
	}
}

func TestFailedContextDiscoveryReleasesWaiters(t *testing.T) {
	t.Parallel()
	for _, impl := range implementations {
		ctx := testContext(t)
		p := newPort(t, impl, a2aport.Options{AgentCardURL: server.CardURL(agent.Variants()[0]), ReuseContext: true})
		failed := make(chan error, 1)
		go func() {
			_, err := p.Submit(ctx, newWork("grace", "status500 first"))
			failed <- err
		}()
		c := contextOf(ctx, t, p, newWork("grace", "context after failure"))
		if err := <-failed; err == nil {
			t.Fatalf("%s: the failing Work succeeded", impl.name)
		}
		if again := contextOf(ctx, t, p, newWork("grace", "context later")); again != c {
			t.Errorf("%s: after a failed first Work, the owner's context is %q, want %q", impl.name, again, c)
		}
	}
}

func TestContextCacheCapacityAndClose(t *testing.T) {
	t.Parallel()
	for _, impl := range implementations {
		ctx := testContext(t)
		store := a2aport.NewMemoryContextStore(a2aport.MemoryContextStoreOptions{})
		p := newPort(t, impl, a2aport.Options{AgentCardURL: server.CardURL(agent.Variants()[0]), ReuseContext: true, ContextStore: store})
		for i := range 105 {
			contextOf(ctx, t, p, newWork(fmt.Sprintf("owner-%d", i), "context many"))
		}
		if store.Len() != a2aport.DefaultContextCapacity {
			t.Errorf("%s: store holds %d owners, want %d", impl.name, store.Len(), a2aport.DefaultContextCapacity)
		}
		if err := p.Close(); err != nil {
			t.Fatal(err)
		}
		if store.Len() != 0 {
			t.Errorf("%s: Close left %d cached contexts", impl.name, store.Len())
		}
	}
}

func TestContextMismatch(t *testing.T) {
	t.Parallel()
	for _, impl := range implementations {
		ctx := testContext(t)
		store := a2aport.NewMemoryContextStore(a2aport.MemoryContextStoreOptions{})
		p := newPort(t, impl, a2aport.Options{AgentCardURL: server.CardURL(agent.Variants()[0]), ReuseContext: true, ContextStore: store,
			Headers: http.Header{"X-Test-Id": {t.Name()}}})
		contextOf(ctx, t, p, newWork("heidi", "context established"))
		// The agent answers this Work from another context than the established one.
		_, err := p.Submit(ctx, newWork("heidi", "mismatch context"))
		wantCode(t, err, a2aport.ErrContextMismatch)
	}
}
