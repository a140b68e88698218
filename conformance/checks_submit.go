package conformance

import (
	"testing"

	"github.com/a2aport/a2aport"
)

// The submit checks: Submit validates the Work before anything else and runs a valid Work to one outcome.

func checkSubmitValidation(t *testing.T, s *suite) {
	ctx := checkContext(t)
	f := s.started(t, ctx, FixtureOptions{})
	w := next(t, f)
	tests := []struct {
		name    string
		work    a2aport.Work
		message string // required substring of the error message, if any
	}{
		{"empty", a2aport.Work{}, invalidWorkMessage},
		{"missing id", a2aport.Work{OwnerID: w.OwnerID, Instruction: w.Instruction, InputParts: w.InputParts}, ""},
		{"missing owner", a2aport.Work{ID: w.ID, Instruction: w.Instruction, InputParts: w.InputParts}, ""},
		{"missing instruction and input parts", a2aport.Work{ID: w.ID, OwnerID: w.OwnerID}, ""},
	}
	for _, tt := range tests {
		r := submitAsync(ctx, f.Backend, tt.work).wait(t, ctx)
		wantErr(t, "Submit("+tt.name+")", r.err, a2aport.ErrInvalidWork, tt.message)
	}
	// A rejected Work never became active.
	wantState(t, f.Backend, w.ID, w.OwnerID, a2aport.StateNotFound)
	// The backend is still usable after rejecting Works.
	submit(t, ctx, f.Backend, f.Work)
}

func checkSubmitCompletes(t *testing.T, s *suite) {
	ctx := checkContext(t)
	f := s.started(t, ctx, FixtureOptions{})
	submit(t, ctx, f.Backend, f.Work)
	// The same backend runs a second Work as well.
	submit(t, ctx, f.Backend, next(t, f))
}

func checkSubmitConcurrent(t *testing.T, s *suite) {
	ctx := checkContext(t)
	f := s.started(t, ctx, FixtureOptions{})
	works := []a2aport.Work{f.Work}
	for len(works) < 4 {
		works = append(works, next(t, f, ids(works)...))
	}
	recs := make([]*recorder, len(works))
	pds := make([]*pending, len(works))
	for i, w := range works {
		recs[i] = &recorder{}
		pds[i] = submitAsync(ctx, f.Backend, w, a2aport.OnEvent(recs[i].listen))
	}
	for i, pd := range pds {
		r := pd.wait(t, ctx)
		if r.err != nil {
			t.Errorf("concurrent Submit(%q) error = %v (code %q), want nil", works[i].ID, r.err, a2aport.CodeOf(r.err))
		} else if r.out.Content == "" && len(r.out.Artifacts) == 0 {
			t.Errorf("concurrent Submit(%q) = %+v, want non-empty Content or Artifacts", works[i].ID, r.out)
		}
	}
	for i, w := range works {
		// Each Work's own listener sees that Work's events only.
		wantEvents(t, "OnEvent of "+w.ID, recs[i].all(), w)
		wantState(t, f.Backend, w.ID, w.OwnerID, a2aport.StateNotFound)
	}
}

// ids returns the ids of works.
func ids(works []a2aport.Work) []string {
	out := make([]string, len(works))
	for i, w := range works {
		out[i] = w.ID
	}
	return out
}
