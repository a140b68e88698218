package conformance

import (
	"errors"
	"testing"

	"github.com/a2aport/a2aport"
)

// The close checks: Close is idempotent and bounded, ends pending Submits, and the backend refuses
// Work afterwards.
func checkCloseIdempotent(t *testing.T, s *suite) {
	ctx := checkContext(t)
	f := s.started(t, ctx, FixtureOptions{})
	wantNoErr(t, "Close()", closeBounded(t, f.Backend))
	wantNoErr(t, "second Close()", closeBounded(t, f.Backend))
}

func checkClosePendingSubmit(t *testing.T, s *suite) {
	ctx := checkContext(t)
	f, pd := s.hold(t, ctx)
	wantNoErr(t, "Close() with a pending Submit", closeBounded(t, f.Backend))
	r := pd.wait(t, ctx)
	if !errors.Is(r.err, a2aport.ErrAdapterClosed) && !errors.Is(r.err, a2aport.ErrWorkCancelled) {
		t.Errorf("pending Submit() after Close() error = %v (code %q), want %s or %s",
			r.err, a2aport.CodeOf(r.err), a2aport.CodeAdapterClosed, a2aport.CodeWorkCancelled)
	}
	wantState(t, f.Backend, f.Work.ID, f.Work.OwnerID, a2aport.StateNotFound)
	wantState(t, f.Backend, "", "", a2aport.RuntimeClosed)
}

func checkCloseSubmitAfterClose(t *testing.T, s *suite) {
	ctx := checkContext(t)
	f := s.started(t, ctx, FixtureOptions{})
	wantNoErr(t, "Close()", closeBounded(t, f.Backend))
	r := submitAsync(ctx, f.Backend, f.Work).wait(t, ctx)
	wantErr(t, "Submit() after Close()", r.err, a2aport.ErrAdapterClosed, "")
	wantState(t, f.Backend, f.Work.ID, f.Work.OwnerID, a2aport.StateNotFound)
}
