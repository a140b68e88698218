package tests

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"

	"github.com/a2aport/a2aport"
)

// quietPort runs every Work without a word until it is cancelled, and says which node got it.
type quietPort struct {
	a2aport.Port
	node int
	log  *quietLog
}

type quietLog struct {
	mu        sync.Mutex
	ran       map[string]int       // work id → the node that ran it
	cancelled map[string]time.Time // work id → when its Cancel came
	stop      map[string]chan struct{}
	resumed   int // Resume calls: the node that took a CancelTask did not run the Work
}

func (p quietPort) Submit(ctx context.Context, w a2aport.Work, _ ...a2aport.SubmitOption) (a2aport.Outcome, error) {
	stop := make(chan struct{})
	p.log.mu.Lock()
	p.log.ran[w.ID], p.log.stop[w.ID] = p.node, stop
	p.log.mu.Unlock()
	select {
	case <-stop:
		return a2aport.Outcome{}, a2aport.ErrWorkCancelled
	case <-ctx.Done():
		return a2aport.Outcome{}, ctx.Err()
	}
}

// Describe is the adapter's, but for what this Port does itself: its Works never end with a
// message-only reply, so the facade makes each one's task at once (it says nothing to wait for).
func (p quietPort) Describe() a2aport.Description {
	d := p.Port.Describe()
	d.Capabilities.MessageReplies = false
	return d
}

func (p quietPort) Resume(context.Context, string, string, ...a2aport.SubmitOption) (a2aport.Outcome, error) {
	p.log.mu.Lock()
	p.log.resumed++
	p.log.mu.Unlock()
	return a2aport.Outcome{}, a2aport.ErrWorkNotFound // a Work is followed only where it runs
}

func (p quietPort) Cancel(_ context.Context, workID, _ string) (a2aport.CancelResult, error) {
	p.log.mu.Lock()
	defer p.log.mu.Unlock()
	stop, ok := p.log.stop[workID]
	if !ok || p.log.ran[workID] != p.node {
		return a2aport.CancelResult{State: a2aport.StateNotFound}, nil
	}
	if _, done := p.log.cancelled[workID]; !done {
		p.log.cancelled[workID] = time.Now()
		close(stop)
	}
	return a2aport.CancelResult{WorkID: workID, State: a2aport.StateCancelled}, nil
}

// cancelBound is how soon, in cluster mode, the Port of the node that runs a Work is asked to
// cancel it after another node answered the CancelTask (README, "The other direction"): the
// event queue's NOTIFY reaches the watch of the running node at once; the bound leaves room for a
// slow machine.
const cancelBound = 5 * time.Second

// TestFacadeClusterCancelQuiet: a Work that says nothing runs on one node; a CancelTask sent to
// the other node reaches the Port that runs it, within cancelBound, with no event flowing.
func TestFacadeClusterCancelQuiet(t *testing.T) {
	t.Parallel()
	log := &quietLog{ran: map[string]int{}, cancelled: map[string]time.Time{}, stop: map[string]chan struct{}{}}
	cards := facadeNodesOf(t, true, 2, func(i int, p a2aport.Port) a2aport.Port { return quietPort{Port: p, node: i, log: log} })
	ctx := testContext(t)
	clients := [2]*a2aclient.Client{}
	for i := range clients {
		clients[i] = callerClient(ctx, t, cards[i], "1.0", "JSONRPC", "alice-token")
	}
	for round := range 4 {
		res, err := clients[0].SendMessage(ctx, &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("think quietly")),
			Config: &a2a.SendMessageConfig{ReturnImmediately: true}})
		if err != nil {
			t.Fatal(err)
		}
		task := res.(*a2a.Task)
		var node int
		for deadline := time.Now().Add(testTimeout); ; time.Sleep(10 * time.Millisecond) {
			log.mu.Lock()
			n, ok := log.ran[string(task.ID)]
			log.mu.Unlock()
			if ok {
				node = n
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("no node ran the Work")
			}
		}
		time.Sleep(300 * time.Millisecond) // quiet: nothing flows
		other := clients[1-node]
		got, err := other.CancelTask(ctx, &a2a.CancelTaskRequest{ID: task.ID})
		if err != nil || got.Status.State != a2a.TaskStateCanceled {
			t.Fatalf("round %d: CancelTask() on the other node = %+v, %v", round, got, err)
		}
		answered := time.Now()
		for {
			log.mu.Lock()
			at, ok := log.cancelled[string(task.ID)]
			log.mu.Unlock()
			if ok {
				t.Logf("round %d: the Port on node %d was asked to cancel %v after the CancelTask answer", round, node+1, at.Sub(answered).Round(time.Millisecond))
				break
			}
			if time.Since(answered) > cancelBound {
				t.Fatalf("round %d: the Port on node %d was not asked to cancel within %v", round, node+1, cancelBound)
			}
			time.Sleep(10 * time.Millisecond)
		}
		if got, err := clients[node].GetTask(ctx, &a2a.GetTaskRequest{ID: task.ID}); err != nil || got.Status.State != a2a.TaskStateCanceled {
			t.Errorf("round %d: the task is then %+v, %v", round, got, err)
		}
	}
	t.Logf("%d of 4 cancels were taken by the node that did not run the Work", log.resumed)
}
