package pgcluster

import (
	"context"

	"fmt"
	"github.com/a2aproject/a2a-go/v2/a2a"
	"strings"
	"sync"
	"testing"
)

// TestPushConfigsShared: a configuration put through one node's pool is read, listed (oldest
// first), replaced and deleted through another's, each task's apart; the bound per task holds
// when nodes put at once, and a replacement does not count against it.
func TestPushConfigsShared(t *testing.T) {
	p1, p2 := twoPools(t)
	a, b := &PushConfigs{pool: p1}, &PushConfigs{pool: p2}
	ctx := context.Background()
	put := func(s *PushConfigs, task, id, url string) bool {
		t.Helper()
		ok, err := s.PutPush(ctx, a2a.TaskID("task-"+task), id, []byte(`{"config":{"url":"`+url+`"}}`), 3)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	put(a, "1", "first", "https://hooks.example/1")
	put(a, "1", "second", "https://hooks.example/2")
	put(a, "2", "second", "https://hooks.example/other")
	if got, err := b.GetPush(ctx, "task-1", "first"); err != nil || !strings.Contains(string(got), "hooks.example/1") {
		t.Errorf("GetPush() on the other node = %s, %v", got, err)
	}
	put(b, "1", "second", "https://hooks.example/2b")
	list, err := a.ListPush(ctx, "task-1")
	if err != nil || len(list) != 2 || !strings.Contains(string(list[0]), "/1") || !strings.Contains(string(list[1]), "/2b") {
		t.Errorf("ListPush() = %q, %v; want the first, then the replaced second", list, err)
	}
	if err := b.DeletePush(ctx, "task-1", "first"); err != nil {
		t.Fatal(err)
	}
	if got, err := a.GetPush(ctx, "task-1", "first"); got != nil || err != nil {
		t.Errorf("GetPush() of a deleted configuration = %s, %v", got, err)
	}
	if err := a.DeletePush(ctx, "task-1", ""); err != nil {
		t.Fatal(err)
	}
	if list, _ := b.ListPush(ctx, "task-1"); len(list) != 0 {
		t.Errorf("after deleting all: %q", list)
	}
	if list, _ := b.ListPush(ctx, "task-2"); len(list) != 1 {
		t.Errorf("another task's configurations: %q", list)
	}
	// Twelve puts at once through both nodes, a bound of 3: three are kept.
	var wg sync.WaitGroup
	var mu sync.Mutex
	kept := 0
	for i := range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := a
			if i%2 == 1 {
				s = b
			}
			ok, err := s.PutPush(ctx, "task-3", fmt.Sprint("c", i), []byte(`{"config":{"url":"https://h.example/`+fmt.Sprint("c", i)+`"}}`), 3)
			if err != nil {
				t.Error(err)
			}
			mu.Lock()
			if ok {
				kept++
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	if list, _ := a.ListPush(ctx, "task-3"); kept != 3 || len(list) != 3 {
		t.Errorf("%d puts taken, %d kept; want 3", kept, len(list))
	}
	list, _ = a.ListPush(ctx, "task-3")
	_, rest, _ := strings.Cut(string(list[0]), "h.example/")
	keptID, _, _ := strings.Cut(rest, `"`)
	if put(a, "3", "c-new", "https://h.example/new") || !put(a, "3", keptID, "https://h.example/replaced") {
		t.Errorf("at the bound: a new one taken, or a replacement of %q refused", keptID)
	}
}
