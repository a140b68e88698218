package conformance

import (
	"testing"

	"github.com/a2aport/a2aport"
)

// The respond checks: RespondAuthorization is always unsupported; RespondInput needs a known Work.
// Answers to held Works are checked in the hold group.
func checkRespondAuthorizationUnsupported(t *testing.T, s *suite) {
	ctx := checkContext(t)
	f := s.started(t, ctx, FixtureOptions{})
	for _, action := range []string{a2aport.ActionAccept, a2aport.ActionDecline, a2aport.ActionCancel} {
		err := f.Backend.RespondAuthorization(ctx, unknownID(t), f.Work.OwnerID, "conformance-request", a2aport.InputResponse{Action: action})
		wantErr(t, "RespondAuthorization("+action+")", err, a2aport.ErrAuthorizationUnsupported, "")
	}
}

func checkRespondInputUnknownWork(t *testing.T, s *suite) {
	ctx := checkContext(t)
	f := s.started(t, ctx, FixtureOptions{})
	err := f.Backend.RespondInput(ctx, unknownID(t), f.Work.OwnerID, "conformance-request", a2aport.InputResponse{Text: "conformance"})
	wantErr(t, "RespondInput() on an unknown Work", err, a2aport.ErrWorkNotFound, "")
}
