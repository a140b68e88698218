package adapter

import (
	"context"
	"time"

	"github.com/a2aport/a2aport/internal/park"
)

// Cancel implements Port.
func (a *Adapter) Cancel(ctx context.Context, workID, ownerID string) (CancelResult, error) {
	a.mu.Lock()
	r, ok := a.runs[workID]
	a.mu.Unlock()
	if !ok {
		return CancelResult{State: StateNotFound}, nil
	}
	if r.work.OwnerID != ownerID {
		return CancelResult{}, newError(CodeWorkNotFound, "work %q is not active for this owner", workID)
	}
	return a.cancelRun(ctx, r)
}

// cancelRun aborts the run locally, then asks the agent to cancel the remote task. When the
// message is on its way and no answer has named the task yet, it first gives the answer up to
// taskGrace to arrive: aborted at once, the run would never learn the task, and the agent, which
// may well have the message, would run it on. A message that never left is aborted at once.
func (a *Adapter) cancelRun(ctx context.Context, r *run) (CancelResult, error) {
	r.awaitTask()
	if !r.stop(errCancelled) {
		return CancelResult{State: StateNotFound}, nil
	}
	r.cancelRemote(ctx)
	return CancelResult{TaskID: r.work.ID, State: StateCancelled}, nil
}

// taskGrace bounds how long a Cancel waits for the agent's answer to name the task.
const taskGrace = 2 * time.Second

// markSent records that the Work's message is leaving for the agent, in the WorkStore too: a
// process that stops before any answer names the task leaves a record that says so.
func (r *run) markSent() {
	r.mu.Lock()
	r.sent = true
	r.mu.Unlock()
	r.record()
}

// awaitTask waits, while the message may have reached the agent and no answer named its task,
// until one does, the run ends, or taskGrace (at most RequestTimeout) passes.
func (r *run) awaitTask() {
	if !r.awaitingTask() {
		return
	}
	ctx, cancel := withTimeout(r.ctx, r.a.s.Clock, min(taskGrace, r.a.s.RequestTimeout), errRequestTimeout)
	defer cancel()
	_ = park.Wait(ctx, r.taskKnown) // an end of the wait for any reason is the signal to cancel now
}

// awaitingTask reports whether the run's message may have reached the agent and no answer has
// named its task yet.
func (r *run) awaitingTask() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.sent && r.remoteTask == "" && r.stopped == nil
}

// awaitTasks is awaitTask for many runs at once (Close, Detach): all within one taskGrace.
func (a *Adapter) awaitTasks(runs []*run) {
	ctx, cancel := withTimeout(a.closing, a.s.Clock, min(taskGrace, a.s.RequestTimeout), errRequestTimeout)
	defer cancel()
	for _, r := range runs {
		if r.awaitingTask() {
			_ = park.Wait(ctx, r.taskKnown) // the shared grace bounds them all
		}
	}
}
