package pgcluster

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv/taskstore"
)

type userKey struct{}

func as(user string) context.Context { return context.WithValue(context.Background(), userKey{}, user) }

func userOf(ctx context.Context) (string, error) {
	u, _ := ctx.Value(userKey{}).(string)
	return u, nil
}

// twoNodes returns two stores on one real PostgreSQL database, as two facade processes have.
func twoNodes(t *testing.T) (*taskStore, *taskStore) {
	t.Helper()
	p1, p2 := twoPools(t)
	return newTaskStore(p1, userOf), newTaskStore(p2, userOf)
}

func newTask(id, contextID string, state a2a.TaskState) *a2a.Task {
	now := time.Now().UTC()
	return &a2a.Task{ID: a2a.TaskID(id), ContextID: contextID, Status: a2a.TaskStatus{State: state, Timestamp: &now}}
}

func TestTaskStoreContract(t *testing.T) {
	a, b := twoNodes(t)
	alice, bob := as("alice"), as("bob")
	task := newTask("t1", "c1", a2a.TaskStateSubmitted)
	if v, err := a.Create(alice, task); err != nil || v != 1 {
		t.Fatalf("Create() = %v, %v", v, err)
	}
	if _, err := b.Create(alice, task); !errors.Is(err, taskstore.ErrTaskAlreadyExists) {
		t.Errorf("Create() twice = %v, want ErrTaskAlreadyExists", err)
	}
	got, err := b.Get(alice, "t1") // the other node reads it
	if err != nil || got.Version != 1 || got.User != "alice" || got.Task.ContextID != "c1" || got.Task.Status.State != a2a.TaskStateSubmitted {
		t.Fatalf("Get() = %+v, %v", got, err)
	}
	if _, err := a.Get(bob, "t1"); !errors.Is(err, a2a.ErrTaskNotFound) {
		t.Errorf("bob's Get() = %v, want not found", err)
	}
	working := newTask("t1", "c1", a2a.TaskStateWorking)
	if v, err := b.Update(alice, &taskstore.UpdateRequest{Task: working, PrevVersion: 1}); err != nil || v != 2 {
		t.Fatalf("Update() = %v, %v", v, err)
	}
	if _, err := a.Update(alice, &taskstore.UpdateRequest{Task: working, PrevVersion: 1}); !errors.Is(err, taskstore.ErrConcurrentModification) {
		t.Errorf("a stale Update() = %v, want ErrConcurrentModification", err)
	}
	if _, err := a.Update(bob, &taskstore.UpdateRequest{Task: working, PrevVersion: 2}); !errors.Is(err, a2a.ErrTaskNotFound) {
		t.Errorf("bob's Update() = %v, want not found", err)
	}
	if _, err := a.Update(alice, &taskstore.UpdateRequest{Task: newTask("nope", "c1", a2a.TaskStateWorking)}); !errors.Is(err, a2a.ErrTaskNotFound) {
		t.Errorf("Update() of an unknown task = %v", err)
	}
	if _, err := a.Create(alice, &a2a.Task{ID: "no-context"}); !errors.Is(err, a2a.ErrInvalidParams) {
		t.Errorf("Create() without a context = %v", err)
	}
}

// Of many updates racing from two nodes with the same previous version, exactly one wins.
func TestTaskStoreOptimisticConcurrency(t *testing.T) {
	a, b := twoNodes(t)
	alice := as("alice")
	if _, err := a.Create(alice, newTask("race", "c", a2a.TaskStateSubmitted)); err != nil {
		t.Fatal(err)
	}
	var wins, conflicts atomic.Int32
	var wg sync.WaitGroup
	for i := range 20 {
		store := []*taskStore{a, b}[i%2]
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := store.Update(alice, &taskstore.UpdateRequest{Task: newTask("race", "c", a2a.TaskStateWorking), PrevVersion: 1})
			switch {
			case err == nil:
				wins.Add(1)
			case errors.Is(err, taskstore.ErrConcurrentModification):
				conflicts.Add(1)
			default:
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if wins.Load() != 1 || conflicts.Load() != 19 {
		t.Errorf("%d wins, %d conflicts; want 1 and 19", wins.Load(), conflicts.Load())
	}
	if got, _ := b.Get(alice, "race"); got.Version != 2 {
		t.Errorf("version %d, want 2", got.Version)
	}
}

func TestTaskStoreList(t *testing.T) {
	a, b := twoNodes(t)
	alice, bob := as("alice"), as("bob")
	for i := range 7 {
		state := a2a.TaskStateWorking
		if i%3 == 0 {
			state = a2a.TaskStateCompleted
		}
		if _, err := []*taskStore{a, b}[i%2].Create(alice, newTask(fmt.Sprintf("a%d", i), fmt.Sprintf("ctx%d", i%2), state)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := a.Create(bob, newTask("b0", "ctx0", a2a.TaskStateWorking)); err != nil {
		t.Fatal(err)
	}
	var seen []a2a.TaskID
	token := ""
	for page := 0; ; page++ {
		res, err := b.List(alice, &a2a.ListTasksRequest{PageSize: 3, PageToken: token})
		if err != nil {
			t.Fatal(err)
		}
		if res.TotalSize != 7 {
			t.Errorf("TotalSize = %d, want 7", res.TotalSize)
		}
		for _, task := range res.Tasks {
			seen = append(seen, task.ID)
		}
		if token = res.NextPageToken; token == "" || page > 5 {
			break
		}
	}
	want := []a2a.TaskID{"a6", "a5", "a4", "a3", "a2", "a1", "a0"} // newest update first
	if fmt.Sprint(seen) != fmt.Sprint(want) {
		t.Errorf("pages gave %v, want %v", seen, want)
	}
	res, err := a.List(alice, &a2a.ListTasksRequest{ContextID: "ctx1", Status: a2a.TaskStateWorking})
	if err != nil || len(res.Tasks) != 2 { // a1, a5 (a3 is completed)
		t.Errorf("filtered List() = %+v, %v", res, err)
	}
	if res, err := a.List(bob, &a2a.ListTasksRequest{}); err != nil || len(res.Tasks) != 1 || res.Tasks[0].ID != "b0" {
		t.Errorf("bob's List() = %+v, %v", res, err)
	}
	if _, err := a.List(as(""), &a2a.ListTasksRequest{}); !errors.Is(err, a2a.ErrUnauthenticated) {
		t.Errorf("an anonymous List() = %v", err)
	}
	if _, err := a.List(alice, &a2a.ListTasksRequest{PageSize: 101}); !errors.Is(err, a2a.ErrInvalidRequest) {
		t.Errorf("a page of 101 = %v", err)
	}
}
