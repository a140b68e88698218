package conformance

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a2aport/a2aport"
)

// diagnoseErr describes how err differs from the sentinel want, or returns "" when
// errors.Is(err, want), a2aport.CodeOf(err) is want's code and err's message contains substr.
func diagnoseErr(err error, want *a2aport.Error, substr string) string {
	switch {
	case err == nil:
		return fmt.Sprintf("nil, want %s", want.Code)
	case !errors.Is(err, want) || a2aport.CodeOf(err) != want.Code:
		return fmt.Sprintf("%v (code %q), want %s", err, a2aport.CodeOf(err), want.Code)
	case substr != "" && !strings.Contains(err.Error(), substr):
		return fmt.Sprintf("%q, want a message containing %q", err.Error(), substr)
	}
	return ""
}

// wantErr fails the check unless err matches the sentinel want (see diagnoseErr).
func wantErr(t *testing.T, op string, err error, want *a2aport.Error, substr string) {
	t.Helper()
	if msg := diagnoseErr(err, want, substr); msg != "" {
		t.Errorf("%s error = %s", op, msg)
	}
}

// wantNoErr fails the check when err is not nil.
func wantNoErr(t *testing.T, op string, err error) {
	t.Helper()
	if err != nil {
		t.Errorf("%s error = %v (code %q), want nil", op, err, a2aport.CodeOf(err))
	}
}

// next returns f.NextWork() after checking that it is a fresh Work of the fixture's owner.
func next(t *testing.T, f Fixture, used ...string) a2aport.Work {
	t.Helper()
	w := f.NextWork()
	if w.ID == "" || w.OwnerID != f.Work.OwnerID {
		t.Fatalf("fixture: NextWork() = {ID:%q OwnerID:%q}, want a new id and owner %q", w.ID, w.OwnerID, f.Work.OwnerID)
	}
	for _, id := range append([]string{f.Work.ID}, used...) {
		if w.ID == id {
			t.Fatalf("fixture: NextWork() reused id %q, want a fresh one", id)
		}
	}
	return w
}

// unknownID returns a Work id that no fixture is expected to produce.
func unknownID(t *testing.T) string {
	return "conformance-unknown-" + strings.ReplaceAll(t.Name(), "/", "-")
}

// otherOwner returns an owner id different from the Work's owner.
func otherOwner(w a2aport.Work) string { return w.OwnerID + "-conformance-other" }

func isOneOf(s a2aport.WorkState, states []a2aport.WorkState) bool {
	for _, x := range states {
		if s == x {
			return true
		}
	}
	return false
}

// within runs f and waits at most d for it to return; it reports whether f returned in time.
// A call that never returns is left behind: the fixture's cleanup is expected to release it.
func within(d time.Duration, f func()) bool {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	expired := make(chan struct{})
	timer := wallClock.AfterFunc(d, func() { close(expired) })
	defer timer.Stop()
	select {
	case <-done:
		return true
	case <-expired:
		return false
	}
}

// status calls Status, failing the check if it does not return promptly (it is synchronous).
func status(t *testing.T, p a2aport.Port, workID, ownerID string) a2aport.Status {
	t.Helper()
	var st a2aport.Status
	if !within(syncTimeout, func() { st = p.Status(workID, ownerID) }) {
		t.Fatalf("Status(%q, %q) did not return within %v, want a synchronous answer", workID, ownerID, syncTimeout)
	}
	return st
}

// wantState fails the check unless Status(workID, ownerID).State is want.
func wantState(t *testing.T, p a2aport.Port, workID, ownerID string, want a2aport.WorkState) {
	t.Helper()
	if got := status(t, p, workID, ownerID).State; got != want {
		t.Errorf("Status(%q, %q).State = %q, want %q", workID, ownerID, got, want)
	}
}

// wantActive fails the check unless the Work is submitted or working for its owner.
func wantActive(t *testing.T, p a2aport.Port, w a2aport.Work) {
	t.Helper()
	if got := status(t, p, w.ID, w.OwnerID).State; !isOneOf(got, activeStates) {
		t.Errorf("Status(%q, %q).State = %q, want one of %q", w.ID, w.OwnerID, got, activeStates)
	}
}

// eventually polls cond until it holds or ctx ends; it reports whether cond held.
func eventually(ctx context.Context, cond func() bool) bool {
	for {
		if cond() {
			return true
		}
		tick := make(chan struct{})
		timer := wallClock.AfterFunc(pollInterval, func() { close(tick) })
		select {
		case <-ctx.Done():
			timer.Stop()
			return cond()
		case <-tick:
		}
	}
}

// recorder collects the events a listener receives. It is safe for concurrent use.
type recorder struct {
	mu     sync.Mutex
	events []a2aport.Event
}

// listen is the listener to hand to Subscribe or a2aport.OnEvent.
func (r *recorder) listen(e a2aport.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
}

// all returns a copy of every event received so far.
func (r *recorder) all() []a2aport.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]a2aport.Event(nil), r.events...)
}

// of returns the events received so far of the Work workID.
func (r *recorder) of(workID string) []a2aport.Event {
	var out []a2aport.Event
	for _, e := range r.all() {
		if e.WorkID == workID {
			out = append(out, e)
		}
	}
	return out
}

// diagnoseEvents describes the first event that does not belong to one of works (WorkID with the
// matching OwnerID) or has an unknown type, or returns "".
func diagnoseEvents(events []a2aport.Event, works ...a2aport.Work) string {
	for i, e := range events {
		known := false
		for _, typ := range eventTypes {
			known = known || e.Type == typ
		}
		if !known {
			return fmt.Sprintf("event %d Type = %q, want one of %q", i, e.Type, eventTypes)
		}
		owner, ok := "", false
		for _, w := range works {
			if e.WorkID == w.ID {
				owner, ok = w.OwnerID, true
				break
			}
		}
		if !ok {
			return fmt.Sprintf("event %d (%s) WorkID = %q, want a submitted Work id", i, e.Type, e.WorkID)
		}
		if e.OwnerID != owner {
			return fmt.Sprintf("event %d (%s) of %q OwnerID = %q, want %q", i, e.Type, e.WorkID, e.OwnerID, owner)
		}
	}
	return ""
}

// wantEvents fails the check when an event does not belong to one of works (see diagnoseEvents).
func wantEvents(t *testing.T, who string, events []a2aport.Event, works ...a2aport.Work) {
	t.Helper()
	if msg := diagnoseEvents(events, works...); msg != "" {
		t.Errorf("%s: %s", who, msg)
	}
}

// result is what one Submit returned.
type result struct {
	out a2aport.Outcome
	err error
}

// pending is a Submit running in its own goroutine.
type pending struct {
	work a2aport.Work
	done chan result // receives exactly one result, buffered
}

// submitAsync starts Submit in a goroutine.
func submitAsync(ctx context.Context, p a2aport.Port, w a2aport.Work, opts ...a2aport.SubmitOption) *pending {
	pd := &pending{work: w, done: make(chan result, 1)}
	go func() {
		out, err := p.Submit(ctx, w, opts...)
		pd.done <- result{out, err}
	}()
	return pd
}

// wait returns the Submit's result, failing the check if it does not come before ctx ends.
func (pd *pending) wait(t *testing.T, ctx context.Context) result {
	t.Helper()
	select {
	case r := <-pd.done:
		pd.done <- r // keep it for later calls
		return r
	case <-ctx.Done():
		t.Fatalf("Submit(%q) did not return: %v", pd.work.ID, context.Cause(ctx))
		return result{}
	}
}

// wantRunning fails the check if the Submit has already returned.
func (pd *pending) wantRunning(t *testing.T) {
	t.Helper()
	select {
	case r := <-pd.done:
		pd.done <- r
		t.Errorf("Submit(%q) = (%+v, %v), want it still running", pd.work.ID, r.out, r.err)
	default:
	}
}

// submit runs a Work that is expected to complete and returns its outcome.
func submit(t *testing.T, ctx context.Context, p a2aport.Port, w a2aport.Work, opts ...a2aport.SubmitOption) a2aport.Outcome {
	t.Helper()
	r := submitAsync(ctx, p, w, opts...).wait(t, ctx)
	if r.err != nil {
		t.Fatalf("Submit(%q) error = %v (code %q), want nil", w.ID, r.err, a2aport.CodeOf(r.err))
	}
	if r.out.Content == "" && len(r.out.Artifacts) == 0 {
		t.Errorf("Submit(%q) = %+v, want non-empty Content or Artifacts", w.ID, r.out)
	}
	return r.out
}

// hold starts a hold fixture, submits its Work and returns once the Work reached the agent.
func (s *suite) hold(t *testing.T, ctx context.Context, opts ...a2aport.SubmitOption) (Fixture, *pending) {
	t.Helper()
	f := s.started(t, ctx, FixtureOptions{Hold: true})
	pd := submitAsync(ctx, f.Backend, f.Work, opts...)
	started := make(chan error, 1)
	go func() { started <- f.Started(ctx) }()
	select {
	case err := <-started:
		if err != nil {
			t.Fatalf("fixture: Started() error = %v, want nil once the held Work reached the agent", err)
		}
	case r := <-pd.done:
		t.Fatalf("Submit(%q) of a held Work = (%+v, %v) before it started, want it running until cancelled", f.Work.ID, r.out, r.err)
	case <-ctx.Done():
		t.Fatalf("fixture: Started() did not return: %v", context.Cause(ctx))
	}
	return f, pd
}

// closeBounded calls Close and fails the check if it does not return within closeTimeout.
func closeBounded(t *testing.T, p a2aport.Port) error {
	t.Helper()
	var err error
	if !within(closeTimeout, func() { err = p.Close() }) {
		t.Fatalf("Close() did not return within %v, want a bounded close", closeTimeout)
	}
	return err
}

// after is time.After on the suite's clock.
func after(d time.Duration) <-chan struct{} {
	ch := make(chan struct{})
	wallClock.AfterFunc(d, func() { close(ch) })
	return ch
}
