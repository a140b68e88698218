package a2aclient

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/a2aport/a2aport"
)

// errStreamIdle ends a stream's context when the agent sent nothing for too long.
var errStreamIdle = errors.New("the agent's stream went idle")

// idleWatch ends a stream's context with errStreamIdle once no event arrived for its limit.
// Events only record the time: the one timer re-arms itself for the rest of the gap when it
// fires early, so a fast stream does not set a timer per event (in the module each would be a
// request to the host).
type idleWatch struct {
	clock  a2aport.Clock
	cancel context.CancelCauseFunc

	mu      sync.Mutex
	limit   time.Duration
	next    time.Duration // the limit after the first event
	last    time.Time
	timer   a2aport.Timer
	stopped bool
	fired   bool
	dead    bool // a probe ended the stream: the task moved on without it (probe.go)
}

// watchIdle returns ctx ended with errStreamIdle when no event comes within first (before the
// first event) or within each gap after it; a limit <= 0 is none.
func watchIdle(parent context.Context, clock a2aport.Clock, first, gap time.Duration) (context.Context, *idleWatch) {
	ctx, cancel := context.WithCancelCause(parent)
	w := &idleWatch{clock: clock, cancel: cancel, limit: first, next: gap, last: clock.Now()}
	w.arm(first)
	return ctx, w
}

func (w *idleWatch) arm(d time.Duration) {
	if d > 0 {
		w.timer = w.clock.AfterFunc(d, w.check)
	}
}

// seen records an event.
func (w *idleWatch) seen() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.last = w.clock.Now()
	if w.limit != w.next && !w.stopped {
		// The first event: from now on the gap's limit applies.
		if w.timer != nil {
			w.timer.Stop()
		}
		w.limit = w.next
		w.arm(w.limit)
	}
}

func (w *idleWatch) check() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return
	}
	if quiet := w.clock.Now().Sub(w.last); quiet < w.limit {
		w.arm(w.limit - quiet)
		return
	}
	w.stopped, w.fired = true, true
	w.cancel(errStreamIdle)
}

// lastSeen is when the stream's last event came (or the watch began).
func (w *idleWatch) lastSeen() time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.last
}

// expire ends the stream now, as if it had gone idle; dead says a probe found it dead.
func (w *idleWatch) expire(dead bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return
	}
	if w.timer != nil {
		w.timer.Stop()
	}
	w.stopped, w.fired, w.dead = true, true, dead
	w.cancel(errStreamIdle)
}

// stop ends the watch and its context; it reports whether the stream went idle.
func (w *idleWatch) stop() (idle bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.stopped && w.timer != nil {
		w.timer.Stop()
	}
	w.stopped = true
	w.cancel(context.Canceled)
	return w.fired
}
