package pgcluster

import (
	"context"
	"errors"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv/push"
)

var _ push.ConfigStore = (*PushConfigs)(nil)

// TestPushConfigsShared: a configuration saved through one node's pool is read, listed, replaced
// and deleted through another's, each task's apart; a configuration without a URL, or with one
// that is not a URL, is invalid params.
func TestPushConfigsShared(t *testing.T) {
	p1, p2 := twoPools(t)
	a, b := &PushConfigs{pool: p1}, &PushConfigs{pool: p2}
	ctx := context.Background()
	first, err := a.Save(ctx, "task-1", &a2a.PushConfig{URL: "https://hooks.example/1", Token: "tok-1"})
	if err != nil || first.ID == "" || first.TaskID != "task-1" {
		t.Fatalf("Save() = %+v, %v", first, err)
	}
	if _, err := a.Save(ctx, "task-1", &a2a.PushConfig{ID: "second", URL: "https://hooks.example/2"}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Save(ctx, "task-2", &a2a.PushConfig{ID: "second", URL: "https://hooks.example/other"}); err != nil {
		t.Fatal(err)
	}
	got, err := b.Get(ctx, "task-1", first.ID)
	if err != nil || got.URL != "https://hooks.example/1" || got.Token != "tok-1" {
		t.Errorf("Get() on the other node = %+v, %v", got, err)
	}
	if _, err := b.Save(ctx, "task-1", &a2a.PushConfig{ID: "second", URL: "https://hooks.example/2b"}); err != nil {
		t.Fatal(err)
	}
	list, err := a.List(ctx, "task-1")
	if err != nil || len(list) != 2 || list[0].ID != first.ID || list[1].URL != "https://hooks.example/2b" {
		t.Errorf("List() = %+v, %v; want the first, then the replaced second", list, err)
	}
	if err := b.Delete(ctx, "task-1", first.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Get(ctx, "task-1", first.ID); !errors.Is(err, push.ErrPushConfigNotFound) {
		t.Errorf("Get() of a deleted configuration = %v", err)
	}
	if err := a.DeleteAll(ctx, "task-1"); err != nil {
		t.Fatal(err)
	}
	if list, _ := b.List(ctx, "task-1"); len(list) != 0 {
		t.Errorf("after DeleteAll: %+v", list)
	}
	if list, _ := b.List(ctx, "task-2"); len(list) != 1 || list[0].URL != "https://hooks.example/other" {
		t.Errorf("another task's configurations: %+v", list)
	}
	for _, bad := range []*a2a.PushConfig{nil, {}, {URL: "not a url"}} {
		if _, err := a.Save(ctx, "task-3", bad); !errors.Is(err, a2a.ErrInvalidParams) {
			t.Errorf("Save(%+v) = %v, want invalid params", bad, err)
		}
	}
}
