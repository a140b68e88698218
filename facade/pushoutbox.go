package facade

import (
	"context"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// Deliveries that outlive their node (PushOptions.Outbox). The push queue (pushqueue.go) holds
// what waits in this process's memory, so a node that dies takes the pushes it had queued with it;
// a cluster's other state (tasks, events, work) survives it in the database, and with an outbox so
// do its pushes. Each delivery is written to the outbox before it is queued, owned by this node
// under a lease, and removed once it is over, whatever its outcome (delivered, failed, refused,
// dropped, its configuration deleted). Every third of the lease, each node renews the lease of its
// own and adopts those whose lease ran out, into its own queue, in the order they were written: a
// delivery survives the node that would have sent it, and one other node sends it.
//
// For the receiver it is at least once: a node can die after the webhook answered 2xx and before
// the delivery was removed, and the node that adopts it sends it again. Every delivery carries its
// id in PushIDHeader, the same at each attempt and from any node (and, signed, in the signature's
// claims), so that a receiver drops a repeat.

// PushIDHeader carries a delivery's id with each attempt to deliver it: a receiver that has seen
// the id already (a retry whose first answer was lost, or a delivery sent again by the node that
// adopted it) drops the repeat.
const PushIDHeader = "A2aport-Push-Id"

// PushDelivery is one event's body for one webhook of a task, as a PushOutbox keeps it.
type PushDelivery struct {
	// ID is the delivery's own (PushIDHeader), unique.
	ID string
	// TaskID and ConfigID name the webhook: its configuration is read again before each attempt,
	// so one deleted or replaced meanwhile is honoured by the node that adopted the delivery too.
	TaskID   a2a.TaskID
	ConfigID string
	// Body and ContentType are what is POSTed, made when the event happened.
	Body        []byte
	ContentType string
}

// PushOutbox keeps the deliveries of a cluster's nodes where every node sees them
// (pgcluster.Cluster.PushOutbox: a table in PostgreSQL), each owned by the node that put it, or
// adopted it, under a lease. The facade calls it; an implementation decides which node it is and
// how long its lease is.
type PushOutbox interface {
	// Put records d as this node's, leased, after every delivery put before it.
	Put(ctx context.Context, d PushDelivery) error
	// Remove forgets the deliveries of ids, whichever node holds them: they are over.
	Remove(ctx context.Context, ids ...string) error
	// Renew extends the lease of every delivery this node holds.
	Renew(ctx context.Context) error
	// Adopt makes this node's at most max of the deliveries whose lease ran out, and returns them
	// in the order they were put. A delivery is adopted by one node only (until its lease runs
	// out again).
	Adopt(ctx context.Context, max int) ([]PushDelivery, error)
	// Lease is how long a delivery stays its node's after the last renewal: the facade renews,
	// and looks for deliveries to adopt, every third of it.
	Lease() time.Duration
	// Done is closed when the outbox may no longer be used (its cluster closed): the facade stops
	// renewing and adopting, and leaves what it still holds to the leases.
	Done() <-chan struct{}
}

// pushOutboxTimeout bounds one call to the outbox: a delivery's write holds its task's event at
// most that long.
const pushOutboxTimeout = 5 * time.Second

// adoptBatch bounds the deliveries adopted at once, so that a dead node's backlog is spread over
// the nodes that remain rather than taken by the first to look.
const adoptBatch = 256

// keep writes item to the outbox before it is queued. A write that fails costs the delivery its
// survival, never the task: it is logged and counted (PushUnsaved), and delivered from memory.
func (q *pushQueue) keep(item *pushItem) {
	if q.outbox == nil || q.outboxDone() {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), pushOutboxTimeout)
	defer cancel()
	err := q.outbox.Put(ctx, PushDelivery{ID: item.id, TaskID: item.key.task, ConfigID: item.key.config, Body: item.body, ContentType: item.contentType})
	if err != nil {
		q.logger.Warn("push notification not saved: it is delivered from this node's memory alone", "task", string(item.key.task),
			"config", printable(item.key.config), "error", err.Error())
		q.observe(PushUnsaved)
		return
	}
	item.kept = true
}

// forget removes the items that are over from the outbox. One not removed (the database is away,
// or the outbox closed as this node stops) is adopted by another node once its lease runs out and
// sent again: at least once, which the log says.
func (q *pushQueue) forget(items ...*pushItem) {
	if q.outbox == nil || q.outboxDone() {
		return
	}
	ids := make([]string, 0, len(items))
	for _, item := range items {
		if item.kept {
			ids = append(ids, item.id)
		}
	}
	if len(ids) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), pushOutboxTimeout)
	defer cancel()
	if err := q.outbox.Remove(ctx, ids...); err != nil {
		q.logger.Warn("push notifications over but not removed: another node may send them again", "deliveries", len(ids), "error", err.Error())
	}
}

func (q *pushQueue) outboxDone() bool {
	select {
	case <-q.outbox.Done():
		return true
	default:
		return false
	}
}

// start tends the outbox, if there is one, until it is done.
func (q *pushQueue) start() {
	if q.outbox != nil {
		go q.tendOutbox()
	}
}

// tendOutbox renews this node's leases and adopts the deliveries of nodes that died, every third
// of the lease, until the outbox is done.
func (q *pushQueue) tendOutbox() {
	every := max(q.outbox.Lease()/3, 50*time.Millisecond)
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-q.outbox.Done():
			return
		case <-tick.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), pushOutboxTimeout)
		if err := q.outbox.Renew(ctx); err != nil {
			q.logger.Warn("push notification leases not renewed: another node may adopt and send them too", "error", err.Error())
		}
		q.adopt(ctx)
		cancel()
	}
}

// adopt queues, in their order, the deliveries whose node's lease ran out, as many as the queue
// has room for (past it, adopting would only drop them).
func (q *pushQueue) adopt(ctx context.Context) {
	q.mu.Lock()
	room := q.opts.MaxQueued - q.count
	q.mu.Unlock()
	if room <= 0 {
		return
	}
	found, err := q.outbox.Adopt(ctx, min(room, adoptBatch))
	if err != nil {
		q.logger.Warn("push notifications of stopped nodes not adopted", "error", err.Error())
		return
	}
	adopted := 0
	for _, d := range found {
		item := &pushItem{id: d.ID, key: webhookKey{task: d.TaskID, config: d.ConfigID}, body: d.Body, contentType: d.ContentType, kept: true}
		if q.enqueue(item) { // not one this node holds already (its renewals had failed)
			adopted++
			q.observe(PushAdopted)
		}
	}
	if adopted > 0 {
		q.logger.Info("push notifications adopted from a stopped node", "deliveries", adopted)
	}
}
