package tests

import (
	"testing"

	"github.com/a2aport/a2aport/adapter"
	"github.com/a2aport/a2aport/tests/agent"
)

// With recovery turned off, a stream whose connection drops fails the Work with the network's
// code, the same natively and in the module.
func TestRecoveryOff(t *testing.T) {
	t.Parallel()
	for _, impl := range implementations {
		for _, v := range agent.Variants() {
			if !v.Streaming {
				continue
			}
			t.Run(impl.name+"/"+v.Name(), func(t *testing.T) {
				t.Parallel()
				p := newPort(t, impl, adapter.Options{AgentCardURL: server.CardURL(v), RecoveryAttempts: -1})
				_, err := p.Submit(testContext(t), newWork("alice", "breakstream please"))
				wantCode(t, err, adapter.ErrNetworkError)
			})
		}
	}
}

func TestRecoveryBackoffNegative(t *testing.T) {
	t.Parallel()
	_, err := adapter.New(adapter.Options{AgentCardURL: "http://127.0.0.1:1/.well-known/agent-card.json", RecoveryBackoff: -1})
	wantCode(t, err, adapter.ErrInvalidOptions)
}
