package pgcluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv/workqueue"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// DefaultLease is how long a process holds a work item without a heartbeat: when it dies, another
// process takes the item over that long after its last heartbeat.
const DefaultLease = 10 * time.Second

// workQueue is a2a-go's workqueue.ReadWriter in PostgreSQL: items are rows; a process leases one
// with FOR UPDATE SKIP LOCKED, keeps it with heartbeats, and deletes it when done. An item whose
// lease ran out (its process died) is leased again by another. Use it as
// workqueue.NewPullQueue(queue, nil).
type workQueue struct {
	pool   *pgxpool.Pool
	node   string
	lease  time.Duration
	note   *notifier
	poll   time.Duration
	mu     sync.Mutex
	closed bool
}

var _ workqueue.ReadWriter = (*workQueue)(nil)

// newWorkQueue is the work queue in pool for the process named node (unique per process), with
// leases of lease (DefaultLease if 0). Close it when the process stops.
func newWorkQueue(pool *pgxpool.Pool, node string, lease time.Duration) *workQueue {
	if lease <= 0 {
		lease = DefaultLease
	}
	return &workQueue{pool: pool, node: node, lease: lease, note: newNotifier(pool, workChannel), poll: lease / 4}
}

// Close makes Read return workqueue.ErrQueueClosed; items in hand are left to their leases.
func (q *workQueue) Close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.note.close()
}

func (q *workQueue) isClosed() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.closed
}

// Write implements workqueue.Writer.
func (q *workQueue) Write(ctx context.Context, p *workqueue.Payload) (a2a.TaskID, error) {
	data, err := json.Marshal(p)
	if err != nil {
		return "", fmt.Errorf("%w: %v", workqueue.ErrMalformedPayload, err)
	}
	if _, err := q.pool.Exec(ctx, `INSERT INTO a2a_work (task_id, payload) VALUES ($1, $2)`, string(p.TaskID), data); err != nil {
		return "", err
	}
	_, err = q.pool.Exec(ctx, `SELECT pg_notify($1, '')`, workChannel)
	return p.TaskID, err
}

// Read implements workqueue.ReadWriter: it leases the oldest free item, waiting for one.
func (q *workQueue) Read(ctx context.Context) (workqueue.Message, error) {
	for {
		if q.isClosed() {
			return nil, workqueue.ErrQueueClosed
		}
		wake := q.note.waitChan(workChannel, "")
		var id int64
		var data []byte
		err := q.pool.QueryRow(ctx, `UPDATE a2a_work SET owner = $1, lease_until = clock_timestamp() + $2::interval, attempts = attempts + 1
			WHERE id = (SELECT id FROM a2a_work WHERE lease_until IS NULL OR lease_until < clock_timestamp()
				ORDER BY id FOR UPDATE SKIP LOCKED LIMIT 1)
			RETURNING id, payload`, q.node, q.lease.String()).Scan(&id, &data)
		if err == nil {
			p := new(workqueue.Payload)
			if err := json.Unmarshal(data, p); err != nil {
				return nil, fmt.Errorf("work item %d: %w", id, err)
			}
			return &workItem{q: q, id: id, payload: p}, nil
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			return nil, err
		}
		t := time.NewTimer(q.poll) // also finds items whose lease ran out
		select {
		case <-wake:
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		}
		t.Stop()
	}
}

// workItem is one leased item.
type workItem struct {
	q       *workQueue
	id      int64
	payload *workqueue.Payload
}

var (
	_ workqueue.Message     = (*workItem)(nil)
	_ workqueue.Heartbeater = (*workItem)(nil)
)

// errLeaseLost says another process has the item now: this one must stop working on it.
var errLeaseLost = errors.New("the work item's lease was lost")

func (w *workItem) Payload() *workqueue.Payload { return w.payload }

// Complete implements workqueue.Message.
func (w *workItem) Complete(ctx context.Context) error {
	_, err := w.q.pool.Exec(ctx, `DELETE FROM a2a_work WHERE id = $1 AND owner = $2`, w.id, w.q.node)
	return err
}

// MaxAttempts bounds how often an item is handed out: one that failed that often is dropped.
const MaxAttempts = 5

// Return implements workqueue.Message: the item is free again after a backoff that doubles with
// its attempts (from a tenth of the lease), and dropped after MaxAttempts.
func (w *workItem) Return(ctx context.Context, _ error) error {
	tag, err := w.q.pool.Exec(ctx, `DELETE FROM a2a_work WHERE id = $1 AND owner = $2 AND attempts >= $3`, w.id, w.q.node, MaxAttempts)
	if err != nil || tag.RowsAffected() > 0 {
		return err
	}
	_, err = w.q.pool.Exec(ctx, `UPDATE a2a_work SET owner = NULL,
		lease_until = clock_timestamp() + $3::interval * power(2, attempts - 1) WHERE id = $1 AND owner = $2`,
		w.id, w.q.node, (w.q.lease / 10).String())
	return err
}

// HeartbeatInterval implements workqueue.Heartbeater.
func (w *workItem) HeartbeatInterval() time.Duration { return w.q.lease / 3 }

// Heartbeat implements workqueue.Heartbeater: it extends the lease, or says it is lost.
func (w *workItem) Heartbeat(ctx context.Context) error {
	tag, err := w.q.pool.Exec(ctx, `UPDATE a2a_work SET lease_until = clock_timestamp() + $3::interval WHERE id = $1 AND owner = $2`,
		w.id, w.q.node, w.q.lease.String())
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return errLeaseLost
	}
	return nil
}
