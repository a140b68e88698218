package conformance

import (
	"context"
	"errors"
	"testing"

	"github.com/a2aport/a2aport"
)

// The hold checks: a Work that runs until cancelled is active for its owner only, cannot be submitted
// twice, is cancelled by its owner alone, and ends its pending Submit with WORK_CANCELLED.
func checkHoldStatusActive(t *testing.T, s *suite) {
	ctx := checkContext(t)
	f, pd := s.hold(t, ctx)
	wantActive(t, f.Backend, f.Work)
	// Another owner's Work is not_found, never revealed.
	wantState(t, f.Backend, f.Work.ID, otherOwner(f.Work), a2aport.StateNotFound)
	if st := status(t, f.Backend, "", ""); st.ActiveWorks != 1 {
		t.Errorf("Status(\"\", \"\").ActiveWorks = %d with one held Work, want 1", st.ActiveWorks)
	}
	pd.wantRunning(t)
}

func checkHoldDuplicateSubmit(t *testing.T, s *suite) {
	ctx := checkContext(t)
	f, pd := s.hold(t, ctx)
	r := submitAsync(ctx, f.Backend, f.Work).wait(t, ctx)
	wantErr(t, "second Submit() of an active Work", r.err, a2aport.ErrWorkAlreadyActive, alreadyActiveMessage)
	// The first Submit is untouched.
	wantActive(t, f.Backend, f.Work)
	pd.wantRunning(t)
}

func checkHoldCancelOtherOwner(t *testing.T, s *suite) {
	ctx := checkContext(t)
	f, pd := s.hold(t, ctx)
	_, err := f.Backend.Cancel(ctx, f.Work.ID, otherOwner(f.Work))
	wantErr(t, "Cancel() by another owner", err, a2aport.ErrWorkNotFound, "")
	wantActive(t, f.Backend, f.Work)
	pd.wantRunning(t)
}

func checkHoldCancelOwner(t *testing.T, s *suite) {
	ctx := checkContext(t)
	f, pd := s.hold(t, ctx)
	res, err := f.Backend.Cancel(ctx, f.Work.ID, f.Work.OwnerID)
	wantNoErr(t, "Cancel() by the owner", err)
	if want := (a2aport.CancelResult{WorkID: f.Work.ID, State: a2aport.StateCancelled}); res != want {
		t.Errorf("Cancel(%q, %q) = %+v, want %+v", f.Work.ID, f.Work.OwnerID, res, want)
	}
	r := pd.wait(t, ctx)
	wantErr(t, "pending Submit() after Cancel()", r.err, a2aport.ErrWorkCancelled, "")

	res, err = f.Backend.Cancel(ctx, f.Work.ID, f.Work.OwnerID)
	wantNoErr(t, "second Cancel()", err)
	if res.State != a2aport.StateNotFound {
		t.Errorf("second Cancel(%q, %q) = %+v, want State %q", f.Work.ID, f.Work.OwnerID, res, a2aport.StateNotFound)
	}
	wantState(t, f.Backend, f.Work.ID, f.Work.OwnerID, a2aport.StateNotFound)
}

func checkHoldCancelUnknown(t *testing.T, s *suite) {
	ctx := checkContext(t)
	f, pd := s.hold(t, ctx)
	id := unknownID(t)
	res, err := f.Backend.Cancel(ctx, id, f.Work.OwnerID)
	wantNoErr(t, "Cancel() of an unknown Work", err)
	if res.State != a2aport.StateNotFound {
		t.Errorf("Cancel(%q, %q) = %+v, want State %q", id, f.Work.OwnerID, res, a2aport.StateNotFound)
	}
	// Cancelling something else leaves the held Work alone.
	wantActive(t, f.Backend, f.Work)
	pd.wantRunning(t)
}

func checkHoldRespondWithoutRequest(t *testing.T, s *suite) {
	ctx := checkContext(t)
	f, pd := s.hold(t, ctx)
	answer := a2aport.InputResponse{Text: "conformance"}
	const requestID = "conformance-no-such-request"

	err := f.Backend.RespondAuthorization(ctx, f.Work.ID, f.Work.OwnerID, requestID, a2aport.InputResponse{Action: a2aport.ActionAccept})
	wantErr(t, "RespondAuthorization() on an active Work", err, a2aport.ErrAuthorizationUnsupported, "")
	err = f.Backend.RespondInput(ctx, f.Work.ID, otherOwner(f.Work), requestID, answer)
	wantErr(t, "RespondInput() by another owner", err, a2aport.ErrWorkNotFound, "")
	err = f.Backend.RespondInput(ctx, f.Work.ID, f.Work.OwnerID, requestID, answer)
	wantErr(t, "RespondInput() with no input requested", err, a2aport.ErrInputNotPending, "")

	wantActive(t, f.Backend, f.Work)
	pd.wantRunning(t)
}

func checkHoldSubmitContextCancelled(t *testing.T, s *suite) {
	ctx := checkContext(t)
	submitCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	f, pd := s.hold(t, submitCtx)
	cancel()
	r := pd.wait(t, ctx)
	// Go callers conventionally see the context's error; the contract's abort signal gives
	// WORK_CANCELLED. Either is fine, success is not.
	if !errors.Is(r.err, a2aport.ErrWorkCancelled) && !errors.Is(r.err, context.Canceled) {
		t.Errorf("Submit() after its context was cancelled error = %v (code %q), want %s or %v",
			r.err, a2aport.CodeOf(r.err), a2aport.CodeWorkCancelled, context.Canceled)
	}
	wantState(t, f.Backend, f.Work.ID, f.Work.OwnerID, a2aport.StateNotFound)
}
