package tests

import (
	"testing"
	"time"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/host"
	"github.com/a2aport/a2aport/internal/testkit/agent"
)

// TestFaultsLeaveNothingBehind runs one Work of every fault, one after the other, on one module
// instance, and checks that no fetch, timer or goroutine of the module or its host outlives them,
// and that the next Work succeeds: a dropped, stalled, refused or oversized answer is let go of.
func TestFaultsLeaveNothingBehind(t *testing.T) {
	t.Parallel()
	faults := []string{"breakstream please", "stallstream please", "stallfirst please", "dropsend please",
		"rpcerror please", "nostream please", "status401 please", "status429 please", "badjson please", "wrongtype please",
		"big 100000", "cutstream please", "emptystream please"}
	for _, v := range []agent.Variant{{Version: "1.0", Binding: "JSONRPC", Streaming: true}, {Version: "0.3", Binding: "HTTP+JSON", Streaming: false}} {
		t.Run(v.Name(), func(t *testing.T) {
			t.Parallel()
			ctx := testContext(t)
			p := newPort(t, implementations[1], a2aport.Options{AgentCardURL: server.CardURL(v), PollInterval: a2aport.MinPollInterval,
				StreamIdleTimeout: 200 * time.Millisecond, FirstEventTimeout: 300 * time.Millisecond, MaxResponseBytes: 64 << 10})
			h := p.(*host.Adapter)
			if _, err := p.Submit(ctx, newWork("alice", "complete first")); err != nil {
				t.Fatal(err)
			}
			base, err := h.Stats(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, instruction := range faults {
				_, _ = p.Submit(ctx, newWork("alice", instruction)) // each ends in its own way: the matrix checks how
			}
			out, err := p.Submit(ctx, newWork("alice", "complete last"))
			if err != nil || out.Content == "" {
				t.Fatalf("the Work after the faults: %+v, %v", out, err)
			}
			after, err := h.Stats(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if after.Module.Goroutines != base.Module.Goroutines || after.Module.Busy != base.Module.Busy || after.Module.Fetches != 0 ||
				after.Module.Timers != 0 || after.Module.Sleeping != 0 || after.HostFetches != 0 || after.HostTimers != 0 ||
				after.Traps != 0 || after.RuntimeSleeps != 0 {
				t.Errorf("after the faults: %+v\nbaseline: %+v", after, base)
			}
		})
	}
}
