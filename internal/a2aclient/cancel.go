package a2aclient

import (
	"context"
	"errors"
	"time"

	"github.com/a2aport/a2aport"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/a2aport/a2aport/internal/park"
)

// Cancel implements Port.
func (a *Adapter) Cancel(ctx context.Context, workID, ownerID string) (a2aport.CancelResult, error) {
	a.mu.Lock()
	r, ok := a.runs[workID]
	a.mu.Unlock()
	if !ok {
		return a2aport.CancelResult{State: a2aport.StateNotFound}, nil
	}
	if r.work.OwnerID != ownerID {
		return a2aport.CancelResult{}, newError(a2aport.CodeWorkNotFound, "work %q is not active for this owner", workID)
	}
	return a.cancelRun(ctx, r)
}

// cancelRun cancels the Work: once the agent has named its task, the agent is asked first, and
// only its answer says what became of the Work. A task it cancelled, or could not be asked about,
// ends the Work WORK_CANCELLED; one it refused to cancel because the task had already ended
// (completed, failed, rejected) ends the Work as the task did, and the result says so; one it
// refuses while the task is still ending goes on and settles as the task does (the result: how it
// ended, or the state it is still in). Nothing is reported cancelled that the agent did not
// cancel. When the message is on its way and no answer
// has named the task yet, the answer first gets up to taskGrace to arrive: aborted at once, the
// run would never learn the task, and the agent, which may well have the message, would run it
// on. A message that never left is aborted at once.
func (a *Adapter) cancelRun(ctx context.Context, r *run) (a2aport.CancelResult, error) {
	r.awaitTask()
	if r.isStopped() { // it ended meanwhile, or another call is ending it
		return a2aport.CancelResult{State: a2aport.StateNotFound}, nil
	}
	if r.remoteTaskID() != "" {
		switch ended, refused := r.askCancel(ctx); {
		case ended != nil:
			if r.stop(&endedAtAgent{task: ended}) {
				return a2aport.CancelResult{WorkID: r.work.ID, State: workState(ended.Status.State)}, nil
			}
			return r.settledState(), nil
		case refused:
			// The agent will not cancel a task it is still ending: the Work goes on, and settles
			// as the task does (most often at once).
			return r.settledState(), nil
		}
	}
	if !r.stop(errCancelled) { // the run ended on its own while the agent was asked
		return r.settledState(), nil
	}
	return a2aport.CancelResult{WorkID: r.work.ID, State: a2aport.StateCancelled}, nil
}

// endedAtAgent stops a run whose cancel the agent refused because its task had already ended:
// finish settles the Work from the task as the agent has it.
type endedAtAgent struct{ task *a2a.Task }

func (e *endedAtAgent) Error() string { return "the task ended before it could be cancelled" }

// askCancel asks the agent to cancel the Work's task (bounded). ended is the task when the agent
// refused because the task had ended otherwise (completed, failed, rejected): as the agent's
// answer or, after a refusal, a GetTask shows it. refused says the agent refused a task that has
// not ended (TaskNotCancelableError). Neither (cancelled, no answer, another error): the Work ends
// cancelled.
func (r *run) askCancel(parent context.Context) (ended *a2a.Task, refused bool) {
	r.mu.Lock()
	task := r.remoteTask
	r.remoteCancel = true
	r.mu.Unlock()
	ctx, cancel := withTimeout(context.WithoutCancel(parent), r.a.s.Clock, min(r.a.s.RequestTimeout, closeGrace), errRequestTimeout)
	defer cancel()
	conn, err := r.a.connect(ctx) // a Work resumed a moment ago may not have discovered its agent yet
	if err != nil {
		return nil, false
	}
	got, refused, err := r.cancelAtAgent(ctx, conn, task)
	if err == nil && got != nil && got.Status.State == a2a.TaskStateCanceled {
		r.mu.Lock()
		r.cancelText = messageText(got.Status.Message) // the agent's own word on it, for Error.AgentText
		r.mu.Unlock()
	}
	if err != nil || got == nil || !got.Status.State.Terminal() || got.Status.State == a2a.TaskStateCanceled {
		return nil, refused && err == nil && got != nil && !got.Status.State.Terminal()
	}
	return got, false
}

// cancelAtAgent asks the agent to cancel task: got is its answer or, when it refused (refused says
// it refused with TaskNotCancelableError), the task as GetTask shows it. A question is not an end:
// an agent that refuses to cancel a task waiting for input does so for a moment only (a2a-go's
// server holds the turn briefly after it stores INPUT_REQUIRED), and the task would otherwise wait
// for an answer nobody gives, so it is asked again, bounded. Every cancel of a remote task, the
// caller's and the adapter's own (timeout, close, a lost context), goes through here.
func (r *run) cancelAtAgent(ctx context.Context, conn *connection, task a2a.TaskID) (got *a2a.Task, refused bool, err error) {
	for attempt := 1; ; attempt++ {
		got, err = conn.client.CancelTask(ctx, &a2a.CancelTaskRequest{ID: task})
		refused = errors.Is(err, a2a.ErrTaskNotCancelable)
		failed := err != nil
		if failed && ctx.Err() == nil {
			// TaskNotCancelableError, as A2A says, or whatever error an agent gives instead (a2a-go's
			// 0.3 HTTP+JSON server: "server error"): the task tells whether it had ended.
			got, err = conn.client.GetTask(ctx, &a2a.GetTaskRequest{ID: task})
		}
		if !failed || err != nil || got == nil || !interrupted(got.Status.State) || attempt == cancelAttempts ||
			sleep(ctx, r.a.s.Clock, time.Duration(attempt)*cancelRetryWait) != nil {
			return got, refused, err
		}
	}
}

// settledState is how a run ended that another cause is ending, or that goes on because the agent
// refused its cancel: waited for (bounded), then its end, or the state it is still in.
func (r *run) settledState() a2aport.CancelResult {
	ctx, cancel := withTimeout(context.Background(), r.a.s.Clock, closeGrace, errRequestTimeout)
	defer cancel()
	_ = park.Wait(ctx, r.done) // an end of the wait for any reason: report what is known now
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case r.ended != "":
		return a2aport.CancelResult{WorkID: r.work.ID, State: r.ended}
	case r.stopped == nil:
		return a2aport.CancelResult{WorkID: r.work.ID, State: r.state}
	}
	return a2aport.CancelResult{State: a2aport.StateNotFound}
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

// cancelAttempts and cancelRetryWait bound the cancels of a task that waits for input, which an
// agent may refuse for a moment (cancelAtAgent): 50, 100, 150 ... ms apart.
const (
	cancelAttempts  = 6
	cancelRetryWait = 50 * time.Millisecond
)

// interrupted says the task waits for the caller (input or authorization), which is not an end.
func interrupted(s a2a.TaskState) bool {
	return s == a2a.TaskStateInputRequired || s == a2a.TaskStateAuthRequired
}
