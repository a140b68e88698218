package pgcluster

import (
	"cmp"
	"context"
	"slices"
	"sync"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2aport/a2aport/facade"
)

// PushOutbox keeps the push deliveries of the cluster's nodes in PostgreSQL (a facade.PushOutbox,
// for facade.PushOptions.Outbox), each a row owned by the node that put or adopted it until its
// lease runs out: the lease of the cluster's work (New), so that the node that takes over a dead
// node's tasks takes its deliveries over about as soon. Rows are adopted as work items are leased,
// with FOR UPDATE SKIP LOCKED: two nodes looking at once adopt each row once between them.
type PushOutbox struct {
	pool  *pgxpool.Pool
	node  string
	lease time.Duration
	done  chan struct{}
	once  sync.Once
}

var _ facade.PushOutbox = (*PushOutbox)(nil)

func newPushOutbox(pool *pgxpool.Pool, node string, lease time.Duration) *PushOutbox {
	if lease <= 0 {
		lease = DefaultLease
	}
	return &PushOutbox{pool: pool, node: node, lease: lease, done: make(chan struct{})}
}

// PushOutbox is the cluster's push delivery outbox, this process's share of it; Close ends it.
func (c *Cluster) PushOutbox() *PushOutbox { return c.outbox }

// Put implements facade.PushOutbox.
func (o *PushOutbox) Put(ctx context.Context, d facade.PushDelivery) error {
	_, err := o.pool.Exec(ctx, `INSERT INTO a2a_push_outbox (id, task_id, config_id, content_type, body, owner, lease_until)
		VALUES ($1, $2, $3, $4, $5, $6, clock_timestamp() + $7::interval)`,
		d.ID, string(d.TaskID), d.ConfigID, d.ContentType, d.Body, o.node, o.lease.String())
	return err
}

// Remove implements facade.PushOutbox.
func (o *PushOutbox) Remove(ctx context.Context, ids ...string) error {
	if len(ids) == 0 {
		return nil
	}
	_, err := o.pool.Exec(ctx, `DELETE FROM a2a_push_outbox WHERE id = ANY($1)`, ids)
	return err
}

// Renew implements facade.PushOutbox.
func (o *PushOutbox) Renew(ctx context.Context) error {
	_, err := o.pool.Exec(ctx, `UPDATE a2a_push_outbox SET lease_until = clock_timestamp() + $2::interval WHERE owner = $1`,
		o.node, o.lease.String())
	return err
}

// Adopt implements facade.PushOutbox: the oldest rows whose lease ran out, locked as they are
// read (those another node is adopting are skipped, not waited for), become this node's.
func (o *PushOutbox) Adopt(ctx context.Context, max int) ([]facade.PushDelivery, error) {
	if max <= 0 {
		return nil, nil
	}
	rows, err := o.pool.Query(ctx, `UPDATE a2a_push_outbox SET owner = $1, lease_until = clock_timestamp() + $2::interval
		WHERE seq IN (SELECT seq FROM a2a_push_outbox WHERE lease_until < clock_timestamp() ORDER BY seq LIMIT $3 FOR UPDATE SKIP LOCKED)
		RETURNING seq, id, task_id, config_id, content_type, body`, o.node, o.lease.String(), max)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	type row struct {
		seq int64
		d   facade.PushDelivery
	}
	var found []row
	for rows.Next() {
		var r row
		var task string
		if err := rows.Scan(&r.seq, &r.d.ID, &task, &r.d.ConfigID, &r.d.ContentType, &r.d.Body); err != nil {
			return nil, err
		}
		r.d.TaskID = a2a.TaskID(task)
		found = append(found, r)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	slices.SortFunc(found, func(a, b row) int { return cmp.Compare(a.seq, b.seq) }) // RETURNING keeps no order
	out := make([]facade.PushDelivery, len(found))
	for i, r := range found {
		out[i] = r.d
	}
	return out, nil
}

// Lease implements facade.PushOutbox.
func (o *PushOutbox) Lease() time.Duration { return o.lease }

// Done implements facade.PushOutbox: it is closed with the cluster.
func (o *PushOutbox) Done() <-chan struct{} { return o.done }

func (o *PushOutbox) close() { o.once.Do(func() { close(o.done) }) }
