package tests

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/internal/testkit/agent"
)

// bodyContains reports whether req's body contains marker, leaving the body to be read again.
func bodyContains(req *http.Request, marker []byte) (bool, error) {
	if req.Body == nil {
		return false, nil
	}
	body, err := io.ReadAll(req.Body)
	if err != nil {
		return false, err
	}
	req.Body = io.NopCloser(bytes.NewReader(body))
	return bytes.Contains(body, marker), nil
}

func TestCancelBeforeTheRemoteTaskIsKnownAbortsLocally(t *testing.T) {
	t.Parallel()
	onMatrixEnds(t, func(t *testing.T, ctx context.Context, impl implementation, v agent.Variant) {
		w := newWork("ivan", fmt.Sprintf("hold gated %s", t.Name()))
		g := &latch{marker: []byte(w.Instruction), arrived: make(chan struct{})}
		p := newPort(t, impl, a2aport.Options{AgentCardURL: server.CardURL(v), Transport: g, PollInterval: a2aport.MinPollInterval})
		done := submitAsync(ctx, p, w, newRecorder())
		select {
		case <-g.arrived:
		case <-ctx.Done():
			t.Fatal("the message never reached the transport")
		}
		res, err := p.Cancel(ctx, w.ID, w.OwnerID)
		if err != nil || res.State != a2aport.StateCancelled {
			t.Fatalf("Cancel() = %+v, %v", res, err)
		}
		wantCode(t, await(ctx, t, done).err, a2aport.ErrWorkCancelled)
		if server.Cancelled(w.Instruction) {
			t.Error("a CancelTask went out for a task the agent never saw")
		}
	})
}

func TestFailedSendIsNeverRepeated(t *testing.T) {
	t.Parallel()
	for _, impl := range implementations {
		for _, v := range agent.Variants() {
			t.Run(impl.name+"/"+v.Name(), func(t *testing.T) {
				t.Parallel()
				id := fmt.Sprintf("%s-%d", t.Name(), workSeq.Add(1))
				p := newPort(t, impl, a2aport.Options{AgentCardURL: server.CardURL(v), PollInterval: a2aport.MinPollInterval,
					Headers: http.Header{"X-Test-Id": {id}}})
				ctx := testContext(t)
				for _, instr := range []string{"status500 once", "emptystream once"} {
					if _, err := p.Submit(ctx, newWork("judy", instr)); err == nil && instr == "status500 once" {
						t.Fatalf("Submit(%q) succeeded", instr)
					}
				}
				sends := 0
				for _, r := range requestsTagged(id) {
					if r.A2AMethod == "SendMessage" || r.A2AMethod == "SendStreamingMessage" {
						sends++
					}
				}
				if sends != 2 {
					t.Errorf("messages sent = %d, want 2: one per Work, none repeated", sends)
				}
			})
		}
	}
}

// latch is a real transport that holds back the request whose body contains marker until release
// is closed, then sends it on; with a nil release only the request's own end lets it go, so a test
// can act while a request is in flight.
type latch struct {
	marker  []byte
	arrived chan struct{}
	release chan struct{}
}

func (l *latch) RoundTrip(req *http.Request) (*http.Response, error) {
	marked, err := bodyContains(req, l.marker)
	if err != nil {
		return nil, err
	}
	if marked {
		close(l.arrived)
		select {
		case <-l.release:
		case <-req.Context().Done():
			return nil, req.Context().Err()
		}
	}
	return http.DefaultTransport.RoundTrip(req)
}

// A Cancel while the message is on its way, before any answer named the task, waits for the
// agent's answer and cancels the task there: aborted at once, the Work would never learn the task
// and the agent would run it on.
func TestCancelWhileTheMessageIsOnItsWayReachesTheAgent(t *testing.T) {
	t.Parallel()
	onMatrixEnds(t, func(t *testing.T, ctx context.Context, impl implementation, v agent.Variant) {
		w := newWork("ivan", fmt.Sprintf("hold latched %s", t.Name()))
		l := &latch{marker: []byte(w.Instruction), arrived: make(chan struct{}), release: make(chan struct{})}
		p := newPort(t, impl, a2aport.Options{AgentCardURL: server.CardURL(v), Transport: l, PollInterval: a2aport.MinPollInterval})
		done := submitAsync(ctx, p, w, newRecorder())
		select {
		case <-l.arrived:
		case <-ctx.Done():
			t.Fatal("the message never reached the transport")
		}
		cancelled := make(chan a2aport.CancelResult, 1)
		go func() {
			res, err := p.Cancel(ctx, w.ID, w.OwnerID)
			if err != nil {
				t.Errorf("Cancel() = %v", err)
			}
			cancelled <- res
		}()
		time.Sleep(100 * time.Millisecond) // Cancel is waiting for the answer now
		close(l.release)
		if res := <-cancelled; res.State != a2aport.StateCancelled {
			t.Errorf("Cancel() = %+v", res)
		}
		wantCode(t, await(ctx, t, done).err, a2aport.ErrWorkCancelled)
		deadline := time.Now().Add(5 * time.Second)
		for !server.Cancelled(w.Instruction) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond) // a2asrv runs the executor's Cancel after answering
		}
		if !server.Cancelled(w.Instruction) {
			t.Error("the agent got the message but not the cancel")
		}
	})
}

// TestRefusedCancelReportsHowTheTaskEnded: a Work resumed after its task completed at the agent
// (its first adapter detached; the second one does not look at the task by itself, PollInterval
// an hour), then cancelled: the agent refuses the cancel (the task is not cancelable), and the
// Work ends as the task did, completed with its answer; Cancel says completed. Nothing is reported
// cancelled that the agent did not cancel. Natively and in the module, streaming and polling.
func TestRefusedCancelReportsHowTheTaskEnded(t *testing.T) {
	t.Parallel()
	for _, impl := range implementations {
		for _, v := range resumeVariants {
			t.Run(impl.name+"/"+v.Name(), func(t *testing.T) {
				t.Parallel()
				ctx := testContext(t)
				store := &a2aport.MemoryWorkStore{}
				opts := a2aport.Options{AgentCardURL: server.CardURL(v), PollInterval: a2aport.MinPollInterval, WorkStore: store}
				before := newPort(t, impl, opts)
				w := newWork("nina", "slow 200 ended before its cancel "+t.Name())
				first := submitAsync(ctx, before, w, newRecorder())
				waitRecorded(ctx, t, store, w.ID, "")
				if err := before.Detach(); err != nil {
					t.Fatal(err)
				}
				wantCode(t, await(ctx, t, first).err, a2aport.ErrWorkDetached)
				time.Sleep(600 * time.Millisecond) // the agent completes the task meanwhile
				opts.PollInterval = time.Hour
				after := newPort(t, impl, opts)
				rec := newRecorder()
				resumed := resumeAsync(ctx, after, w.ID, w.OwnerID, rec)
				for after.Status(w.ID, w.OwnerID).State == a2aport.StateNotFound {
					select {
					case r := <-resumed:
						t.Fatalf("the resumed Work ended by itself before its cancel: %+v, %v", r.out, r.err)
					case <-ctx.Done():
						t.Fatal("the resumed Work never became active")
					case <-time.After(5 * time.Millisecond):
					}
				}
				res, err := after.Cancel(ctx, w.ID, w.OwnerID)
				if err != nil || res.State != a2aport.StateCompleted {
					t.Errorf("Cancel() of a Work whose task completed = %+v, %v; want completed", res, err)
				}
				r := await(ctx, t, resumed)
				if r.err != nil || !strings.Contains(r.out.Content, "slow done") {
					t.Errorf("the resumed Work = %+v, %v; want its answer", r.out, r.err)
				}
				for _, ev := range rec.all() {
					if ev.State == a2aport.StateCancelled {
						t.Errorf("an event says cancelled: %+v", ev)
					}
				}
			})
		}
	}
}

// An agent may refuse a cancel for a moment while the task waits for input (a2a-go's server does,
// while the turn that asked has not returned yet). The question is not an end: the cancel is asked
// again, the agent cancels the task, and the Work ends WORK_CANCELLED instead of waiting for an
// answer nobody will give.
func TestCancelOfAQuestionTheAgentRefusesForAMoment(t *testing.T) {
	t.Parallel()
	onMatrixEnds(t, func(t *testing.T, ctx context.Context, impl implementation, v agent.Variant) {
		p := newPort(t, impl, a2aport.Options{AgentCardURL: server.CardURL(v), PollInterval: a2aport.MinPollInterval})
		w := newWork("olga", "lingerinput "+t.Name())
		rec := newRecorder()
		done := submitAsync(ctx, p, w, rec)
		rec.waitFor(ctx, t, 0, isType(a2aport.EventInputRequested))
		res, err := p.Cancel(ctx, w.ID, w.OwnerID)
		if err != nil || res.State != a2aport.StateCancelled {
			t.Errorf("Cancel() = %+v, %v; want cancelled", res, err)
		}
		wantCode(t, await(ctx, t, done).err, a2aport.ErrWorkCancelled)
		if !server.CancelConfirmed(w.Instruction) {
			t.Error("the agent never cancelled the task")
		}
	})
}

// The same refusal when the Work's Timeout ends it while the agent's turn still lingers: the
// adapter's own cancel of the remote task asks again too, so the agent's task does not stay
// waiting for an answer after the Work ended A2A_TIMEOUT.
func TestTimeoutOfAQuestionTheAgentRefusesForAMoment(t *testing.T) {
	t.Parallel()
	onMatrixEnds(t, func(t *testing.T, ctx context.Context, impl implementation, v agent.Variant) {
		p := newPort(t, impl, a2aport.Options{AgentCardURL: server.CardURL(v), PollInterval: a2aport.MinPollInterval,
			Timeout: 300 * time.Millisecond}) // the question comes at once; the turn lingers 400 ms after it
		w := newWork("oleg", "lingerinput "+t.Name())
		wantCode(t, await(ctx, t, submitAsync(ctx, p, w, newRecorder())).err, a2aport.ErrTimeout)
		if !server.CancelConfirmed(w.Instruction) {
			t.Errorf("the agent's task was left %q, not cancelled", server.EndedAs(w.Instruction))
		}
	})
}
