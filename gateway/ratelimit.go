package gateway

import (
	"fmt"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/a2aport/a2aport/facade"
)

// RateLimit is a rate of requests per second and the burst taken at once above it (a token
// bucket, golang.org/x/time/rate). A zero Rate is no limit.
type RateLimit struct {
	Rate  float64 `yaml:"rate"`
	Burst int     `yaml:"burst"` // default: the rate, rounded up, and at least 1
}

// RateLimits bound how fast requests come, per node of a cluster: each node keeps its own
// buckets, so a cluster of n nodes behind a load balancer takes up to n times each rate. A
// request over a limit is answered 429 with Retry-After and creates nothing.
type RateLimits struct {
	// PerCaller counts every A2A request of one caller (any operation).
	PerCaller RateLimit `yaml:"perCaller"`
	// PerBackend counts the messages that start a task on one backend, whoever sends them: what
	// the backend's own capacity or quota allows. Calls on tasks that exist are not counted.
	PerBackend RateLimit `yaml:"perBackend"`
}

func (l RateLimit) check(field string, fail func(field, msg string) error) error {
	switch {
	case l.Rate < 0:
		return fail(field+".rate", "must not be negative (0: no limit)")
	case l.Burst < 0:
		return fail(field+".burst", "must not be negative (0: the rate)")
	case l.Rate == 0 && l.Burst > 0:
		return fail(field+".rate", "a burst needs a rate")
	}
	return nil
}

// maxIdleBuckets is how many buckets a limiter keeps before it forgets the full ones: a bucket
// that is full is the same as a new one, so forgetting it changes nothing a caller sees, and a
// stream of new callers (new tokens' subjects) cannot grow the gateway's memory for ever.
const maxIdleBuckets = 10_000

// limiter holds one token bucket per key (a caller, a backend).
type limiter struct {
	limit rate.Limit
	burst int
	mu    sync.Mutex
	by    map[string]*rate.Limiter
}

// newLimiter is nil for no limit.
func newLimiter(l RateLimit) *limiter {
	if l.Rate <= 0 {
		return nil
	}
	burst := l.Burst
	if burst == 0 {
		burst = max(1, int(l.Rate+0.999))
	}
	return &limiter{limit: rate.Limit(l.Rate), burst: burst, by: map[string]*rate.Limiter{}}
}

// take spends one token of key's bucket, or says how long until one is there.
func (l *limiter) take(key string, now time.Time) (wait time.Duration, ok bool) {
	if l == nil {
		return 0, true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.by[key]
	if b == nil {
		if len(l.by) >= maxIdleBuckets {
			l.forgetFull(now)
		}
		b = rate.NewLimiter(l.limit, l.burst)
		l.by[key] = b
	}
	r := b.ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now) // refused: the token stays for the caller's next try
		return d, false
	}
	return 0, true
}

func (l *limiter) forgetFull(now time.Time) {
	for k, b := range l.by {
		if b.TokensAt(now) >= float64(l.burst) {
			delete(l.by, k)
		}
	}
}

// rateLimited is the error of a request over a limit: what was passed, never whose token.
func rateLimited(what string, l *limiter, wait time.Duration) error {
	return &facade.RetryLater{After: wait, Reason: fmt.Sprintf("%s: at most %g requests a second (burst %d); try again in %v", what, float64(l.limit), l.burst, wait.Round(time.Millisecond))}
}
