package conformance

import (
	"testing"

	"github.com/a2aport/a2aport/adapter"
)

// The status checks: Status without an id reports the runtime; with an id it reports "not_found" for
// every Work that is unknown or finished.
func checkStatusRuntime(t *testing.T, s *suite) {
	ctx := checkContext(t)
	f := s.fixture(t, FixtureOptions{})
	// Before Start the fixture's backend is idle, or ready when the fixture started it.
	st := status(t, f.Backend, "", "")
	if !isOneOf(st.State, []adapter.WorkState{adapter.RuntimeIdle, adapter.RuntimeReady}) {
		t.Errorf("Status(\"\", \"\").State = %q before Start(), want %q or %q", st.State, adapter.RuntimeIdle, adapter.RuntimeReady)
	}
	if _, err := f.Backend.Start(ctx); err != nil {
		t.Fatalf("Start() error = %v (code %q), want nil", err, adapter.CodeOf(err))
	}
	st = status(t, f.Backend, "", "")
	if st.State != adapter.RuntimeReady || !st.Started {
		t.Errorf("Status(\"\", \"\") = %+v after Start(), want State %q and Started true", st, adapter.RuntimeReady)
	}
	if st.ActiveWorks != 0 {
		t.Errorf("Status(\"\", \"\").ActiveWorks = %d with no Work submitted, want 0", st.ActiveWorks)
	}
	wantNoErr(t, "Close()", closeBounded(t, f.Backend))
	if st = status(t, f.Backend, "", ""); st.State != adapter.RuntimeClosed {
		t.Errorf("Status(\"\", \"\").State = %q after Close(), want %q", st.State, adapter.RuntimeClosed)
	}
}

func checkStatusUnknownWork(t *testing.T, s *suite) {
	ctx := checkContext(t)
	f := s.started(t, ctx, FixtureOptions{})
	wantState(t, f.Backend, unknownID(t), f.Work.OwnerID, adapter.StateNotFound)
	// A Work that was never submitted is unknown too.
	wantState(t, f.Backend, f.Work.ID, f.Work.OwnerID, adapter.StateNotFound)
}

func checkStatusAfterComplete(t *testing.T, s *suite) {
	ctx := checkContext(t)
	f := s.started(t, ctx, FixtureOptions{})
	submit(t, ctx, f.Backend, f.Work)
	wantState(t, f.Backend, f.Work.ID, f.Work.OwnerID, adapter.StateNotFound)
	// A finished Work is unknown to Cancel as well: not_found, not an error.
	res, err := f.Backend.Cancel(ctx, f.Work.ID, f.Work.OwnerID)
	wantNoErr(t, "Cancel() of a completed Work", err)
	if res.State != adapter.StateNotFound {
		t.Errorf("Cancel(%q, %q) = %+v after completion, want State %q", f.Work.ID, f.Work.OwnerID, res, adapter.StateNotFound)
	}
	if st := status(t, f.Backend, "", ""); st.ActiveWorks != 0 {
		t.Errorf("Status(\"\", \"\").ActiveWorks = %d after the only Work completed, want 0", st.ActiveWorks)
	}
}
