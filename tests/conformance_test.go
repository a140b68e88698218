package tests

import (
	"context"
	"fmt"
	"testing"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/conformance"
	"github.com/a2aport/a2aport/internal/testkit/agent"
)

// TestConformance runs the contract checks of DESIGN.md §2 against every implementation, on a
// streaming 1.0 agent and on a polling 0.3 agent.
func TestConformance(t *testing.T) {
	t.Parallel()
	onMatrixEnds(t, func(t *testing.T, _ context.Context, impl implementation, v agent.Variant) {
		conformance.Run(t, func(t *testing.T, opts conformance.FixtureOptions) conformance.Fixture {
			o := a2aport.Options{AgentCardURL: server.CardURL(v), PollInterval: a2aport.MinPollInterval, WorkStore: &a2aport.MemoryWorkStore{}}
			p := newPort(t, impl, o)
			f := agentFixture(t, p, "conformance-owner", "conformance", opts)
			f.Reopen = func(t *testing.T) a2aport.Port { return newPort(t, impl, o) }
			return f
		})
	})
}

// agentFixture is a conformance fixture whose Works go to the test agent, directly or through a
// facade: their instructions are unique, so Started finds the held Work's execution there.
func agentFixture(t *testing.T, p a2aport.Port, owner, label string, opts conformance.FixtureOptions) conformance.Fixture {
	kind := "complete " + label
	if opts.Hold {
		kind = "hold " + label
	}
	next := func() a2aport.Work {
		return newWork(owner, fmt.Sprintf("%s %s %d", kind, t.Name(), workSeq.Add(1)))
	}
	w := next()
	f := conformance.Fixture{Backend: p, Work: w, NextWork: next}
	if opts.Hold {
		f.Started = func(ctx context.Context) error { return server.WaitStarted(ctx, w.Instruction) }
	}
	return f
}
