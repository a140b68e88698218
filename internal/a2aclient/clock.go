package a2aclient

import (
	"context"
	"time"

	"github.com/a2aport/a2aport"

	"github.com/a2aport/a2aport/internal/park"
)

// sleep waits d on clock, or until ctx ends (then it returns the cause).
func sleep(ctx context.Context, clock a2aport.Clock, d time.Duration) error {
	done := make(chan struct{})
	t := clock.AfterFunc(d, func() { close(done) })
	err := park.Wait(ctx, done)
	if err != nil {
		t.Stop()
	}
	return err
}

// withTimeout is context.WithTimeout on clock: on expiry the context ends with cause.
// d <= 0 means no timeout.
func withTimeout(parent context.Context, clock a2aport.Clock, d time.Duration, cause error) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	if d <= 0 {
		return ctx, func() { cancel(context.Canceled) }
	}
	t := clock.AfterFunc(d, func() { cancel(cause) })
	return ctx, func() {
		t.Stop()
		cancel(context.Canceled)
	}
}
