package facade

import (
	"context"
	"errors"
	"iter"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
	"github.com/a2aproject/a2a-go/v2/a2asrv/taskstore"
)

// A task that asked a question has no execution until the caller answers it, and a2a-go's server
// (in one process) subscribes only to a running execution: a client that reconnects to such a
// task was told "task not found". The facade serves it: the task as it is, then, once the answer
// starts the next execution, that execution's events; a task that moved on meanwhile (answered
// and finished, or asking again) is shown as it is now.

// waitingPoll is how often a subscription to a waiting task looks whether it moved on.
const waitingPoll = 100 * time.Millisecond

// subscriptions is a2asrv's request handler, with SubscribeToTask serving waiting tasks.
type subscriptions struct {
	a2asrv.RequestHandler
	tasks taskstore.Store
}

// SubscribeToTask implements a2asrv.RequestHandler.
func (s subscriptions) SubscribeToTask(ctx context.Context, req *a2a.SubscribeToTaskRequest) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		var shown string // the status last yielded
		for {
			first, onlyAsked := true, true
			for ev, err := range s.RequestHandler.SubscribeToTask(ctx, req) {
				if first && req != nil && (errors.Is(err, a2a.ErrTaskNotFound) || (err != nil && shown != "")) {
					break // no execution: the task may be waiting, or have ended since it was (below)
				}
				first = false
				if status := statusOf(ev); status != nil && asks(status.State) {
					shown = statusKeyOf(status)
				} else {
					onlyAsked = false
				}
				if !yield(ev, err) {
					return
				}
			}
			if !first && !onlyAsked {
				return // the execution's events were followed to their end
			}
			// The subscription joined the turn that asked as it ended, and saw nothing but the
			// question: the answer's execution follows, waited for as for any waiting task.
			task, err := s.waiting(ctx, req.ID)
			switch {
			case err != nil:
				yield(nil, err)
				return
			case task == nil && shown == "": // not waiting: as a2a-go said
				yield(nil, errTaskNotFound)
				return
			case task == nil: // answered since: its execution runs, subscribed to below
			case statusKey(task) != shown:
				shown = statusKey(task)
				if !yield(task, nil) || task.Status.State.Terminal() {
					return
				}
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(waitingPoll):
			}
		}
	}
}

// waiting is the task id as its caller sees it when it waits for an answer or has just ended (an
// answer finished it between two looks), else nil.
func (s subscriptions) waiting(ctx context.Context, id a2a.TaskID) (*a2a.Task, error) {
	stored, err := s.tasks.Get(asCaller(ctx), id)
	if errors.Is(err, a2a.ErrTaskNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if t := stored.Task; asks(t.Status.State) || t.Status.State.Terminal() {
		return t, nil
	}
	return nil, nil
}

// asks tells the states in which a task waits for its caller.
func asks(state a2a.TaskState) bool {
	return state == a2a.TaskStateInputRequired || state == a2a.TaskStateAuthRequired
}

// statusKey tells one status of a task from another.
func statusKey(t *a2a.Task) string { return statusKeyOf(&t.Status) }

func statusKeyOf(status *a2a.TaskStatus) string {
	key := string(status.State)
	if status.Message != nil {
		key += "/" + status.Message.ID
	}
	return key
}

// statusOf is the task status an event carries, nil for a message or an artifact.
func statusOf(ev a2a.Event) *a2a.TaskStatus {
	switch e := ev.(type) {
	case *a2a.Task:
		return &e.Status
	case *a2a.TaskStatusUpdateEvent:
		return &e.Status
	}
	return nil
}
