package conformance

import (
	"testing"

	"github.com/a2aport/a2aport"
)

// The resume checks: Resume never re-attaches to a Work that is unknown or another owner's. Resuming
// a recorded Work after a restart needs a WorkStore the fixture does not describe; the adapter's
// own tests cover it (tests/resume_test.go).
func checkResumeUnknownWork(t *testing.T, s *suite) {
	ctx := checkContext(t)
	f := s.started(t, ctx, FixtureOptions{})
	_, err := f.Backend.Resume(ctx, unknownID(t), f.Work.OwnerID)
	wantErr(t, "Resume() of an unknown Work", err, a2aport.ErrWorkNotFound, "")
}

func checkResumeOtherOwner(t *testing.T, s *suite) {
	ctx := checkContext(t)
	f, pd := s.hold(t, ctx)
	_, err := f.Backend.Resume(ctx, f.Work.ID, otherOwner(f.Work))
	wantErr(t, "Resume() of another owner's Work", err, a2aport.ErrWorkNotFound, "")
	wantActive(t, f.Backend, f.Work)
	pd.wantRunning(t)
}

// checkResumeAfterDetach: Detach leaves the held Work running with its record (its Submit fails
// with WORK_DETACHED); a reopened backend resumes it, and every event of the resumed Work,
// the last one (cancelled) included, is delivered before Resume returns.
func checkResumeAfterDetach(t *testing.T, s *suite) {
	ctx := checkContext(t)
	f, pd := s.hold(t, ctx)
	if f.Reopen == nil {
		t.Skip("the fixture cannot reopen its backend on the same WorkStore")
	}
	var err error
	if !within(closeTimeout, func() { err = f.Backend.Detach() }) {
		t.Fatalf("Detach() did not return within %v", closeTimeout)
	}
	wantNoErr(t, "Detach()", err)
	wantErr(t, "pending Submit() after Detach()", pd.wait(t, ctx).err, a2aport.ErrWorkDetached, "")
	wantState(t, f.Backend, "", "", a2aport.RuntimeClosed)

	again := f.Reopen(t)
	rec := &recorder{}
	returned := make(chan int, 1) // how many events had arrived when Resume returned
	done := make(chan error, 1)
	go func() {
		_, err := again.Resume(ctx, f.Work.ID, f.Work.OwnerID, a2aport.OnEvent(rec.listen))
		returned <- len(rec.all())
		done <- err
	}()
	for len(rec.all()) == 0 {
		select {
		case err := <-done:
			t.Fatalf("Resume() after Detach() = %v before any event, want the Work followed again", err)
		case <-ctx.Done():
			t.Fatal("the resumed Work sent no event")
		case <-after(pollInterval):
		}
	}
	wantActive(t, again, f.Work)
	_, err = again.Cancel(ctx, f.Work.ID, f.Work.OwnerID)
	wantNoErr(t, "Cancel() of the resumed Work", err)
	var n int
	select {
	case n = <-returned:
	case <-ctx.Done():
		t.Fatal("Resume() did not return after Cancel()")
	}
	wantErr(t, "Resume() after Cancel()", <-done, a2aport.ErrWorkCancelled, "")
	<-after(settleGrace)
	events := rec.all()
	if len(events) != n {
		t.Errorf("%d events came after Resume() returned (%+v), want every event first", len(events)-n, events[n:])
	}
	if last := events[len(events)-1]; last.Type != a2aport.EventActivity || last.State != a2aport.StateCancelled {
		t.Errorf("the last event of the resumed Work is %+v, want the cancelled activity", last)
	}
	wantEvents(t, "the resumed Work", events, f.Work)
	wantNoErr(t, "Close() of the reopened backend", closeBounded(t, again))
}

// checkResumeAfterClose: Close ends the held Work (the remote task is cancelled, its record
// deleted), so a reopened backend has nothing to resume.
func checkResumeAfterClose(t *testing.T, s *suite) {
	ctx := checkContext(t)
	f, pd := s.hold(t, ctx)
	if f.Reopen == nil {
		t.Skip("the fixture cannot reopen its backend on the same WorkStore")
	}
	wantNoErr(t, "Close()", closeBounded(t, f.Backend))
	pd.wait(t, ctx)
	again := f.Reopen(t)
	_, err := again.Resume(ctx, f.Work.ID, f.Work.OwnerID)
	wantErr(t, "Resume() after Close()", err, a2aport.ErrWorkNotFound, "")
	wantNoErr(t, "Close() of the reopened backend", closeBounded(t, again))
}
