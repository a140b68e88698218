package tests

import (
	"context"
	"fmt"
	"testing"

	"github.com/a2aport/a2aport/adapter"
	"github.com/a2aport/a2aport/adapter/conformance"
	"github.com/a2aport/a2aport/tests/agent"
)

// TestConformance runs the contract checks of DESIGN.md §2 against every implementation, on a
// streaming 1.0 agent and on a polling 0.3 agent.
func TestConformance(t *testing.T) {
	t.Parallel()
	onMatrixEnds(t, func(t *testing.T, _ context.Context, impl implementation, v agent.Variant) {
		conformance.Run(t, func(t *testing.T, opts conformance.FixtureOptions) conformance.Fixture {
			o := adapter.Options{AgentCardURL: server.CardURL(v), PollInterval: adapter.MinPollInterval, WorkStore: &adapter.MemoryWorkStore{}}
			p := newPort(t, impl, o)
			kind := "complete conformance"
			if opts.Hold {
				kind = "hold conformance"
			}
			next := func() adapter.Work {
				// Unique instructions let Started find this Work's execution at the agent.
				return newWork("conformance-owner", fmt.Sprintf("%s %s %d", kind, t.Name(), workSeq.Add(1)))
			}
			w := next()
			f := conformance.Fixture{Backend: p, Work: w, NextWork: next,
				Reopen: func(t *testing.T) adapter.Port { return newPort(t, impl, o) }}
			if opts.Hold {
				f.Started = func(ctx context.Context) error { return server.WaitStarted(ctx, w.Instruction) }
			}
			return f
		})
	})
}
