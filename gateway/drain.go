package gateway

import (
	"context"
	"net/http"
	"sync/atomic"
	"time"
)

// drain is what a stopping gateway still does: its listener stays open while the requests in
// flight finish, /readyz says 503 so that a load balancer stops sending (a closed port looks
// like a dead node), and a message that would start a task is refused with 503 and Retry-After.
type drain struct {
	on   atomic.Bool
	open atomic.Int64 // A2A requests being answered (a stream until it ends)
}

// counting counts the requests next answers.
func (d *drain) counting(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d.open.Add(1)
		defer d.open.Add(-1)
		next.ServeHTTP(w, r)
	})
}

// drainPoll is how often Drain looks whether the last request has finished.
const drainPoll = 20 * time.Millisecond

// Drain starts the gateway's stop: /readyz answers 503 and new tasks are refused (503,
// Retry-After), while everything else is served. It returns once no A2A request is open (every
// stream has ended), or with ctx's error when ctx ends first. Then shut the server down, and
// Close or Detach the gateway.
func (g *Gateway) Drain(ctx context.Context) error {
	g.drain.on.Store(true)
	g.opts.Logger.Info("draining", "open", g.drain.open.Load())
	for g.drain.open.Load() > 0 {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(drainPoll):
		}
	}
	return nil
}

// Draining reports whether Drain has been called.
func (g *Gateway) Draining() bool { return g.drain.on.Load() }
