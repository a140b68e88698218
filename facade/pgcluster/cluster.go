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

// Cluster is one process's share of the cluster: what a2asrv.WithClusterMode needs, on one
// PostgreSQL database.
type Cluster struct {
	Tasks  *TaskStore
	Events *EventQueues
	Work   *WorkQueue
}

// New migrates the database and starts this process (named node, unique in the cluster) on it,
// with work leases of lease (DefaultLease if 0).
func New(ctx context.Context, pool *pgxpool.Pool, node string, lease time.Duration) (*Cluster, error) {
	if err := Migrate(ctx, pool); err != nil {
		return nil, err
	}
	return &Cluster{
		Tasks:  NewTaskStore(pool, a2asrv.NewTaskStoreAuthenticator()),
		Events: NewEventQueues(pool),
		Work:   NewWorkQueue(pool, node, lease),
	}, nil
}

// Config is the cluster mode of an a2asrv handler.
func (c *Cluster) Config() a2asrv.ClusterConfig {
	queue := workqueue.NewPullQueue(c.Work, &workqueue.PullQueueConfig{AfterExecutionCallback: completeWhatCannotRun})
	return a2asrv.ClusterConfig{QueueManager: c.Events, WorkQueue: queue, TaskStore: c.Tasks}
}

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

// Close stops this process's share: it leases no more work and listens no more.
func (c *Cluster) Close() {
	c.Work.Close()
	c.Events.Close()
}
