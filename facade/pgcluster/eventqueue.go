package pgcluster

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv/eventqueue"
	"github.com/a2aproject/a2a-go/v2/a2asrv/taskstore"
	"github.com/jackc/pgx/v5/pgxpool"
)

// eventQueues is a2a-go's eventqueue.Manager in PostgreSQL: the events of a task are rows, and a
// NOTIFY wakes the readers of every process; a reader sees what is written after it was created.
type eventQueues struct {
	pool *pgxpool.Pool
	note *notifier
	poll time.Duration
}

var _ eventqueue.Manager = (*eventQueues)(nil)

// newEventQueues keeps event queues in pool. Close it when the process stops.
func newEventQueues(pool *pgxpool.Pool) *eventQueues {
	return &eventQueues{pool: pool, note: newNotifier(pool, eventsChannel), poll: time.Second}
}

// Close stops listening for notifications.
func (q *eventQueues) Close() { q.note.close() }

// CreateReader implements eventqueue.Manager.
func (q *eventQueues) CreateReader(ctx context.Context, taskID a2a.TaskID) (eventqueue.Reader, error) {
	var last int64
	if err := q.pool.QueryRow(ctx, `SELECT coalesce(max(seq), 0) FROM a2a_events WHERE task_id = $1`, string(taskID)).Scan(&last); err != nil {
		return nil, err
	}
	return &eventReader{q: q, task: string(taskID), last: last, closed: make(chan struct{})}, nil
}

// CreateWriter implements eventqueue.Manager.
func (q *eventQueues) CreateWriter(_ context.Context, taskID a2a.TaskID) (eventqueue.Writer, error) {
	return &eventWriter{q: q, task: string(taskID)}, nil
}

// Destroy implements eventqueue.Manager: readers get what was written, then ErrQueueClosed. Rows
// of queues destroyed more than an hour ago go.
func (q *eventQueues) Destroy(ctx context.Context, taskID a2a.TaskID) error {
	if _, err := q.pool.Exec(ctx, `INSERT INTO a2a_events (task_id, message) VALUES ($1, NULL)`, string(taskID)); err != nil {
		return err
	}
	if _, err := q.pool.Exec(ctx, `SELECT pg_notify($1, $2)`, eventsChannel, string(taskID)); err != nil {
		return err
	}
	_, err := q.pool.Exec(ctx, `DELETE FROM a2a_events WHERE task_id IN
		(SELECT task_id FROM a2a_events WHERE message IS NULL AND created_at < clock_timestamp() - interval '1 hour')`)
	return err
}

type eventWriter struct {
	q      *eventQueues
	task   string
	mu     sync.Mutex
	closed bool
}

// Write implements eventqueue.Writer.
func (w *eventWriter) Write(ctx context.Context, msg *eventqueue.Message) error {
	w.mu.Lock()
	closed := w.closed
	w.mu.Unlock()
	if closed {
		return eventqueue.ErrQueueClosed
	}
	data, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	if _, err := w.q.pool.Exec(ctx, `INSERT INTO a2a_events (task_id, message) VALUES ($1, $2)`, w.task, data); err != nil {
		return err
	}
	_, err = w.q.pool.Exec(ctx, `SELECT pg_notify($1, $2)`, eventsChannel, w.task)
	return err
}

// Close implements eventqueue.Writer.
func (w *eventWriter) Close() error {
	w.mu.Lock()
	w.closed = true
	w.mu.Unlock()
	return nil
}

// eventReader is used by one goroutine; Close may come from another.
type eventReader struct {
	q         *eventQueues
	task      string
	last      int64
	pending   []*eventqueue.Message
	ended     bool // the queue was destroyed and everything before it read
	closed    chan struct{}
	closeOnce sync.Once
}

// Read implements eventqueue.Reader.
func (r *eventReader) Read(ctx context.Context) (*eventqueue.Message, error) {
	for {
		select {
		case <-r.closed:
			return nil, eventqueue.ErrQueueClosed
		default:
		}
		if len(r.pending) > 0 {
			msg := r.pending[0]
			r.pending = r.pending[1:]
			return msg, nil
		}
		if r.ended {
			return nil, eventqueue.ErrQueueClosed
		}
		wake := r.q.note.waitChan(eventsChannel, r.task) // before the query: no notification is missed
		if err := r.fetch(ctx); err != nil {
			return nil, err
		}
		if len(r.pending) > 0 || r.ended {
			continue
		}
		t := time.NewTimer(r.q.poll)
		select {
		case <-wake:
		case <-t.C:
		case <-r.closed:
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		}
		t.Stop()
	}
}

func (r *eventReader) fetch(ctx context.Context) error {
	rows, err := r.q.pool.Query(ctx, `SELECT seq, message FROM a2a_events WHERE task_id = $1 AND seq > $2 ORDER BY seq LIMIT 256`, r.task, r.last)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var seq int64
		var data []byte
		if err := rows.Scan(&seq, &data); err != nil {
			return err
		}
		r.last = seq
		if data == nil {
			r.ended = true
			break
		}
		msg := new(eventqueue.Message)
		if err := json.Unmarshal(data, msg); err != nil {
			return fmt.Errorf("event %d of task %s: %w", seq, r.task, err)
		}
		if endsExecution(msg.Event) {
			// a2a-go's reader of a task's events (its remote subscription) first reads the stored
			// task, then skips every event of its version or older, and returns at the event
			// that ends the execution. When the execution had ended before the reader read the
			// task (quick, or one event: a question, a2a-go's input-required, is not terminal),
			// it skipped that event too and waited for ever: the request hung. Without its
			// version, the last event is never skipped; at worst a stream shows the end twice.
			msg.TaskVersion = taskstore.TaskVersionMissing
		}
		r.pending = append(r.pending, msg)
	}
	return rows.Err()
}

// endsExecution reports whether ev is the last event of an execution, as a2a-go's event handling
// has it: a message, or a task or status that is terminal or asks for input.
func endsExecution(ev a2a.Event) bool {
	var state a2a.TaskState
	switch ev := ev.(type) {
	case *a2a.Message:
		return true
	case *a2a.Task:
		state = ev.Status.State
	case *a2a.TaskStatusUpdateEvent:
		state = ev.Status.State
	}
	return state.Terminal() || state == a2a.TaskStateInputRequired
}

// Close implements eventqueue.Reader.
func (r *eventReader) Close() error {
	r.closeOnce.Do(func() { close(r.closed) })
	return nil
}
