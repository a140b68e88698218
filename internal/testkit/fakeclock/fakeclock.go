// Package fakeclock is a manual a2aport.Clock for tests: time moves only when the test says so,
// so timeouts and poll intervals are tested without waiting for them.
//
//	clock := fakeclock.New()
//	a, _ := adapter.New(a2aport.Options{AgentCard: card, Clock: clock, Timeout: time.Minute})
//	// ... once the Work runs:
//	clock.WaitTimers(ctx, 1)
//	clock.Advance(time.Minute) // the Work now times out
package fakeclock

import (
	"context"
	"sort"
	"sync"
	"time"

	"github.com/a2aport/a2aport"
)

// Clock is a fake a2aport.Clock. Its zero value is not usable; call New.
type Clock struct {
	mu      sync.Mutex
	now     time.Time
	timers  []*timer
	changed chan struct{} // closed and replaced whenever timers change
}

type timer struct {
	c       *Clock
	at      time.Time
	f       func()
	stopped bool
}

// New returns a clock at a fixed instant.
func New() *Clock {
	return &Clock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), changed: make(chan struct{})}
}

// Now implements a2aport.Clock.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// AfterFunc implements a2aport.Clock.
func (c *Clock) AfterFunc(d time.Duration, f func()) a2aport.Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &timer{c: c, at: c.now.Add(d), f: f}
	c.timers = append(c.timers, t)
	c.notify()
	return t
}

// Stop implements a2aport.Timer.
func (t *timer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	for i, p := range t.c.timers {
		if p == t {
			t.c.timers = append(t.c.timers[:i], t.c.timers[i+1:]...)
			t.stopped = true
			t.c.notify()
			return true
		}
	}
	return false
}

// Advance moves time forward by d and starts every timer that became due, in due order.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	var due, rest []*timer
	for _, t := range c.timers {
		if !t.at.After(c.now) {
			due = append(due, t)
		} else {
			rest = append(rest, t)
		}
	}
	c.timers = rest
	c.notify()
	c.mu.Unlock()
	sort.SliceStable(due, func(i, j int) bool { return due[i].at.Before(due[j].at) })
	for _, t := range due {
		go t.f()
	}
}

// Pending returns the number of armed timers.
func (c *Clock) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.timers)
}

// WaitTimers returns once at least n timers are armed, or ctx's error.
func (c *Clock) WaitTimers(ctx context.Context, n int) error {
	for {
		c.mu.Lock()
		count, changed := len(c.timers), c.changed
		c.mu.Unlock()
		if count >= n {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (c *Clock) notify() {
	close(c.changed)
	c.changed = make(chan struct{})
}
