package tests

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/host"
	"github.com/a2aport/a2aport/internal/testkit/replay"
)

// longAnswer is the answer of TestLongStream: 100,000 chunks of 300 bytes, 30 MB of text.
const longAnswer = 100_000

// TestLongStream streams one answer of 100,000 chunks (a2a-go's own bytes, replayed; from an A2A
// 1.0 agent and from a 0.3 one) through every implementation: it completes with the exact text, every chunk shows as one event, and
// the module's memory stays bounded: within 4x the merged text plus 32 MB. (The target is 3x;
// where the allocator places the text's growing buffer decides whether a run lands at 3x or near
// 4x, so docs/benchmarks.md records the figure and this test guards against growth, not placement.)
// Throughput is measured in bench/, not here. It runs alone (not parallel): the memory bound is
// about this answer, not about whatever else the test binary runs.
func TestLongStream(t *testing.T) {
	agent, err := replay.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = agent.Close() })
	want := replay.Text(longAnswer)
	for _, impl := range implementations {
		for version, card := range map[string]string{"1.0": agent.CardURL(longAnswer), "0.3": agent.CardURL03(longAnswer)} {
			t.Run(impl.name+"/"+version, func(t *testing.T) { longStream(t, impl, card, want) })
		}
	}
}

func longStream(t *testing.T, impl implementation, card, want string) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	port := newPort(t, impl, a2aport.Options{AgentCardURL: card})
	events, deltas := 0, 0
	out, err := port.Submit(ctx, a2aport.Work{ID: "long", OwnerID: "o", Instruction: "answer at length"}, a2aport.OnEvent(func(ev a2aport.Event) {
		if ev.Type == a2aport.EventArtifact {
			events++
			if ev.Delta != nil && len(ev.Delta.Text) == replay.ChunkBytes {
				deltas++
			}
		}
	}))
	if err != nil {
		t.Fatalf("Submit() error = %v", err)
	}
	if len(out.Artifacts) != 1 || len(out.Artifacts[0].Parts) != 1 || out.Artifacts[0].Parts[0].Text != want {
		t.Fatalf("the merged answer is not the %d bytes sent", len(want))
	}
	if events != longAnswer || deltas != longAnswer-1 {
		t.Errorf("artifact events = %d with %d one-chunk deltas, want %d and %d", events, deltas, longAnswer, longAnswer-1)
	}
	if h, ok := port.(*host.Adapter); ok {
		st, err := h.Stats(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if limit := 4*len(want) + 32<<20; int(st.MemoryBytes) > limit {
			t.Errorf("module memory %d MB, want at most %d MB (4x the %d MB answer + 32 MB)", st.MemoryBytes>>20, limit>>20, len(want)>>20)
		}
		t.Logf("module memory after a %s answer: %d MB (heap %d MB)", fmt.Sprintf("%d MB", len(want)>>20), st.MemoryBytes>>20, st.Module.HeapBytes>>20)
	}
}
