package tests

import (
	"errors"
	"fmt"
	"net"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"

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

// A send whose connection was never made provably did not reach the agent: A2A_NETWORK_ERROR,
// retryable (unlike A2A_OUTCOME_UNKNOWN), natively and in the module.
func TestSendRefusedIsRetryable(t *testing.T) {
	t.Parallel()
	closed := closedPortURL(t)
	for _, impl := range implementations {
		for _, streaming := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/streaming=%v", impl.name, streaming), func(t *testing.T) {
				t.Parallel()
				card := &a2a.AgentCard{Name: "gone", Version: "1", Capabilities: a2a.AgentCapabilities{Streaming: streaming},
					SupportedInterfaces: []*a2a.AgentInterface{a2a.NewAgentInterface(closed, a2a.TransportProtocolJSONRPC)},
					DefaultInputModes:   []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"}}
				p := newPort(t, impl, adapter.Options{AgentCard: card, PollInterval: adapter.MinPollInterval})
				_, err := p.Submit(testContext(t), newWork("alice", "complete never"))
				wantCode(t, err, adapter.ErrNetworkError)
				if ae := (*adapter.Error)(nil); errors.As(err, &ae) && !ae.Retryable {
					t.Errorf("error = %+v: not retryable, but nothing was sent", ae)
				}
			})
		}
	}
}

// closedPortURL is an http URL on 127.0.0.1 where nothing listens.
func closedPortURL(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String() + "/a2a"
	_ = ln.Close()
	return url
}
