package facade

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
	"github.com/a2aproject/a2a-go/v2/a2asrv/taskstore"
)

func asUser(name string) context.Context {
	ctx, call := a2asrv.NewCallContext(context.Background(), nil)
	call.User = a2asrv.NewAuthenticatedUser(name, nil)
	return ctx
}

// finish stores a task of user that ends with an artifact of n bytes.
func finish(t *testing.T, s *memStore, user, id string, n int) {
	t.Helper()
	ctx := asUser(user)
	task := &a2a.Task{ID: a2a.TaskID(id), ContextID: "c", Status: a2a.TaskStatus{State: a2a.TaskStateWorking}}
	v, err := s.Create(ctx, task)
	if err != nil {
		t.Fatal(err)
	}
	done := &a2a.Task{ID: task.ID, ContextID: "c", Status: a2a.TaskStatus{State: a2a.TaskStateCompleted},
		Artifacts: []*a2a.Artifact{{ID: "a", Parts: []*a2a.Part{a2a.NewTextPart(strings.Repeat("x", n))}}}}
	if _, err := s.Update(ctx, &taskstore.UpdateRequest{Task: done, PrevVersion: v}); err != nil {
		t.Fatal(err)
	}
}

func kept(s *memStore, user, id string) bool {
	_, err := s.Get(asUser(user), a2a.TaskID(id))
	return !errors.Is(err, a2a.ErrTaskNotFound)
}

// TestFinishedTasksBoundedByBytes: finished tasks are dropped, oldest first, once what they carry
// passes the bound in all, and a caller's own oldest once its tasks pass its bound: one caller's 24
// large answers cannot crowd memory (they took 700 MB), nor another caller's tasks out; the task
// that just finished stays.
func TestFinishedTasksBoundedByBytes(t *testing.T) {
	s := newMemStore(Limits{MaxFinishedBytes: 10_000, MaxFinishedBytesPerCaller: 4_000}.withDefaults())
	finish(t, s, "bob", "bob-1", 1_000)
	for i := range 6 {
		finish(t, s, "alice", fmt.Sprintf("alice-%d", i), 1_500)
	}
	for i, want := range []bool{false, false, false, false, true, true} { // 3,000 bytes kept: within 4,000
		if got := kept(s, "alice", fmt.Sprintf("alice-%d", i)); got != want {
			t.Errorf("alice's task %d kept %v, want %v", i, got, want)
		}
	}
	if !kept(s, "bob", "bob-1") {
		t.Error("alice's tasks dropped bob's")
	}
	finish(t, s, "carol", "carol-big", 9_000) // past the bound in all: the oldest go, whoever's
	if kept(s, "bob", "bob-1") || !kept(s, "carol", "carol-big") {
		t.Errorf("past the bound in all: bob's oldest kept %v, carol's new one kept %v", kept(s, "bob", "bob-1"), kept(s, "carol", "carol-big"))
	}
	if s.bytes > 10_000 {
		t.Errorf("%d bytes kept, over the bound", s.bytes)
	}
}
