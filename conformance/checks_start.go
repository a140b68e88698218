package conformance

import (
	"fmt"
	"sync"
	"testing"

	"github.com/a2aport/a2aport"
)

// The start checks: Start is idempotent, concurrent calls share one discovery and all succeed, and a
// closed backend refuses to start.
// wantHealthy fails the check unless Start or Health answered OK and started.
func wantHealthy(t *testing.T, op string, h a2aport.Health, err error) {
	t.Helper()
	if err != nil {
		t.Errorf("%s error = %v (code %q), want nil", op, err, a2aport.CodeOf(err))
		return
	}
	if !h.OK || !h.Started {
		t.Errorf("%s = %+v, want OK and Started true", op, h)
	}
}

func checkStartIdempotent(t *testing.T, s *suite) {
	ctx := checkContext(t)
	f := s.fixture(t, FixtureOptions{})
	for i := range 2 {
		h, err := f.Backend.Start(ctx)
		wantHealthy(t, fmt.Sprintf("Start() #%d", i+1), h, err)
	}
	h, err := f.Backend.Health(ctx)
	wantHealthy(t, "Health()", h, err)
}

func checkStartConcurrent(t *testing.T, s *suite) {
	ctx := checkContext(t)
	f := s.fixture(t, FixtureOptions{})
	const n = 8
	type answer struct {
		h   a2aport.Health
		err error
	}
	answers := make([]answer, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			h, err := f.Backend.Start(ctx)
			answers[i] = answer{h, err}
		})
	}
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
		t.Fatalf("%d concurrent Start() calls did not all return: %v", n, ctx.Err())
	}
	for i, a := range answers {
		wantHealthy(t, fmt.Sprintf("concurrent Start() #%d", i+1), a.h, a.err)
	}
	h, err := f.Backend.Health(ctx)
	wantHealthy(t, "Health()", h, err)
}

func checkStartAfterClose(t *testing.T, s *suite) {
	ctx := checkContext(t)
	f := s.started(t, ctx, FixtureOptions{})
	wantNoErr(t, "Close()", closeBounded(t, f.Backend))
	_, err := f.Backend.Start(ctx)
	wantErr(t, "Start() after Close()", err, a2aport.ErrAdapterClosed, "")
}

func checkStartCloseBeforeStart(t *testing.T, s *suite) {
	ctx := checkContext(t)
	f := s.fixture(t, FixtureOptions{})
	wantNoErr(t, "Close() before Start()", closeBounded(t, f.Backend))
	_, err := f.Backend.Start(ctx)
	wantErr(t, "Start() after Close()", err, a2aport.ErrAdapterClosed, "")
}
