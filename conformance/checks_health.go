package conformance

import (
	"testing"

	"github.com/a2aport/a2aport"
)

// The health checks: Health answers OK once started and touches no Work.
func checkHealthAfterStart(t *testing.T, s *suite) {
	ctx := checkContext(t)
	f := s.started(t, ctx, FixtureOptions{})
	h, err := f.Backend.Health(ctx)
	wantHealthy(t, "Health()", h, err)
}

func checkHealthNoSideEffects(t *testing.T, s *suite) {
	ctx := checkContext(t)
	f, pd := s.hold(t, ctx)
	before := status(t, f.Backend, f.Work.ID, f.Work.OwnerID)
	runtimeBefore := status(t, f.Backend, "", "")
	for i := range 3 {
		h, err := f.Backend.Health(ctx)
		if err != nil || !h.OK {
			t.Errorf("Health() #%d = (%+v, %v), want OK and nil error", i+1, h, err)
		}
	}
	after := status(t, f.Backend, f.Work.ID, f.Work.OwnerID)
	// The remote agent may move the Work from submitted to working meanwhile; Health must not
	// end it, move it anywhere else, or move it back.
	switch {
	case !isOneOf(before.State, activeStates):
		t.Errorf("Status(%q, %q).State = %q before Health(), want one of %q", f.Work.ID, f.Work.OwnerID, before.State, activeStates)
	case !isOneOf(after.State, activeStates) || (before.State == a2aport.StateWorking && after.State != a2aport.StateWorking):
		t.Errorf("Status(%q, %q).State = %q after Health(), want %q as before", f.Work.ID, f.Work.OwnerID, after.State, before.State)
	}
	if runtimeAfter := status(t, f.Backend, "", ""); runtimeAfter != runtimeBefore {
		t.Errorf("Status(\"\", \"\") = %+v after Health(), want %+v as before", runtimeAfter, runtimeBefore)
	}
	pd.wantRunning(t)
}
