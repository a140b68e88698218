package tests

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/internal/testkit/agent"
)

// Outcome.Text is the answer, as a client that appends every delta's text has it at the end;
// Content is the display summary (status text first, trimmed), which is not the answer when the
// agent said more than it. A message reply has no artifact text: Text is then its text.
func TestOutcomeTextIsTheAnswer(t *testing.T) {
	onMatrixEnds(t, func(t *testing.T, ctx context.Context, impl implementation, v agent.Variant) {
		p := newPort(t, impl, a2aport.Options{AgentCardURL: server.CardURL(v), PollInterval: 10 * time.Millisecond})
		rec := newRecorder()
		r := await(ctx, t, submitAsync(ctx, p, newWork("alice", "chunks 3"), rec))
		if r.err != nil {
			t.Fatalf("Submit(chunks 3) = %v", r.err)
		}
		var streamed string // what a page that appends deltas and redraws new artifacts shows at the end
		for _, ev := range rec.all() {
			if ev.Type != a2aport.EventArtifact {
				continue
			}
			if ev.Delta != nil {
				streamed += ev.Delta.Text
			} else {
				streamed = ev.Artifact.Parts[0].Text
			}
		}
		if got, want := r.out.Text(), "part-1 part-2 part-3 "; got != want || got != streamed {
			t.Errorf("Outcome.Text() = %q, want %q (the deltas made %q)", got, want, streamed)
		}
		if r.out.Content == r.out.Text() || !strings.HasPrefix(r.out.Content, "done") {
			t.Errorf("Content = %q: want the summary, status text first, not the answer", r.out.Content)
		}

		r = await(ctx, t, submitAsync(ctx, p, newWork("alice", "message now"), newRecorder()))
		if r.err != nil {
			t.Fatalf("Submit(message now) = %v", r.err)
		}
		if r.out.Text() != "plain reply" || r.out.Text() != r.out.Content {
			t.Errorf("a message reply: Text() = %q, Content = %q, want both the message's text", r.out.Text(), r.out.Content)
		}
	})
}

// An agent's own words on how its task ended reach the caller as it said them (Error.AgentText,
// and the final activity), beside a2aport's code and its message.
func TestTheAgentsOwnWordsOnItsEnd(t *testing.T) {
	onMatrixEnds(t, func(t *testing.T, ctx context.Context, impl implementation, v agent.Variant) {
		p := newPort(t, impl, a2aport.Options{AgentCardURL: server.CardURL(v), PollInterval: 10 * time.Millisecond})

		rec := newRecorder()
		r := await(ctx, t, submitAsync(ctx, p, newWork("alice", "fail now"), rec))
		var e *a2aport.Error
		if !errors.As(r.err, &e) || e.Code != a2aport.CodeTaskFailed {
			t.Fatalf("Submit(fail now) = %v, want A2A_TASK_FAILED", r.err)
		}
		if e.AgentText != "the agent failed on purpose" || !strings.Contains(e.Message, e.AgentText) {
			t.Errorf("AgentText = %q, Message = %q: want the agent's words, and the message wrapping them", e.AgentText, e.Message)
		}
		if events := rec.all(); events[len(events)-1].Text != e.AgentText {
			t.Errorf("the final activity says %q, want the agent's words %q", events[len(events)-1].Text, e.AgentText)
		}

		w := newWork("alice", "hold for the agent's cancel text "+impl.name+v.Name())
		done := submitAsync(ctx, p, w, newRecorder())
		if err := server.WaitStarted(ctx, w.Instruction); err != nil {
			t.Fatal(err)
		}
		if res, err := p.Cancel(ctx, w.ID, w.OwnerID); err != nil || res.State != a2aport.StateCancelled {
			t.Fatalf("Cancel() = %+v, %v", res, err)
		}
		r = await(ctx, t, done)
		if !errors.As(r.err, &e) || e.Code != a2aport.CodeWorkCancelled {
			t.Fatalf("Submit(hold) after Cancel = %v, want WORK_CANCELLED", r.err)
		}
		if e.AgentText != "cancelled" {
			t.Errorf("AgentText = %q, want the agent's own cancel text %q (message %q)", e.AgentText, "cancelled", e.Message)
		}
	})
}

// A question nobody answers ends the Work at InputTimeout, INPUT_UNANSWERED, and the agent's task
// is cancelled; without InputTimeout it waits on.
func TestAQuestionNobodyAnswers(t *testing.T) {
	onMatrixEnds(t, func(t *testing.T, ctx context.Context, impl implementation, v agent.Variant) {
		p := newPort(t, impl, a2aport.Options{AgentCardURL: server.CardURL(v), PollInterval: 10 * time.Millisecond, InputTimeout: 300 * time.Millisecond})
		w := newWork("alice", "input nobody answers "+impl.name+v.Name())
		rec := newRecorder()
		start := time.Now()
		r := await(ctx, t, submitAsync(ctx, p, w, rec))
		if !errors.Is(r.err, a2aport.ErrInputUnanswered) {
			t.Fatalf("Submit(input) with nobody answering = %v, want INPUT_UNANSWERED", r.err)
		}
		if took := time.Since(start); took < 300*time.Millisecond {
			t.Errorf("the Work ended after %v, before its InputTimeout", took)
		}
		if !server.Cancelled(w.Instruction) {
			t.Error("the agent's task was not cancelled")
		}
		if last := rec.all()[len(rec.all())-1]; last.Type != a2aport.EventActivity || last.State != a2aport.StateCancelled {
			t.Errorf("last event = %+v, want the Work cancelled", last)
		}
		if res := p.Status(w.ID, w.OwnerID); res.State != a2aport.StateNotFound {
			t.Errorf("Status() after the end = %+v", res)
		}

		// Answered in time, the same Work completes.
		w = newWork("alice", "input answered")
		rec = newRecorder()
		done := submitAsync(ctx, p, w, rec)
		ev, _ := rec.waitFor(ctx, t, 0, isType(a2aport.EventInputRequested))
		if err := p.RespondInput(ctx, w.ID, w.OwnerID, ev.Input.InputRequestID, a2aport.InputResponse{Text: "Ada"}); err != nil {
			t.Fatalf("RespondInput() = %v", err)
		}
		if r := await(ctx, t, done); r.err != nil || r.out.Text() != "Hello, Ada!" {
			t.Fatalf("Submit(input answered) = %q, %v", r.out.Text(), r.err)
		}
	})
}
