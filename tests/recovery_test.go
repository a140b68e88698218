package tests

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/a2aport/a2aport"

	"github.com/a2aport/a2aport/adapter"
	"github.com/a2aport/a2aport/internal/testkit/agent"
	"github.com/a2aport/a2aport/internal/testkit/fakeclock"
	"github.com/a2aport/a2aport/internal/testkit/refused"
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
				p := newPort(t, impl, a2aport.Options{AgentCardURL: server.CardURL(v), RecoveryAttempts: -1})
				_, err := p.Submit(testContext(t), newWork("alice", "breakstream please"))
				wantCode(t, err, a2aport.ErrNetworkError)
			})
		}
	}
}

func TestRecoveryBackoffNegative(t *testing.T) {
	t.Parallel()
	_, err := adapter.New(a2aport.Options{AgentCardURL: "http://127.0.0.1:1/.well-known/agent-card.json", RecoveryBackoff: -1})
	wantCode(t, err, a2aport.ErrInvalidOptions)
}

// A send whose connection was never made provably did not reach the agent: A2A_NETWORK_ERROR,
// retryable (unlike A2A_OUTCOME_UNKNOWN), natively and in the module.
func TestSendRefusedIsRetryable(t *testing.T) {
	t.Parallel()
	closed := "http://" + refused.Addr(t) + "/a2a"
	for _, impl := range implementations {
		for _, streaming := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/streaming=%v", impl.name, streaming), func(t *testing.T) {
				t.Parallel()
				card := &a2a.AgentCard{Name: "gone", Version: "1", Capabilities: a2a.AgentCapabilities{Streaming: streaming},
					SupportedInterfaces: []*a2a.AgentInterface{a2a.NewAgentInterface(closed, a2a.TransportProtocolJSONRPC)},
					DefaultInputModes:   []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"}}
				p := newPort(t, impl, a2aport.Options{AgentCard: card, PollInterval: a2aport.MinPollInterval})
				_, err := p.Submit(testContext(t), newWork("alice", "complete never"))
				wantCode(t, err, a2aport.ErrNetworkError)
				if ae := (*a2aport.Error)(nil); errors.As(err, &ae) && !ae.Retryable {
					t.Errorf("error = %+v: not retryable, but nothing was sent", ae)
				}
			})
		}
	}
}

// busyOnce answers the first GetTask with 503 and Retry-After: 30, and passes everything else to
// the real agent; it counts the GetTasks that reached the agent.
type busyOnce struct {
	mu      sync.Mutex
	refused bool
	passed  int
}

func (b *busyOnce) RoundTrip(req *http.Request) (*http.Response, error) {
	if isGetTask(req) {
		b.mu.Lock()
		refuse := !b.refused
		b.refused = true
		if !refuse {
			b.passed++
		}
		b.mu.Unlock()
		if refuse {
			return &http.Response{StatusCode: http.StatusServiceUnavailable, Status: "503 Service Unavailable", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
				Header: http.Header{"Retry-After": {"30"}, "Content-Type": {"text/plain"}}, Body: io.NopCloser(strings.NewReader("busy")), Request: req}, nil
		}
	}
	return http.DefaultTransport.RoundTrip(req)
}

func (b *busyOnce) getTasks() (refused bool, passed int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.refused, b.passed
}

// isGetTask recognizes a 1.0 JSON-RPC GetTask by its body, which it leaves readable.
func isGetTask(req *http.Request) bool {
	if req.Body == nil || req.Method != http.MethodPost {
		return false
	}
	body, _ := io.ReadAll(req.Body)
	req.Body = io.NopCloser(bytes.NewReader(body))
	return bytes.Contains(body, []byte(`"method":"GetTask"`))
}

// A GetTask answered 503 with Retry-After does not fail a polling Work: the adapter waits what the
// agent asked (on the adapter's clock, here a fake one) and polls again.
func TestPollHonoursRetryAfter(t *testing.T) {
	t.Parallel()
	v := agent.Variant{Version: "1.0", Binding: "JSONRPC", Streaming: false}
	for _, impl := range implementations {
		t.Run(impl.name, func(t *testing.T) {
			t.Parallel()
			ctx := testContext(t)
			clock, busy := fakeclock.New(), &busyOnce{}
			p := newPort(t, impl, a2aport.Options{AgentCardURL: server.CardURL(v), PollInterval: a2aport.MinPollInterval, Clock: clock, Transport: busy})
			rec := newRecorder()
			done := submitAsync(ctx, p, newWork("alice", "slow 100"), rec)
			// Once sent, the Work polls after its interval; that first poll is refused. (The send's
			// answer may show the task submitted or working: wait for the refusal, not a state.)
			for refused, _ := busy.getTasks(); !refused; refused, _ = busy.getTasks() {
				if err := clock.WaitTimers(ctx, 1); err != nil {
					t.Fatal(err)
				}
				clock.Advance(a2aport.MinPollInterval)
				time.Sleep(5 * time.Millisecond) // let the poll happen before the clock moves on
			}
			rec.waitFor(ctx, t, 0, func(ev a2aport.Event) bool { return ev.Reconnecting })
			// Now the adapter must wait the agent's 30 s, not its own backoff of under a second.
			if err := clock.WaitTimers(ctx, 1); err != nil {
				t.Fatal(err)
			}
			clock.Advance(29 * time.Second)
			if _, passed := busy.getTasks(); passed != 0 {
				t.Fatalf("polled again %d time(s) within the 30 s Retry-After", passed)
			}
			tick := time.NewTicker(20 * time.Millisecond)
			defer tick.Stop()
			for {
				select {
				case r := <-done:
					if r.err != nil {
						t.Fatalf("Submit() = %v, want the task completed after the wait", r.err)
					}
					if _, passed := busy.getTasks(); passed == 0 {
						t.Fatal("the Work completed without polling again")
					}
					return
				case <-tick.C:
					clock.Advance(time.Second)
				case <-ctx.Done():
					t.Fatal(ctx.Err())
				}
			}
		})
	}
}
