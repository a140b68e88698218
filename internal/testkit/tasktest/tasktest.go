// Package tasktest waits on A2A tasks for tests, through a2a-go's client.
//
//	task := tasktest.Final(ctx, t, client, id) // polls GetTask until the task has ended
package tasktest

import (
	"context"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
)

// poll is how often Final asks.
const poll = 20 * time.Millisecond

// Final asks client for task id until it has ended, and returns it; ctx bounds the wait.
func Final(ctx context.Context, t testing.TB, client *a2aclient.Client, id a2a.TaskID) *a2a.Task {
	t.Helper()
	for {
		got, err := client.GetTask(ctx, &a2a.GetTaskRequest{ID: id})
		if err == nil && got.Status.State.Terminal() {
			return got
		}
		select {
		case <-ctx.Done():
			t.Fatalf("task %s never ended (last %+v, %v)", id, got, err)
		case <-time.After(poll):
		}
	}
}
