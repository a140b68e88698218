// Package park is the one way code in the adapter blocks. Natively a wait is a plain select on a
// channel. Inside the WebAssembly module the bridge installs a Waiter, because its scheduler must
// know which goroutines are blocked: the module returns to the host only when every goroutine it
// started is blocked (DESIGN.md §4), and a goroutine blocked on a bare channel would stay counted as
// busy forever.
//
//	done := make(chan struct{})
//	go func() { close(done) }()
//	if err := park.Wait(ctx, done); err != nil {
//		return err // ctx ended first; err is its cause
//	}
package park

import "context"

// Waiter blocks the calling goroutine until ready reports true. ready never blocks and may be
// called from any goroutine; a Waiter must re-check it whenever another goroutine may have
// changed what it observes.
type Waiter func(ready func() bool)

var waiter Waiter

// SetWaiter installs w for the whole process. Only the module's bridge calls it, once, before any
// wait; it is not safe to call concurrently with Wait.
func SetWaiter(w Waiter) { waiter = w }

// Wait blocks until done is closed or ctx ends, and returns nil or ctx's cause.
func Wait(ctx context.Context, done <-chan struct{}) error {
	if waiter == nil {
		select {
		case <-done:
			return nil
		case <-ctx.Done():
			return context.Cause(ctx)
		}
	}
	waiter(func() bool { return isClosed(done) || ctx.Err() != nil })
	if isClosed(done) {
		return nil
	}
	return context.Cause(ctx)
}

func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}
