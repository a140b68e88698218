package conformance

import (
	"context"
	"testing"
	"time"

	"github.com/a2aport/a2aport"
)

// FixtureOptions asks the fixture factory for a kind of Work.
type FixtureOptions struct {
	// Hold asks for a Work that keeps running at the remote agent until it is cancelled
	// (or the backend is closed). Without Hold the Work completes quickly with an outcome.
	Hold bool
}

// Fixture is one fresh backend plus Works to submit to it.
//
// The backend must not be shared with any other Fixture: checks run in parallel and each one
// closes its backend. The factory registers its own cleanup with t.Cleanup (closing the backend,
// stopping test servers); the suite never relies on that cleanup to pass.
type Fixture struct {
	// Backend is the Port under test. It may or may not be started yet; the suite calls Start itself.
	Backend a2aport.Port
	// Work is ready to submit. With Hold it runs until cancelled; otherwise it completes quickly
	// with an Outcome whose Content or Artifacts is non-empty.
	Work a2aport.Work
	// NextWork returns a fresh Work of the same kind as Work: a new id, the same owner.
	NextWork func() a2aport.Work
	// Started, with Hold, returns once the held Work (Fixture.Work) has reached execution at the
	// agent, or ctx's error. It is nil without Hold.
	Started func(ctx context.Context) error
	// Reopen returns a new backend on the same WorkStore as Backend: the frontend after its
	// restart. The detach and resume checks need it; nil skips them.
	Reopen func(t *testing.T) a2aport.Port
	// Local says the backend is a Port of its own, no client of a remote agent: Describe names no
	// transport or protocol version after Start.
	Local bool
}

// Run runs every conformance check against the Ports that newFixture creates. Each check is a
// subtest with its own fixture; the checks of one group run in parallel, so newFixture must be
// safe for concurrent use. Every wait is bounded, so a Port that hangs fails instead of blocking
// the test binary.
func Run(t *testing.T, newFixture func(t *testing.T, opts FixtureOptions) Fixture) {
	t.Helper()
	if newFixture == nil {
		t.Fatal("conformance.Run: newFixture is nil")
	}
	s := &suite{newFixture: newFixture}
	for _, g := range contract.Groups {
		t.Run(g.Name, func(t *testing.T) {
			for _, c := range g.Checks {
				t.Run(c.Name, func(t *testing.T) {
					t.Parallel()
					run, ok := implementations[g.Name+"/"+c.Name]
					if !ok {
						t.Fatalf("check %s/%s (%s) has no Go implementation", g.Name, c.Name, c.Contract)
					}
					run(t, s)
				})
			}
		})
	}
}

// Bounds of the suite besides the table's (waitTimeout, closeTimeout). They are generous: they
// exist to turn a hang into a failure, not to measure speed.
const (
	// settleGrace is how long the suite keeps listening after a call settled, for events that
	// come late: a Work's events must all be delivered before its Submit or Resume returns.
	settleGrace = 100 * time.Millisecond
	// syncTimeout bounds the calls the contract calls synchronous (Describe, Status).
	syncTimeout = 5 * time.Second
	// pollInterval is how often the suite re-checks a condition that may be reached asynchronously.
	pollInterval = 10 * time.Millisecond
)

// implementations are the Go checks by the names checks.json gives them, group/check; each file
// checks_<group>.go holds a group's.
var implementations = map[string]func(t *testing.T, s *suite){
	"describe/before_start":             checkDescribeBeforeStart,
	"describe/after_start":              checkDescribeAfterStart,
	"start/idempotent":                  checkStartIdempotent,
	"start/concurrent":                  checkStartConcurrent,
	"start/after_close":                 checkStartAfterClose,
	"start/close_before_start":          checkStartCloseBeforeStart,
	"health/after_start":                checkHealthAfterStart,
	"health/no_side_effects":            checkHealthNoSideEffects,
	"status/runtime":                    checkStatusRuntime,
	"status/unknown_work":               checkStatusUnknownWork,
	"status/after_complete":             checkStatusAfterComplete,
	"submit/validation":                 checkSubmitValidation,
	"submit/completes":                  checkSubmitCompletes,
	"submit/concurrent":                 checkSubmitConcurrent,
	"events/on_event":                   checkEventsOnEvent,
	"events/subscribe":                  checkEventsSubscribe,
	"events/unsubscribe":                checkEventsUnsubscribe,
	"events/failing_listener":           checkEventsPanickingListener,
	"events/failing_on_event":           checkEventsPanickingOnEvent,
	"hold/status_active":                checkHoldStatusActive,
	"hold/duplicate_submit":             checkHoldDuplicateSubmit,
	"hold/cancel_other_owner":           checkHoldCancelOtherOwner,
	"hold/cancel_owner":                 checkHoldCancelOwner,
	"hold/cancel_unknown":               checkHoldCancelUnknown,
	"hold/respond_without_request":      checkHoldRespondWithoutRequest,
	"hold/submit_abandoned":             checkHoldSubmitContextCancelled,
	"respond/authorization_unsupported": checkRespondAuthorizationUnsupported,
	"respond/input_unknown_work":        checkRespondInputUnknownWork,
	"resume/unknown_work":               checkResumeUnknownWork,
	"resume/other_owner":                checkResumeOtherOwner,
	"resume/after_detach":               checkResumeAfterDetach,
	"resume/after_close":                checkResumeAfterClose,
	"close/idempotent":                  checkCloseIdempotent,
	"close/pending_submit":              checkClosePendingSubmit,
	"close/submit_after_close":          checkCloseSubmitAfterClose,
}

// suite carries what every check needs.
type suite struct {
	newFixture func(t *testing.T, opts FixtureOptions) Fixture
}

// fixture asks the factory for a Fixture and fails the check at once if it is unusable.
func (s *suite) fixture(t *testing.T, opts FixtureOptions) Fixture {
	t.Helper()
	f := s.newFixture(t, opts)
	if msg := validateFixture(f, opts); msg != "" {
		t.Fatalf("fixture (hold=%t): %s", opts.Hold, msg)
	}
	return f
}

// started returns a fixture whose backend has been started successfully.
func (s *suite) started(t *testing.T, ctx context.Context, opts FixtureOptions) Fixture {
	t.Helper()
	f := s.fixture(t, opts)
	h, err := f.Backend.Start(ctx)
	if err != nil {
		t.Fatalf("Start() error = %v (code %q), want nil", err, a2aport.CodeOf(err))
	}
	if !h.OK {
		t.Fatalf("Start() = %+v, want OK true", h)
	}
	return f
}

// checkContext returns the context that bounds one check.
func checkContext(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	timer := wallClock.AfterFunc(waitTimeout, cancel)
	t.Cleanup(func() {
		timer.Stop()
		cancel()
	})
	return ctx
}

// wallClock bounds the suite's waits. Like every package under adapter/, the suite keeps time
// behind a2aport.Clock (here the real one): the rule stays uniform and checkable by grep.
var wallClock = a2aport.RealClock()

// validateFixture describes what is wrong with f, or returns "" when it is usable.
func validateFixture(f Fixture, opts FixtureOptions) string {
	switch {
	case f.Backend == nil:
		return "Backend is nil"
	case f.Work.ID == "" || f.Work.OwnerID == "":
		return "Work needs an ID and an OwnerID"
	case f.Work.Instruction == "" && len(f.Work.InputParts) == 0:
		return "Work needs an Instruction or InputParts"
	case f.NextWork == nil:
		return "NextWork is nil"
	case opts.Hold && f.Started == nil:
		return "Started is nil, but Hold asks for it"
	}
	return ""
}
