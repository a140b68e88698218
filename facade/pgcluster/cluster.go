package pgcluster

import (
	"context"
	"errors"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
	"github.com/a2aproject/a2a-go/v2/a2asrv/workqueue"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Cluster is one process's share of the cluster on one PostgreSQL database: the cluster mode of
// its facade (Config), the records with which its Port resumes a Work another process started
// (WorkStore), the push configurations and deliveries (PushConfigs, PushOutbox) and, for a
// gateway, the backend of each Work (Routes).
type Cluster struct {
	pool   *pgxpool.Pool
	tasks  *taskStore
	events *eventQueues
	work   *workQueue
	outbox *PushOutbox
}

// New migrates the database and starts this process (named node, unique in the cluster) on it,
// with work leases of lease (DefaultLease if 0).
func New(ctx context.Context, pool *pgxpool.Pool, node string, lease time.Duration) (*Cluster, error) {
	if err := Migrate(ctx, pool); err != nil {
		return nil, err
	}
	return &Cluster{
		pool:   pool,
		tasks:  newTaskStore(pool, a2asrv.NewTaskStoreAuthenticator()),
		events: newEventQueues(pool),
		work:   newWorkQueue(pool, node, lease),
		outbox: newPushOutbox(pool, node, lease),
	}, nil
}

// Config is the cluster mode of an a2asrv handler (facade.Options.Cluster).
func (c *Cluster) Config() a2asrv.ClusterConfig {
	queue := workqueue.NewPullQueue(c.work, &workqueue.PullQueueConfig{AfterExecutionCallback: completeWhatCannotRun})
	return a2asrv.ClusterConfig{QueueManager: c.events, WorkQueue: queue, TaskStore: c.tasks}
}

// WorkStore is the a2aport.WorkStore of every process of the cluster (a2aport.Options.WorkStore):
// a process's Port resumes a Work another process started, and never sends its message again.
func (c *Cluster) WorkStore() *WorkStore { return &WorkStore{pool: c.pool} }

// Routes are the backends of the gateway's Works, shared by its nodes (gateway.Options.Routes).
func (c *Cluster) Routes() *Routes { return &Routes{pool: c.pool} }

// errHandled tells the pull queue the message was taken care of.
var errHandled = errors.New("handled")

// completeWhatCannotRun completes an item that failed for good (the task is over or unknown: its
// work was cancelled, or finished elsewhere), where the pull queue would hand it out again.
func completeWhatCannotRun(ctx context.Context, msg workqueue.Message, _ a2a.SendMessageResult, err error) error {
	if errors.Is(err, a2a.ErrInvalidParams) || errors.Is(err, a2a.ErrTaskNotFound) {
		_ = msg.Complete(ctx) // if this fails, the item comes back once more and ends here again
		return errHandled
	}
	return nil
}

// Close stops this process's share: it leases no more work, listens no more, and neither renews
// nor adopts push deliveries (those it holds go to other nodes when their leases run out).
func (c *Cluster) Close() {
	c.outbox.close()
	c.work.Close()
	c.events.Close()
}
