package bridge

import (
	"time"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/internal/abi"
)

// clock is the adapter's Clock inside the module: time is the host's (sent with every batch) and
// timers are host timers. A runtime timer here would make Go ask the host to sleep.
type clock struct{ b *Bridge }

func (c clock) Now() time.Time {
	c.b.mu.Lock()
	defer c.b.mu.Unlock()
	return c.b.now
}

// AfterFunc arms a host timer; when the host reports it fired, f runs in a counted goroutine.
func (c clock) AfterFunc(d time.Duration, f func()) a2aport.Timer {
	id := c.b.newID()
	c.b.mu.Lock()
	c.b.timers[id] = f
	c.b.out.Add(abi.Envelope{Kind: abi.KindSet, ID: id, Nanos: max(int64(d), 0)})
	c.b.mu.Unlock()
	return timer{b: c.b, id: id}
}

type timer struct {
	b  *Bridge
	id uint64
}

// Stop disarms the timer if it has not fired.
func (t timer) Stop() bool {
	t.b.mu.Lock()
	defer t.b.mu.Unlock()
	if _, ok := t.b.timers[t.id]; !ok {
		return false
	}
	delete(t.b.timers, t.id)
	t.b.out.Add(abi.Envelope{Kind: abi.KindClear, ID: t.id})
	return true
}
