package pgcluster

import (
	"context"
	"iter"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
	"github.com/a2aproject/a2a-go/v2/a2asrv/taskstore"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2aport/a2aport/internal/testkit/pgtest"
)

// askingExecutor's task asks a question at once: one event, the task waiting for input.
type askingExecutor struct{}

func (askingExecutor) Execute(_ context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		task := a2a.NewSubmittedTask(ec, ec.Message)
		task.Status = a2a.TaskStatus{State: a2a.TaskStateInputRequired,
			Message: a2a.NewMessageForTask(a2a.MessageRoleAgent, ec, a2a.NewTextPart("which one?"))}
		yield(task, nil)
	}
}

func (askingExecutor) Cancel(context.Context, *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(func(a2a.Event, error) bool) {}
}

// requesterKey marks the context of the request, apart from the execution's.
type requesterKey struct{}

// lateReads is a task store whose reads for the request wait until the task asks for input: the
// request then reads the task after its execution has ended, as a loaded node may.
type lateReads struct{ taskstore.Store }

func (s lateReads) Get(ctx context.Context, id a2a.TaskID) (*taskstore.StoredTask, error) {
	if ctx.Value(requesterKey{}) == nil {
		return s.Store.Get(ctx, id)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		stored, err := s.Store.Get(ctx, id)
		if err == nil && stored.Task.Status.State == a2a.TaskStateInputRequired || time.Now().After(deadline) {
			return stored, err
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestQuestionReadAfterItsExecution: a request whose task asked its question, and was stored so,
// before the request read it is answered with the question. a2a-go's reader of the task's events
// skipped the one event that ended the execution, older than the task it read, and waited for
// ever (a blocking request of the facade's cluster hung under load).
func TestQuestionReadAfterItsExecution(t *testing.T) {
	t.Parallel()
	pool, err := pgxpool.New(context.Background(), pgtest.Start(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	c, err := New(context.Background(), pool, "node", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	cfg := c.Config()
	cfg.TaskStore = lateReads{cfg.TaskStore}
	h := a2asrv.NewHandler(askingExecutor{}, a2asrv.WithClusterMode(cfg))
	ctx, cancel := context.WithTimeout(context.WithValue(context.Background(), requesterKey{}, true), 15*time.Second)
	defer cancel()
	res, err := h.SendMessage(ctx, &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("pick one"))})
	if err != nil {
		t.Fatalf("SendMessage() = %v (the request hung until its deadline)", err)
	}
	if task, ok := res.(*a2a.Task); !ok || task.Status.State != a2a.TaskStateInputRequired {
		t.Fatalf("SendMessage() = %+v, want the task asking its question", res)
	}
}
