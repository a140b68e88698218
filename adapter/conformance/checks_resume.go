package conformance

import (
	"testing"

	"github.com/a2aport/a2aport/adapter"
)

// resumeChecks: Resume never re-attaches to a Work that is unknown or another owner's. Resuming
// a recorded Work after a restart needs a WorkStore the fixture does not describe; the adapter's
// own tests cover it (tests/resume_test.go).
func resumeChecks() []check {
	return []check{
		{"unknown_work", checkResumeUnknownWork},
		{"other_owner", checkResumeOtherOwner},
	}
}

func checkResumeUnknownWork(t *testing.T, s *suite) {
	ctx := checkContext(t)
	f := s.started(t, ctx, FixtureOptions{})
	_, err := f.Backend.Resume(ctx, unknownID(t), f.Work.OwnerID)
	wantErr(t, "Resume() of an unknown Work", err, adapter.ErrWorkNotFound, "")
}

func checkResumeOtherOwner(t *testing.T, s *suite) {
	ctx := checkContext(t)
	f, pd := s.hold(t, ctx)
	_, err := f.Backend.Resume(ctx, f.Work.ID, otherOwner(f.Work))
	wantErr(t, "Resume() of another owner's Work", err, adapter.ErrWorkNotFound, "")
	wantActive(t, f.Backend, f.Work)
	pd.wantRunning(t)
}
