package host

import (
	"context"
	"sync"
	"time"

	"github.com/a2aport/a2aport"
)

// A Work whose Submit or Resume call is under way may be unknown to the module for a moment: the
// module has not taken it up yet (a Resume waiting for its WorkStore record). A Cancel then would find nothing while the Work
// goes on, so Cancel asks again until the module knows the Work or its call has ended.

// transitPoll is how often Cancel asks again about a Work in transit.
const transitPoll = 10 * time.Millisecond

// calls counts the Submit and Resume calls under way, by Work id.
type calls struct {
	mu sync.Mutex
	n  map[string]int
}

// enter counts a call of workID until the returned func.
func (c *calls) enter(workID string) (leave func()) {
	c.mu.Lock()
	if c.n == nil {
		c.n = map[string]int{}
	}
	c.n[workID]++
	c.mu.Unlock()
	return func() {
		c.mu.Lock()
		if c.n[workID]--; c.n[workID] <= 0 {
			delete(c.n, workID)
		}
		c.mu.Unlock()
	}
}

func (c *calls) underWay(workID string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[workID] > 0
}

// cancelInTransit makes cancel again while it finds nothing and a call of workID is under way.
func (c *calls) cancelInTransit(ctx context.Context, workID string, cancel func() (a2aport.CancelResult, error)) (a2aport.CancelResult, error) {
	for {
		res, err := cancel()
		if err != nil || res.State != a2aport.StateNotFound || !c.underWay(workID) {
			return res, err
		}
		timer := time.NewTimer(transitPoll)
		select {
		case <-ctx.Done():
			timer.Stop()
			return res, nil
		case <-timer.C:
		}
	}
}
