package pgcluster

import (
	"context"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Channels of LISTEN/NOTIFY.
const (
	eventsChannel = "a2a_events"
	workChannel   = "a2a_work"
)

// notifier wakes local waiters when another process (or this one) NOTIFYs a channel. It holds one
// connection of the pool for LISTEN, and reconnects when it breaks; waiters also poll, so a lost
// notification only delays them.
type notifier struct {
	mu      sync.Mutex
	waiters map[string]chan struct{} // by channel and key ("a2a_events:task-1", "a2a_work:")
	stop    context.CancelFunc
	done    chan struct{}
}

func newNotifier(pool *pgxpool.Pool, channels ...string) *notifier {
	ctx, stop := context.WithCancel(context.Background())
	n := &notifier{waiters: map[string]chan struct{}{}, stop: stop, done: make(chan struct{})}
	go n.listen(ctx, pool, channels)
	return n
}

func (n *notifier) listen(ctx context.Context, pool *pgxpool.Pool, channels []string) {
	defer close(n.done)
	for ctx.Err() == nil {
		conn, err := pool.Acquire(ctx)
		if err != nil {
			sleepCtx(ctx, time.Second)
			continue
		}
		for _, ch := range channels {
			if _, err = conn.Exec(ctx, "LISTEN "+ch); err != nil {
				break
			}
		}
		for err == nil {
			msg, werr := conn.Conn().WaitForNotification(ctx)
			if werr != nil {
				err = werr
				break
			}
			n.wake(msg.Channel + ":" + msg.Payload)
			n.wake(msg.Channel + ":") // waiters for any key of the channel
		}
		conn.Release()
		sleepCtx(ctx, 100*time.Millisecond)
	}
}

// waitChan returns a channel closed at the next notification of channel with key ("" for any).
func (n *notifier) waitChan(channel, key string) <-chan struct{} {
	n.mu.Lock()
	defer n.mu.Unlock()
	k := channel + ":" + key
	ch, ok := n.waiters[k]
	if !ok {
		ch = make(chan struct{})
		n.waiters[k] = ch
	}
	return ch
}

func (n *notifier) wake(k string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if ch, ok := n.waiters[k]; ok {
		close(ch)
		delete(n.waiters, k)
	}
}

func (n *notifier) close() {
	n.stop()
	<-n.done
}

func sleepCtx(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}
