package adapter

import (
	"context"
	"time"

	"github.com/a2aport/a2aport/internal/park"
)

// Clock is the adapter's only source of time. Inside the WebAssembly module it is backed by host
// timers, because a runtime timer there would sleep the whole module; tests use a fake clock.
type Clock interface {
	Now() time.Time
	// AfterFunc calls f in its own goroutine after d and returns a handle that can stop it.
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is a pending AfterFunc call.
type Timer interface {
	// Stop prevents the call if it has not started and reports whether it did.
	Stop() bool
}

// sleep waits d on clock, or until ctx ends (then it returns the cause).
func sleep(ctx context.Context, clock Clock, d time.Duration) error {
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
func withTimeout(parent context.Context, clock Clock, d time.Duration, cause error) (context.Context, context.CancelFunc) {
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
