package pgcluster

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv/workqueue"
)

func payload(task string) *workqueue.Payload {
	return &workqueue.Payload{Type: workqueue.PayloadTypeExecute, TaskID: a2a.TaskID(task),
		ExecuteRequest: &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("hi "+task))},
		CallContext:    map[string]any{"user": "alice"}}
}

// Two processes read one queue: each item goes to exactly one of them, whole.
func TestWorkQueueEachItemOnce(t *testing.T) {
	p1, p2 := twoPools(t)
	a, b := newWorkQueue(p1, "node-a", 0), newWorkQueue(p2, "node-b", 0)
	t.Cleanup(a.Close)
	t.Cleanup(b.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	const n = 40
	for i := range n {
		if _, err := a.Write(ctx, payload(fmt.Sprintf("t%d", i))); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	seen := map[a2a.TaskID]int{}
	var wg sync.WaitGroup
	for _, q := range []*workQueue{a, b, a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				done := len(seen) == n
				mu.Unlock()
				if done {
					return
				}
				rctx, rcancel := context.WithTimeout(ctx, 500*time.Millisecond)
				msg, err := q.Read(rctx)
				rcancel()
				if err != nil {
					continue // nothing left for now
				}
				p := msg.Payload()
				if p.ExecuteRequest == nil || p.CallContext["user"] != "alice" {
					t.Errorf("payload %+v", p)
				}
				mu.Lock()
				seen[p.TaskID]++
				mu.Unlock()
				if err := msg.Complete(ctx); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	for task, times := range seen {
		if times != 1 {
			t.Errorf("%s handled %d times", task, times)
		}
	}
}

// An item whose process stops heartbeating is taken over after its lease; one that heartbeats is
// not; a lost lease is reported to the old holder; a returned item comes back after a short backoff.
func TestWorkQueueLeases(t *testing.T) {
	p1, p2 := twoPools(t)
	const lease = 600 * time.Millisecond
	a, b := newWorkQueue(p1, "node-a", lease), newWorkQueue(p2, "node-b", lease)
	t.Cleanup(a.Close)
	t.Cleanup(b.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := a.Write(ctx, payload("kept")); err != nil {
		t.Fatal(err)
	}
	held, err := a.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	hb := held.(workqueue.Heartbeater)
	if hb.HeartbeatInterval() != lease/3 {
		t.Errorf("HeartbeatInterval() = %v", hb.HeartbeatInterval())
	}
	// Heartbeats keep it: b finds nothing for two leases.
	stop := make(chan struct{})
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(hb.HeartbeatInterval()):
				if err := hb.Heartbeat(ctx); err != nil {
					t.Error(err)
				}
			}
		}
	}()
	rctx, rcancel := context.WithTimeout(ctx, 2*lease)
	if msg, err := b.Read(rctx); err == nil {
		t.Errorf("b leased %v while a heartbeats", msg.Payload().TaskID)
	}
	rcancel()
	close(stop)
	// a "dies": no more heartbeats. b takes the item over once the lease runs out.
	taken, err := b.Read(ctx)
	if err != nil || taken.Payload().TaskID != "kept" {
		t.Fatalf("b.Read() = %v, %v", taken, err)
	}
	if err := hb.Heartbeat(ctx); !errors.Is(err, errLeaseLost) {
		t.Errorf("the old holder's Heartbeat() = %v, want the lease lost", err)
	}
	if err := held.Complete(ctx); err != nil { // the old holder cannot complete it for b
		t.Fatal(err)
	}
	if err := taken.Return(ctx, errors.New("try elsewhere")); err != nil {
		t.Fatal(err)
	}
	again, err := a.Read(ctx)
	if err != nil || again.Payload().TaskID != "kept" {
		t.Fatalf("a.Read() after Return = %v, %v", again, err)
	}
	if err := again.Complete(ctx); err != nil {
		t.Fatal(err)
	}
	rctx, rcancel = context.WithTimeout(ctx, lease)
	defer rcancel()
	if msg, err := b.Read(rctx); err == nil {
		t.Errorf("a completed item came back: %v", msg.Payload().TaskID)
	}
	a.Close()
	if _, err := a.Read(ctx); !errors.Is(err, workqueue.ErrQueueClosed) {
		t.Errorf("Read() after Close = %v", err)
	}
}
