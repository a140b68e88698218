package tests

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/internal/testkit/agent"
)

// TestTraceparent: a Work's W3C trace context reaches the agent on each of that Work's requests
// (the send of a streaming agent; the send and every GetTask of a polling one), natively and
// through the module; a malformed one fails Submit with INVALID_WORK before any request.
func TestTraceparent(t *testing.T) {
	t.Parallel()
	for _, impl := range implementations {
		for i, v := range []agent.Variant{agent.Variants()[0], {Version: "1.0", Binding: "HTTP+JSON", Streaming: false}} {
			t.Run(impl.name+"/"+v.Name(), func(t *testing.T) {
				t.Parallel()
				p := newPort(t, impl, a2aport.Options{AgentCardURL: server.CardURL(v), PollInterval: a2aport.MinPollInterval})
				tp := fmt.Sprintf("00-%032x-%016x-01", workSeq.Add(1)+int64(100*i)+1, 7)
				out, err := p.Submit(testContext(t), newWork("alice", "slow 30"), a2aport.Traceparent(tp))
				if err != nil {
					t.Fatalf("Submit() = %+v, %v", out, err)
				}
				var methods []string
				for _, r := range server.Requests() {
					if r.Header.Get("traceparent") == tp {
						methods = append(methods, r.A2AMethod)
					}
				}
				want := "SendStreamingMessage"
				if !v.Streaming {
					want = "GetTask"
				}
				if !slices.Contains(methods, want) || (!v.Streaming && !slices.Contains(methods, "SendMessage")) {
					t.Errorf("requests carrying the traceparent: %v, want the send and (polling) GetTask", methods)
				}
			})
		}
		t.Run(impl.name+"/malformed", func(t *testing.T) {
			t.Parallel()
			p := newPort(t, impl, a2aport.Options{AgentCardURL: server.CardURL(agent.Variants()[0])})
			for _, tp := range []string{"01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "00-00000000000000000000000000000000-b7ad6b7169203331-01",
				"00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331", "traceparent"} {
				_, err := p.Submit(testContext(t), newWork("alice", "complete never"), a2aport.Traceparent(tp))
				if !errors.Is(err, a2aport.ErrInvalidWork) {
					t.Errorf("Submit(traceparent %q) = %v, want INVALID_WORK", tp, err)
				}
			}
		})
	}
}
