package conformance

import (
	"testing"

	"github.com/a2aport/a2aport"
)

// The status checks: Status without an id reports the runtime; with an id it reports "not_found" for
// every Work that is unknown or finished.
func checkStatusRuntime(t *testing.T, s *suite) {
	ctx := checkContext(t)
	f := s.fixture(t, FixtureOptions{})
	// Before Start the fixture's backend is idle, or ready when the fixture started it.
	st := status(t, f.Backend, "", "")
	if !isOneOf(st.State, []a2aport.WorkState{a2aport.RuntimeIdle, a2aport.RuntimeReady}) {
		t.Errorf("Status(\"\", \"\").State = %q before Start(), want %q or %q", st.State, a2aport.RuntimeIdle, a2aport.RuntimeReady)
	}
	if _, err := f.Backend.Start(ctx); err != nil {
		t.Fatalf("Start() error = %v (code %q), want nil", err, a2aport.CodeOf(err))
	}
	st = status(t, f.Backend, "", "")
	if st.State != a2aport.RuntimeReady || !st.Started {
		t.Errorf("Status(\"\", \"\") = %+v after Start(), want State %q and Started true", st, a2aport.RuntimeReady)
	}
	if st.ActiveWorks != 0 {
		t.Errorf("Status(\"\", \"\").ActiveWorks = %d with no Work submitted, want 0", st.ActiveWorks)
	}
	wantNoErr(t, "Close()", closeBounded(t, f.Backend))
	if st = status(t, f.Backend, "", ""); st.State != a2aport.RuntimeClosed {
		t.Errorf("Status(\"\", \"\").State = %q after Close(), want %q", st.State, a2aport.RuntimeClosed)
	}
}

func checkStatusUnknownWork(t *testing.T, s *suite) {
	ctx := checkContext(t)
	f := s.started(t, ctx, FixtureOptions{})
	wantState(t, f.Backend, unknownID(t), f.Work.OwnerID, a2aport.StateNotFound)
	// A Work that was never submitted is unknown too.
	wantState(t, f.Backend, f.Work.ID, f.Work.OwnerID, a2aport.StateNotFound)
}

func checkStatusAfterComplete(t *testing.T, s *suite) {
	ctx := checkContext(t)
	f := s.started(t, ctx, FixtureOptions{})
	submit(t, ctx, f.Backend, f.Work)
	wantState(t, f.Backend, f.Work.ID, f.Work.OwnerID, a2aport.StateNotFound)
	// A finished Work is unknown to Cancel as well: not_found, not an error.
	res, err := f.Backend.Cancel(ctx, f.Work.ID, f.Work.OwnerID)
	wantNoErr(t, "Cancel() of a completed Work", err)
	if res.State != a2aport.StateNotFound {
		t.Errorf("Cancel(%q, %q) = %+v after completion, want State %q", f.Work.ID, f.Work.OwnerID, res, a2aport.StateNotFound)
	}
	if st := status(t, f.Backend, "", ""); st.ActiveWorks != 0 {
		t.Errorf("Status(\"\", \"\").ActiveWorks = %d after the only Work completed, want 0", st.ActiveWorks)
	}
}
