package a2aclient

import (
	"context"
	"errors"
	"sync"

	"github.com/a2aport/a2aport"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// run is one active Work. Its goroutine is the Submit caller's; other calls (Status, Cancel,
// RespondInput) reach it through the fields guarded by mu.
type run struct {
	a       *Adapter
	work    a2aport.Work
	parts   []*a2a.Part // the Work's input, projected once
	onEvent func(a2aport.Event)
	ctx     context.Context
	cancel  context.CancelCauseFunc

	mu           sync.Mutex
	state        a2aport.WorkState
	remoteTask   a2a.TaskID
	contextID    string
	stopped      error         // set once by stop or finish: the run's fate is decided
	remoteCancel bool          // the agent was already asked to cancel
	cancelText   string        // what the agent said when it confirmed that cancel
	sent         bool          // the Work's message is (or was) on its way to the agent
	taskKnown    chan struct{} // closed when the agent's answer first names the remote task
	push         *pushWait     // the Work waits for the agent's pushes (push.go); nil: it streams or polls
	pushRefused  bool          // the agent refused the Work's push configuration: it polls
	pending      *a2aport.InputRequest
	lastAnswered *a2aport.InputRequest
	answer       a2aport.InputResponse
	answered     chan struct{} // closed when the pending request is answered
	answeredIDs  map[string]bool
	inputSeq     int
	done         chan struct{} // closed when Submit returns

	// Only the run's goroutine touches these.
	out            *outcomeBuilder
	lease          *lease
	lastActivity   a2aport.Event      // the last activity the agent caused (never a reconnection notice)
	recovering     bool               // a break was announced (reconnecting) and the agent has not answered since
	progress       progress           // what the streams delivered, for their probes (probe.go)
	answeredStatus string             // statusKey of the last input request, to skip stale snapshots of it
	recorded       a2aport.WorkRecord // what the WorkStore has of this Work
	ended          a2aport.WorkState  // how the Work ended (completed, failed, rejected, cancelled), once it has
}

// Submit implements Port.
func (a *Adapter) Submit(ctx context.Context, work a2aport.Work, opts ...a2aport.SubmitOption) (a2aport.Outcome, error) {
	parts, err := projectWork(work)
	if err != nil {
		return a2aport.Outcome{}, err
	}
	return a.run(ctx, work, parts, opts, nil, (*run).execute)
}

// Resume implements Port: it re-attaches to a Work that a previous adapter (a page before its
// reload, a process before its restart) left running, from its WorkStore record, and settles it
// as Submit would have. Nothing is sent again: the task is followed (resubscribed, else polled),
// its snapshot shows what the agent has, and an open question can be answered.
func (a *Adapter) Resume(ctx context.Context, workID, ownerID string, opts ...a2aport.SubmitOption) (a2aport.Outcome, error) {
	if a.isClosed() {
		return a2aport.Outcome{}, ClosedError()
	}
	if a.s.WorkStore == nil {
		return a2aport.Outcome{}, newError(a2aport.CodeWorkNotFound, "work %q: nothing to resume without a WorkStore", workID)
	}
	rec, ok, err := a.s.WorkStore.Get(ctx, workID)
	if err != nil {
		return a2aport.Outcome{}, a.wrap(a2aport.CodeInternal, "reading the WorkStore failed", err)
	}
	if !ok || rec.OwnerID != ownerID || ownerID == "" {
		return a2aport.Outcome{}, newError(a2aport.CodeWorkNotFound, "work %q is not recorded for this owner", workID)
	}
	if rec.RemoteTaskID == "" {
		// Its process stopped while the message was on its way: this is the Work's one outcome.
		_ = a.s.WorkStore.Delete(ctx, workID) // best-effort, as every record write
		return a2aport.Outcome{}, newError(a2aport.CodeOutcomeUnknown, "work %q: its message was on its way when the frontend that sent it stopped, and no answer named its task: whether the agent received it is not known (it was not sent again)", workID)
	}
	return a.run(ctx, a2aport.Work{ID: workID, OwnerID: ownerID}, nil, opts, func(r *run) {
		// The message left with the process that recorded the Work: a Detach leaves it recorded.
		// Known before the run is: a Cancel that finds it asks the agent about its task.
		r.remoteTask, r.contextID, r.state, r.recorded, r.sent = a2a.TaskID(rec.RemoteTaskID), rec.RemoteContextID, rec.State, rec, true
		close(r.taskKnown)
	}, (*run).resume)
}

// run registers a run of work (set up by prepare, when given, before anyone can find it), has body
// produce its outcome and settles it.
func (a *Adapter) run(ctx context.Context, work a2aport.Work, parts []*a2a.Part, opts []a2aport.SubmitOption, prepare func(*run), body func(*run) (a2aport.Outcome, error)) (a2aport.Outcome, error) {
	cfg := a2aport.ApplySubmitOptions(opts...)
	if cfg.Traceparent != "" && !validTraceparent(cfg.Traceparent) {
		return a2aport.Outcome{}, newError(a2aport.CodeInvalidWork, "work %q: traceparent %q is not a W3C trace context (00-<32 hex>-<16 hex>-<2 hex>)", work.ID, cfg.Traceparent)
	}
	ctx = withTraceparent(ctx, cfg.Traceparent)
	r := &run{a: a, work: work, parts: parts, onEvent: cfg.OnEvent, state: a2aport.StateSubmitted,
		answeredIDs: map[string]bool{}, done: make(chan struct{}), taskKnown: make(chan struct{}), out: newOutcomeBuilder(contentPieces(ctx))}
	r.ctx, r.cancel = context.WithCancelCause(ctx)
	if prepare != nil {
		prepare(r)
	}
	a.mu.Lock()
	switch _, dup := a.runs[work.ID]; {
	case a.closed:
		a.mu.Unlock()
		return a2aport.Outcome{}, ClosedError()
	case dup:
		a.mu.Unlock()
		return a2aport.Outcome{}, newError(a2aport.CodeWorkAlreadyActive, "work %q is already active", work.ID)
	}
	a.runs[work.ID] = r
	a.mu.Unlock()
	defer func() {
		a.mu.Lock()
		delete(a.runs, work.ID)
		a.mu.Unlock()
		r.cancel(context.Canceled)
		close(r.done)
	}()
	if a.s.Timeout > 0 {
		timer := a.s.Clock.AfterFunc(a.s.Timeout, r.timeOut)
		defer timer.Stop()
	}

	out, err := body(r)
	out, err = r.finish(out, err)
	if !errors.Is(err, a2aport.ErrWorkDetached) {
		r.forget()
	}
	return out, err
}

// sentMessage reports whether the Work's message is (or was) on its way to the agent.
func (r *run) sentMessage() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.sent
}

// finish decides the run's one outcome. A Cancel or Close that came first wins over whatever the
// run produced meanwhile, so the caller of Cancel and the caller of Submit agree.
func (r *run) finish(out a2aport.Outcome, err error) (a2aport.Outcome, error) {
	r.mu.Lock()
	stopped := r.stopped
	if stopped == nil {
		if err != nil {
			r.stopped = err
		} else {
			r.stopped = errFinished
		}
	}
	askedRemote := r.remoteCancel
	r.mu.Unlock()
	detached := errors.Is(stopped, errDetached)
	cancelled := false // the agent confirmed that its task is cancelled
	var ended *endedAtAgent
	switch {
	case errors.As(stopped, &ended): // the agent refused a cancel: its task had ended otherwise
		var next turnNext
		if next, out, err = r.apply(ended.task); next != turnDone && err == nil {
			err = newError(a2aport.CodeInvalidResponse, "the agent refused to cancel a task it has not ended")
		}
	case stopped != nil:
		err = r.withCancelText(r.a.ctxError(r.ctx))
		if !askedRemote && !detached {
			cancelled = r.cancelRemote(context.Background())
		}
	case err != nil && (r.ctx.Err() != nil || r.lostTrack(err)):
		// The caller's context ended, or the task was lost: stop the remote task too.
		cancelled = r.cancelRemote(context.Background())
	}
	if detached && r.sentMessage() {
		return a2aport.Outcome{}, err // nothing changed for the Work: no final event, the record stays
	}
	if detached { // nothing was sent: nothing to resume, the adapter is simply closed
		err = newError(a2aport.CodeAdapterClosed, "the adapter was detached before the Work's message left: there is nothing to resume")
	}
	if err != nil {
		err = r.fate(err, cancelled)
		r.setEnded(endState(err))
		r.emitFinal(err)
		return a2aport.Outcome{}, err
	}
	r.setEnded(a2aport.StateCompleted)
	r.emit(a2aport.Event{Type: a2aport.EventActivity, State: a2aport.StateCompleted, Text: r.out.status})
	return out, nil
}

// withCancelText gives a WORK_CANCELLED the text with which the agent confirmed the cancel.
func (r *run) withCancelText(e *a2aport.Error) *a2aport.Error {
	r.mu.Lock()
	text := r.cancelText
	r.mu.Unlock()
	if e.Code == a2aport.CodeWorkCancelled && text != "" {
		e.AgentText = r.a.redact(text)
	}
	return e
}

func (r *run) setEnded(state a2aport.WorkState) {
	r.mu.Lock()
	r.ended = state
	r.mu.Unlock()
}

func (r *run) isStopped() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stopped != nil
}

var errFinished = errors.New("finished")

// stop ends the run with cause unless its outcome is already decided. It reports whether it did.
func (r *run) stop(cause error) bool {
	r.mu.Lock()
	if r.stopped != nil {
		r.mu.Unlock()
		return false
	}
	r.stopped = cause
	var ended *endedAtAgent
	if !errors.Is(cause, errDetached) && !errors.As(cause, &ended) {
		r.state = a2aport.StateCancelled
	}
	r.mu.Unlock()
	r.cancel(cause)
	return true
}

func (r *run) currentState() a2aport.WorkState {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopped != nil {
		return a2aport.StateNotFound
	}
	return r.state
}

// cancelRemote asks the agent to cancel the remote task, best-effort and bounded, and reports
// whether the agent confirmed it (answered with the task cancelled): only then can the Work be
// submitted again without doing it twice (fate.go).
func (r *run) cancelRemote(parent context.Context) bool {
	r.mu.Lock()
	task := r.remoteTask
	r.remoteCancel = r.remoteCancel || task != ""
	r.mu.Unlock()
	conn := r.a.connection()
	if task == "" || conn == nil {
		return false
	}
	ctx, cancel := withTimeout(context.WithoutCancel(parent), r.a.s.Clock, min(r.a.s.RequestTimeout, closeGrace), errRequestTimeout)
	defer cancel()
	got, _, err := r.cancelAtAgent(ctx, conn, task) // best-effort by contract
	return err == nil && got != nil && got.Status.State == a2a.TaskStateCanceled
}

// timeOut ends the Work at its Timeout. As for Cancel, a message on its way first gets up to
// taskGrace for an answer that names its task, so that the task can be cancelled.
func (r *run) timeOut() {
	r.awaitTask()
	r.stop(errWorkTimeout)
}

// emitFinal reports the terminal state of a failed run as activity, in the agent's own words
// when its task ended the Work, else in the error's.
func (r *run) emitFinal(err error) {
	text := err.Error()
	if e := (*a2aport.Error)(nil); errors.As(err, &e) && e.AgentText != "" {
		text = e.AgentText
	}
	r.emit(a2aport.Event{Type: a2aport.EventActivity, State: endState(err), Text: text})
}

// endState is the terminal state of a Work that failed with err.
func endState(err error) a2aport.WorkState {
	switch a2aport.CodeOf(err) {
	case a2aport.CodeWorkCancelled, a2aport.CodeAdapterClosed, a2aport.CodeInputUnanswered:
		return a2aport.StateCancelled
	case a2aport.CodeTaskRejected:
		return a2aport.StateRejected
	}
	return a2aport.StateFailed
}
