package tests

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/internal/testkit/agent"
	"github.com/a2aport/a2aport/internal/testkit/faultproxy"
)

// The phases of a Work and the ends that can cut it short (docs/reliability.md, "How a Work ends").
var (
	fatePhases = []string{"discovery", "send", "streaming", "polling", "input"}
	fateEnds   = []string{"timeout", "cancel", "close", "detach", "network"}
)

// fateWant is what one cell of the table promises: the error's code and retry hint, how many
// times the agent received the Work's message, and whether the agent's task was cancelled.
type fateWant struct {
	code      a2aport.Code
	retryable bool
	sends     int
	cancelled bool
}

// fateTable is docs/reliability.md's table, by phase and end.
var fateTable = map[string]map[string]fateWant{
	"discovery": {
		"timeout": {a2aport.CodeTimeout, true, 0, false},
		"cancel":  {a2aport.CodeWorkCancelled, false, 0, false},
		"close":   {a2aport.CodeAdapterClosed, false, 0, false},
		"detach":  {a2aport.CodeAdapterClosed, false, 0, false}, // nothing left: nothing to resume
		"network": {a2aport.CodeNetworkError, true, 0, false},
	},
	"send": {
		"timeout": {a2aport.CodeOutcomeUnknown, false, 1, false},
		"cancel":  {a2aport.CodeWorkCancelled, false, 1, false},
		"close":   {a2aport.CodeAdapterClosed, false, 1, false},
		"detach":  {a2aport.CodeWorkDetached, false, 1, false},
		"network": {a2aport.CodeOutcomeUnknown, false, 1, false},
	},
	"streaming": {
		"timeout": {a2aport.CodeTimeout, true, 1, true},
		"cancel":  {a2aport.CodeWorkCancelled, false, 1, true},
		"close":   {a2aport.CodeAdapterClosed, false, 1, true},
		"detach":  {a2aport.CodeWorkDetached, false, 1, false},
		"network": {a2aport.CodeOutcomeUnknown, false, 1, false},
	},
	"polling": {
		"timeout": {a2aport.CodeTimeout, true, 1, true},
		"cancel":  {a2aport.CodeWorkCancelled, false, 1, true},
		"close":   {a2aport.CodeAdapterClosed, false, 1, true},
		"detach":  {a2aport.CodeWorkDetached, false, 1, false},
		"network": {a2aport.CodeOutcomeUnknown, false, 1, false},
	},
	"input": {
		"timeout": {a2aport.CodeTimeout, true, 1, true},
		"cancel":  {a2aport.CodeWorkCancelled, false, 1, true},
		"close":   {a2aport.CodeAdapterClosed, false, 1, true},
		"detach":  {a2aport.CodeWorkDetached, false, 1, false},
		"network": {a2aport.CodeOutcomeUnknown, false, 1, false},
	},
}

// viaProxy sends every request to the proxy instead of where it was going (the card's interfaces
// name the agent itself), so that the proxy can take the agent off the network.
type viaProxy struct{ addr string }

func (v viaProxy) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.URL.Host = v.addr
	return http.DefaultTransport.RoundTrip(r)
}

// fateTimeout is the Works' timeout in the timeout column: every phase is reached well before it.
const fateTimeout = 1500 * time.Millisecond

// TestFate: every phase of a Work × every end that can cut it short gives the code, retry hint
// and effect at the agent that docs/reliability.md's table states. Natively and in the module.
func TestFate(t *testing.T) {
	t.Parallel()
	agentAddr := strings.TrimPrefix(server.URL(), "http://")
	for _, impl := range implementations {
		for _, phase := range fatePhases {
			for _, end := range fateEnds {
				want := fateTable[phase][end]
				t.Run(impl.name+"/"+phase+"/"+end, func(t *testing.T) {
					t.Parallel()
					ctx := testContext(t)
					proxy := faultproxy.Start(t, agentAddr)
					v := agent.Variants()[0] // 1.0 JSON-RPC, streaming
					if phase == "polling" {
						v = agent.Variants()[len(agent.Variants())-1] // 0.3 HTTP+JSON, polling
					}
					store := &a2aport.MemoryWorkStore{}
					opts := a2aport.Options{AgentCardURL: server.CardURL(v), Transport: viaProxy{proxy.Addr()},
						PollInterval: a2aport.MinPollInterval, RecoveryBackoff: 10 * time.Millisecond, WorkStore: store}
					if end == "timeout" {
						opts.Timeout = fateTimeout
					}
					instruction := map[string]string{"discovery": "complete", "send": "holdsend", "streaming": "hold", "polling": "hold", "input": "lingerinput"}[phase]
					if phase == "send" && end == "network" {
						instruction = "dropsend" // the connection drops before the answer's first byte
					}
					instruction += " fate " + t.Name()
					switch {
					case phase == "discovery" && end == "network":
						proxy.Down()
					case phase == "discovery":
						proxy.Plan(func(int) faultproxy.Fault { return faultproxy.Fault{Stall: true} }) // the card never comes
					}
					p := newPort(t, impl, opts)
					tp := fmt.Sprintf("00-%032x-%016x-01", 0xfa7e0000+workSeq.Add(1), 7)
					w := newWork("alice", instruction)
					rec := newRecorder()
					done := make(chan result, 1)
					go func() {
						out, err := p.Submit(ctx, w, a2aport.OnEvent(rec.record), a2aport.Traceparent(tp))
						done <- result{out, err}
					}()
					reachPhase(ctx, t, phase, end, w, rec, proxy, done)
					switch end {
					case "cancel":
						if _, err := p.Cancel(ctx, w.ID, w.OwnerID); err != nil {
							t.Fatal(err)
						}
					case "close":
						if err := p.Close(); err != nil {
							t.Fatal(err)
						}
					case "detach":
						if err := p.Detach(); err != nil {
							t.Fatal(err)
						}
					case "network":
						if phase == "input" {
							ev, _ := rec.waitFor(ctx, t, 0, isType(a2aport.EventInputRequested))
							proxy.Down()
							_ = p.RespondInput(ctx, w.ID, w.OwnerID, ev.Input.InputRequestID, a2aport.InputResponse{Text: "Ada"})
						} else if phase != "discovery" && phase != "send" {
							proxy.Down()
						}
					}
					r := await(ctx, t, done)
					var e *a2aport.Error
					if !errors.As(r.err, &e) || e.Code != want.code || e.Retryable != want.retryable {
						t.Errorf("Submit() = %v (%+v), want code %s, retryable %v", r.err, e, want.code, want.retryable)
					}
					sends := 0
					for _, req := range server.Requests() {
						if req.Header.Get("traceparent") == tp && (req.A2AMethod == "SendMessage" || req.A2AMethod == "SendStreamingMessage") {
							sends++
						}
					}
					if sends != want.sends {
						t.Errorf("the agent received the message %d times, want %d", sends, want.sends)
					}
					if got := server.Cancelled(w.Instruction); got != want.cancelled {
						t.Errorf("cancelled at the agent: %v, want %v", got, want.cancelled)
					}
					if want.cancelled && !server.CancelConfirmed(w.Instruction) {
						t.Errorf("the agent's task ended %q, not cancelled", server.EndedAs(w.Instruction))
					}
					_, kept, _ := store.Get(ctx, w.ID)
					if wantKept := end == "detach" && want.sends > 0; kept != wantKept {
						t.Errorf("WorkStore record kept: %v, want %v", kept, wantKept)
					}
				})
			}
		}
	}
}

// reachPhase returns once the Work is in phase, failing the test if it ended first.
func reachPhase(ctx context.Context, t *testing.T, phase, end string, w a2aport.Work, rec *recorder, proxy *faultproxy.Proxy, done chan result) {
	t.Helper()
	reached := make(chan struct{})
	go func() {
		defer close(reached)
		switch phase {
		case "discovery":
			for proxy.Connections() == 0 && ctx.Err() == nil && end != "network" {
				time.Sleep(5 * time.Millisecond)
			}
		case "send":
			_ = server.WaitStarted(ctx, w.Instruction)
		case "streaming", "polling":
			rec.waitFor(ctx, t, 0, func(ev a2aport.Event) bool { return ev.State == a2aport.StateWorking })
		case "input":
			rec.waitFor(ctx, t, 0, isType(a2aport.EventInputRequested))
		}
	}()
	select {
	case <-reached:
	case r := <-done:
		if end != "network" || phase != "discovery" && phase != "send" {
			t.Fatalf("the Work ended before it reached %s: %+v, %v", phase, r.out, r.err)
		}
		done <- r
	}
}
