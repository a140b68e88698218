package tests

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/internal/testkit/agent"
)

// resumeVariants are a streaming and a polling agent, of each version.
var resumeVariants = []agent.Variant{{Version: "1.0", Binding: "JSONRPC", Streaming: true}, {Version: "0.3", Binding: "HTTP+JSON", Streaming: false}}

// waitRecorded returns the WorkStore's record of workID once it names the remote task and, if
// state is set, is in that state.
func waitRecorded(ctx context.Context, t *testing.T, store a2aport.WorkStore, workID string, state a2aport.WorkState) a2aport.WorkRecord {
	t.Helper()
	for {
		rec, ok, err := store.Get(ctx, workID)
		if err != nil {
			t.Fatal(err)
		}
		if ok && rec.RemoteTaskID != "" && (state == "" || rec.State == state) {
			return rec
		}
		select {
		case <-ctx.Done():
			t.Fatalf("work %s was never recorded (in state %q): %+v", workID, state, rec)
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// leftRunning submits a Work of instruction on a first adapter with a WorkStore (a page that will
// be reloaded) and returns once the store has it (in state, if set), with the options of a second
// adapter on the same store.
func leftRunning(ctx context.Context, t *testing.T, impl implementation, v agent.Variant, instruction string, state a2aport.WorkState) (*a2aport.MemoryWorkStore, a2aport.Options, a2aport.Work) {
	t.Helper()
	store := &a2aport.MemoryWorkStore{}
	opts := a2aport.Options{AgentCardURL: server.CardURL(v), PollInterval: a2aport.MinPollInterval, WorkStore: store}
	before := newPort(t, impl, opts)
	w := newWork("alice", instruction)
	go func() { _, _ = before.Submit(ctx, w) }() // ends with the test: its port is closed then
	waitRecorded(ctx, t, store, w.ID, state)
	return store, opts, w
}

// TestResume: a second adapter on the same WorkStore (a frontend after a reload) re-attaches to
// a Work the first one left running and settles it, sending nothing again; the record is gone
// once the Work ended. Natively and in the module.
func TestResume(t *testing.T) {
	t.Parallel()
	for _, impl := range implementations {
		for _, v := range resumeVariants {
			t.Run(impl.name+"/"+v.Name(), func(t *testing.T) {
				t.Parallel()
				ctx := testContext(t)
				store, opts, w := leftRunning(ctx, t, impl, v, "slow 1500", "")
				tp := fmt.Sprintf("00-%032x-%016x-01", 0xabc000+workSeq.Add(1), 5) // finds the resumed Work's requests
				after := newPort(t, impl, opts)
				if _, err := after.Resume(ctx, w.ID, "mallory"); !errors.Is(err, a2aport.ErrWorkNotFound) {
					t.Errorf("Resume(another owner) = %v, want WORK_NOT_FOUND", err)
				}
				rec := newRecorder()
				out, err := after.Resume(ctx, w.ID, "alice", a2aport.OnEvent(rec.record), a2aport.Traceparent(tp))
				if err != nil || !strings.Contains(out.Content, "slow done") {
					t.Fatalf("Resume() = %+v, %v; want the Work's outcome", out, err)
				}
				var methods []string
				for _, r := range server.Requests() {
					if r.Header.Get("traceparent") == tp && r.A2AMethod != "" {
						methods = append(methods, r.A2AMethod)
					}
				}
				if len(methods) == 0 || slices.Contains(methods, "SendMessage") || slices.Contains(methods, "SendStreamingMessage") {
					t.Errorf("requests of the resumed Work: %v; want it followed, nothing sent", methods)
				}
				if evs := rec.all(); len(evs) == 0 || evs[0].Type != a2aport.EventActivity || evs[0].WorkID != w.ID {
					t.Errorf("events = %+v, want the recorded state first, for the Work", evs)
				}
				if _, ok, _ := store.Get(ctx, w.ID); ok {
					t.Error("the record of an ended Work is still there")
				}
				if _, err := after.Resume(ctx, w.ID, "alice"); !errors.Is(err, a2aport.ErrWorkNotFound) {
					t.Errorf("Resume(an ended Work) = %v, want WORK_NOT_FOUND", err)
				}
			})
		}
	}
}

// TestResumeAnswersTheQuestion: a Work waiting for an answer when the frontend restarted asks
// again after Resume, and the answer given to the new adapter completes it.
func TestResumeAnswersTheQuestion(t *testing.T) {
	t.Parallel()
	for _, impl := range implementations {
		for _, v := range resumeVariants {
			t.Run(impl.name+"/"+v.Name(), func(t *testing.T) {
				t.Parallel()
				ctx := testContext(t)
				_, opts, w := leftRunning(ctx, t, impl, v, "input needed", a2aport.StateInputRequired)
				after := newPort(t, impl, opts)
				rec := newRecorder()
				done := resumeAsync(ctx, after, w.ID, "alice", rec)
				rec.waitFor(ctx, t, 0, isType(a2aport.EventInputRequested))
				if st := after.Status(w.ID, "alice"); st.State != a2aport.StateInputRequired {
					t.Errorf("Status() = %q, want input_required", st.State)
				}
				answerBob(ctx, t, after, w, rec, done)
			})
		}
	}
}

func TestResumeWithoutAStore(t *testing.T) {
	t.Parallel()
	for _, impl := range implementations {
		p := newPort(t, impl, a2aport.Options{AgentCardURL: server.CardURL(agent.Variants()[0])})
		if _, err := p.Resume(testContext(t), "work-x", "alice"); !errors.Is(err, a2aport.ErrWorkNotFound) {
			t.Errorf("%s: Resume() without a WorkStore = %v, want WORK_NOT_FOUND", impl.name, err)
		}
	}
}

// TestDetach: Detach leaves a running Work to the agent (no CancelTask) with its record, and the
// next adapter on the store completes it; Close ends it at the agent and deletes the record.
func TestDetach(t *testing.T) {
	t.Parallel()
	for _, impl := range implementations {
		for _, v := range resumeVariants {
			t.Run(impl.name+"/"+v.Name(), func(t *testing.T) {
				t.Parallel()
				ctx := testContext(t)
				for _, stop := range []string{"detach", "close"} {
					store := &a2aport.MemoryWorkStore{}
					opts := a2aport.Options{AgentCardURL: server.CardURL(v), PollInterval: a2aport.MinPollInterval, WorkStore: store}
					before := newPort(t, impl, opts)
					w := newWork("alice", fmt.Sprintf("slow 1500 %s %s", stop, t.Name()))
					done := submitAsync(ctx, before, w, newRecorder())
					waitRecorded(ctx, t, store, w.ID, "")
					var err error
					if stop == "detach" {
						err = before.Detach()
					} else {
						err = before.Close()
					}
					if err != nil {
						t.Fatal(err)
					}
					r := await(ctx, t, done)
					_, kept, _ := store.Get(ctx, w.ID)
					if stop == "close" {
						if !errors.Is(r.err, a2aport.ErrAdapterClosed) && !errors.Is(r.err, a2aport.ErrWorkCancelled) || kept || !server.Cancelled(w.Instruction) {
							t.Errorf("close: Submit() = %v, record kept %v, cancelled at the agent %v; want it ended there and forgotten", r.err, kept, server.Cancelled(w.Instruction))
						}
						continue
					}
					if !errors.Is(r.err, a2aport.ErrWorkDetached) || !kept || server.Cancelled(w.Instruction) {
						t.Fatalf("detach: Submit() = %v, record kept %v, cancelled at the agent %v; want WORK_DETACHED, kept, running", r.err, kept, server.Cancelled(w.Instruction))
					}
					out, err := newPort(t, impl, opts).Resume(ctx, w.ID, "alice")
					if err != nil || !strings.Contains(out.Content, "slow done") {
						t.Errorf("Resume() after Detach() = %+v, %v; want the Work's outcome", out, err)
					}
				}
			})
		}
	}
}

// TestResumedThenDetached: a Work resumed and then detached again (a terminal's status command
// looking at it, a second reload) is left as it was: still recorded, still running at the agent,
// no final event; a third adapter resumes it and completes it.
func TestResumedThenDetached(t *testing.T) {
	t.Parallel()
	for _, impl := range implementations {
		for _, v := range resumeVariants {
			t.Run(impl.name+"/"+v.Name(), func(t *testing.T) {
				t.Parallel()
				ctx := testContext(t)
				store, opts, w := leftRunning(ctx, t, impl, v, "input needed", a2aport.StateInputRequired)
				looker := newPort(t, impl, opts)
				rec := newRecorder()
				done := resumeAsync(ctx, looker, w.ID, "alice", rec)
				rec.waitFor(ctx, t, 0, isType(a2aport.EventInputRequested))
				if err := looker.Detach(); err != nil {
					t.Fatal(err)
				}
				r := await(ctx, t, done)
				kept, ok, _ := store.Get(ctx, w.ID)
				if !errors.Is(r.err, a2aport.ErrWorkDetached) || !ok || kept.State != a2aport.StateInputRequired {
					t.Fatalf("Resume() then Detach() = %v, record %+v (kept %v); want WORK_DETACHED and the record as it was", r.err, kept, ok)
				}
				for _, ev := range rec.all() {
					if slices.Contains([]a2aport.WorkState{a2aport.StateCompleted, a2aport.StateFailed, a2aport.StateRejected, a2aport.StateCancelled}, ev.State) {
						t.Errorf("a detached Work had a final event: %+v", ev)
					}
				}
				last := newPort(t, impl, opts)
				again := newRecorder()
				answerBob(ctx, t, last, w, again, resumeAsync(ctx, last, w.ID, "alice", again))
			})
		}
	}
}

// answerBob answers the resumed Work's question with "Bob" and checks that it completes with the
// greeting.
func answerBob(ctx context.Context, t *testing.T, p a2aport.Port, w a2aport.Work, rec *recorder, done <-chan result) {
	t.Helper()
	ev, _ := rec.waitFor(ctx, t, 0, isType(a2aport.EventInputRequested))
	if err := p.RespondInput(ctx, w.ID, w.OwnerID, ev.Input.InputRequestID, a2aport.InputResponse{Text: "Bob"}); err != nil {
		t.Fatal(err)
	}
	if r := await(ctx, t, done); r.err != nil || !strings.Contains(r.out.Content, "Hello, Bob!") {
		t.Fatalf("Resume() = %+v, %v; want the greeting", r.out, r.err)
	}
}
