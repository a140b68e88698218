package facade

import (
	"context"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// watchCancel follows, in cluster mode, the event queue of a task this process runs, for as long
// as one execution of it lasts: a CANCELED status there that this process did not yield came from
// another process, which took the task's CancelTask. The Port's Work is cancelled then, at once,
// whether or not the Work is producing anything. (Without the watch a quiet Work would learn of
// the cancel only when its next event found the task already over.) It returns the function that
// ends the watch.
func (e *executor) watchCancel(ctx context.Context, task a2a.TaskID, run *portRun) (stop func()) {
	if e.events == nil {
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	reader, err := e.events.CreateReader(ctx, task)
	if err != nil {
		cancel()
		return func() {} // the watch is an addition; the execution goes on without it
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			msg, err := reader.Read(ctx)
			if err != nil {
				return
			}
			if msg != nil && cancelled(msg.Event) {
				_, _ = e.port.Cancel(context.WithoutCancel(ctx), string(task), run.owner) // WORK_NOT_FOUND once it ended: nothing to do
				return
			}
		}
	}()
	return func() {
		cancel()
		_ = reader.Close() // the reader is ours alone; closing it cannot fail in a way that matters
		<-done
	}
}

// cancelled reports whether ev sets its task's state to CANCELED.
func cancelled(ev a2a.Event) bool {
	switch e := ev.(type) {
	case *a2a.TaskStatusUpdateEvent:
		return e.Status.State == a2a.TaskStateCanceled
	case *a2a.Task:
		return e.Status.State == a2a.TaskStateCanceled
	}
	return false
}
