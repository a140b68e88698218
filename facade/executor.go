package facade

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"strings"
	"sync"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
	"github.com/a2aproject/a2a-go/v2/a2asrv/eventqueue"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/internal/owner"
)

// executor runs each A2A task as one Work of the Port. A Work outlives the A2A executions of its
// task: one ends when the Work asks for input (INPUT_REQUIRED), and the caller's next message on
// the task starts another that answers it and follows the same Work on.
type executor struct {
	port         a2aport.Port
	messageOnly  bool
	admit        func(*a2a.Message, a2aport.Work) error // Options.Admit
	maxTaskBytes int                                    // what one task's events may carry (Limits.MaxTaskBytes; < 0: no limit)
	// events are the cluster's event queues (nil: one process). A task this process runs is
	// watched there for a cancel that another process carried out (cancelwatch.go).
	events eventqueue.Manager
	mu     sync.Mutex
	runs   map[a2a.TaskID]*portRun
}

func newExecutor(port a2aport.Port) *executor {
	return &executor{port: port, runs: map[a2a.TaskID]*portRun{}}
}

// ownerOf is the Port owner of a task: the caller and the conversation, so that continuity stays
// within one caller's context and callers never share one. The caller's name goes first with its
// length, so no caller and context can spell another pair ("acme" + "alice/c1" is not
// "acme/alice" + "c1").
func ownerOf(ec *a2asrv.ExecutorContext) string {
	return owner.Of(callerOf(ec), ec.ContextID)
}

// callerOf is the caller an execution runs for.
func callerOf(ec *a2asrv.ExecutorContext) string {
	if ec.User == nil {
		return ""
	}
	return ec.User.Name
}

// activeFor counts the Works that run for caller in this process.
func (e *executor) activeFor(caller string) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	n := 0
	for _, run := range e.runs {
		if run.caller == caller {
			n++
		}
	}
	return n
}

// Execute implements a2asrv.AgentExecutor.
func (e *executor) Execute(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		e.mu.Lock()
		run := e.runs[ec.TaskID]
		e.mu.Unlock()
		switch {
		case run == nil && ec.StoredTask == nil:
			work, err := workOf(ec, e.port.Describe().Capabilities.InputModes)
			if err == nil && e.admit != nil {
				err = e.admit(ec.Message, work)
			}
			if err != nil {
				yield(nil, err)
				return
			}
			if e.messageOnly {
				yield(e.reply(ctx, ec, work))
				return
			}
			run = e.start(ec, work, traceparentOf(ec))
			if e.port.Describe().Capabilities.MessageReplies {
				// The agent behind may answer with a message and make no task: the answer waits
				// for the Work's first sign of a task, or its end.
				reply, err := run.messageReply(ctx)
				if err != nil { // the caller left before the agent answered
					e.forget(ec.TaskID)
					_, _ = e.port.Cancel(context.WithoutCancel(ctx), work.ID, work.OwnerID)
					return
				}
				if reply != nil { // the agent made no task: neither does the facade
					e.forget(ec.TaskID)
					yield(messageOf(ec, *reply), nil)
					return
				}
			}
			task := a2a.NewSubmittedTask(ec, ec.Message)
			if e.foldable(ec) { // the task is yielded with what the Work did before it would wait
				e.follow(ctx, ec, run, &emitter{yield: yield, first: task})
				return
			}
			if !yield(task, nil) {
				return
			}
		case run == nil:
			// In cluster mode the task was started by another process: one that died (its work
			// came back after the lease) or one that handed on the answer to a question. The
			// Port re-attaches to the Work (a2aport.Port.Resume, with a WorkStore the processes
			// share); a Port that cannot ends the task failed, saying so.
			run = e.resume(ec)
		default:
			if err := e.answer(ctx, ec, run); err != nil {
				yield(nil, err)
				return
			}
		}
		e.follow(ctx, ec, run, &emitter{yield: yield})
	}
}

// start submits work to the Port; its events queue up for the executions of the task.
func (e *executor) start(ec *a2asrv.ExecutorContext, work a2aport.Work, traceparent string) *portRun {
	run := &portRun{workID: work.ID, owner: work.OwnerID, caller: callerOf(ec), wake: make(chan struct{})}
	e.mu.Lock()
	e.runs[ec.TaskID] = run
	e.mu.Unlock()
	go func() {
		opts := []a2aport.SubmitOption{a2aport.OnEvent(run.push)}
		if traceparent != "" {
			opts = append(opts, a2aport.Traceparent(traceparent))
		}
		out, err := e.port.Submit(context.Background(), work, opts...)
		run.end(out, err)
	}()
	return run
}

// resume re-attaches the Port to the Work of a task this process did not start.
func (e *executor) resume(ec *a2asrv.ExecutorContext) *portRun {
	run := &portRun{workID: string(ec.TaskID), owner: ownerOf(ec), caller: callerOf(ec), wake: make(chan struct{})}
	if t := ec.StoredTask; t != nil && ec.Message != nil &&
		(t.Status.State == a2a.TaskStateInputRequired || t.Status.State == a2a.TaskStateAuthRequired) {
		run.answer = ec.Message
	}
	e.mu.Lock()
	e.runs[ec.TaskID] = run
	e.mu.Unlock()
	go func() {
		opts := []a2aport.SubmitOption{a2aport.OnEvent(run.push)}
		if traceparent := traceparentOf(ec); traceparent != "" { // the request this execution serves
			opts = append(opts, a2aport.Traceparent(traceparent))
		}
		out, err := e.port.Resume(context.Background(), string(ec.TaskID), run.owner, opts...)
		run.end(out, err)
	}()
	return run
}

// answer gives the caller's message to the question the Work waits on.
func (e *executor) answer(ctx context.Context, ec *a2asrv.ExecutorContext, run *portRun) error {
	run.mu.Lock()
	pending := run.pending
	run.pending = nil
	run.mu.Unlock()
	if pending == nil {
		return a2a.ErrUnsupportedOperation // the task is not waiting for input
	}
	return e.respond(ctx, ec.Message, *pending, run)
}

// respond answers req with the text of msg.
func (e *executor) respond(ctx context.Context, msg *a2a.Message, pending a2aport.InputRequest, run *portRun) error {
	text, _ := split(msg)
	resp := a2aport.InputResponse{Text: text}
	if pending.Kind == a2aport.InputKindAuthorization {
		resp.Action = a2aport.ActionAccept
		if a := strings.ToLower(strings.TrimSpace(text)); a == a2aport.ActionDecline || a == a2aport.ActionCancel {
			resp.Action = a
		}
	}
	return e.port.RespondInput(ctx, run.workID, run.owner, pending.InputRequestID, resp)
}

// follow yields the Work's events as A2A events until it asks for input or ends.
func (e *executor) follow(ctx context.Context, ec *a2asrv.ExecutorContext, run *portRun, em *emitter) {
	// abandon stops the Work when its execution ends without it: cancelled by our Cancel (a2asrv
	// has delivered the outcome), or abandoned (shutdown, another process cancelled the task, the
	// events no longer taken). Cancel finds nothing when the Work is already over.
	abandon := func() { _, _ = e.port.Cancel(context.WithoutCancel(ctx), string(ec.TaskID), run.owner) }
	stopWatch := e.watchCancel(ctx, ec.TaskID, run)
	defer stopWatch()
	for {
		ev, ended, err := run.next(ctx, em.idle())
		if err != nil {
			abandon()
			return
		}
		if ended {
			e.mu.Lock()
			delete(e.runs, ec.TaskID)
			e.mu.Unlock()
			run.mu.Lock()
			cancelling := run.cancelling
			run.mu.Unlock()
			if cancelling && errors.Is(run.err, a2aport.ErrWorkCancelled) {
				em.flush()
				<-ctx.Done() // a2asrv delivers Cancel's CANCELED status, then ends this execution
				return
			}
			if errors.Is(run.err, a2aport.ErrWorkDetached) {
				// The Port was detached (a node of a cluster stopping): the Work goes on at the
				// agent and another process resumes it once this one's lease ends. Writing an
				// outcome here would end the task for all of them.
				em.flush()
				<-ctx.Done()
				return
			}
			if run.err == nil {
				for _, ev := range run.unshown(ec, run.out) {
					if !em.emit(ev, nil) {
						return
					}
				}
			}
			em.emit(finalStatus(ec, run.out, run.err), nil)
			em.flush()
			return
		}
		if ev.Type == a2aport.EventInputRequested && ev.Input != nil {
			req := *ev.Input
			run.mu.Lock()
			answer := run.answer
			run.answer = nil
			run.mu.Unlock()
			if answer != nil { // the message this execution carries answers it
				if err := e.respond(ctx, answer, req, run); err != nil {
					em.emit(nil, err)
					return
				}
				continue
			}
			run.mu.Lock()
			run.pending = &req
			run.mu.Unlock()
			state := a2a.TaskStateInputRequired
			if req.Kind == a2aport.InputKindAuthorization {
				state = a2a.TaskStateAuthRequired
			}
			em.emit(a2a.NewStatusUpdateEvent(ec, state, agentMessage(ec, req.Prompt)), nil)
			em.flush()
			return
		}
		run.show(ev)
		if run.bytes += eventBytes(ev); e.maxTaskBytes >= 0 && run.bytes > e.maxTaskBytes {
			abandon()
			e.mu.Lock()
			delete(e.runs, ec.TaskID)
			e.mu.Unlock()
			em.emit(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateFailed, agentMessage(ec,
				fmt.Sprintf("the task passed its limit of %d bytes (MaxTaskBytes): its Work was cancelled", e.maxTaskBytes))), nil)
			em.flush()
			return
		}
		if out := translate(ec, ev); out != nil && !em.emit(out, nil) {
			abandon()
			return
		}
	}
}

// Cancel implements a2asrv.AgentExecutor.
func (e *executor) Cancel(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		e.mu.Lock()
		run := e.runs[ec.TaskID]
		e.mu.Unlock()
		if run == nil {
			if res := e.cancelElsewhere(ctx, ec); refused(res.State) {
				yield(nil, notCancelable(res.State)) // the node that runs the Work writes how it ended
				return
			}
		} else {
			run.mu.Lock()
			run.cancelling = true
			waiting := run.pending != nil // no execution follows the task
			run.mu.Unlock()
			res, err := e.port.Cancel(ctx, string(ec.TaskID), run.owner)
			if err != nil {
				yield(nil, err)
				return
			}
			if refused(res.State) { // the agent refused: its task had ended, or is ending
				run.mu.Lock()
				run.cancelling = false
				run.mu.Unlock()
				if waiting && finished(res.State) {
					e.follow(ctx, ec, run, &emitter{yield: yield}) // nothing else will write how the Work ended
					return
				}
				yield(nil, notCancelable(res.State)) // the execution that follows it writes that
				return
			}
			e.mu.Lock()
			delete(e.runs, ec.TaskID) // also when no execution follows it (a task waiting for input)
			e.mu.Unlock()
		}
		yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCanceled, nil), nil)
	}
}

// refused reports whether the Port's answer to a cancel (its CancelResult's state) says the agent
// refused it: the task had completed, failed or been rejected, or goes on (a state of a Work that
// runs). Only cancelled is a cancel, and not_found a Work that was over already.
func refused(state a2aport.WorkState) bool {
	return state != a2aport.StateCancelled && state != a2aport.StateNotFound && state != ""
}

// finished reports whether state is a Work's end.
func finished(state a2aport.WorkState) bool {
	return state == a2aport.StateCompleted || state == a2aport.StateFailed || state == a2aport.StateRejected
}

// notCancelable is the answer to a cancel the agent refused.
func notCancelable(state a2aport.WorkState) error {
	if finished(state) {
		return fmt.Errorf("%w: the task %s before it could be cancelled", a2a.ErrTaskNotCancelable, state)
	}
	return fmt.Errorf("%w: the agent refused to cancel the task, which goes on (%s)", a2a.ErrTaskNotCancelable, state)
}

// reply runs work to its end and answers with one message (MessageOnly).
func (e *executor) reply(ctx context.Context, ec *a2asrv.ExecutorContext, work a2aport.Work) (a2a.Event, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	errAsked := errors.New("the backend asked for input, which a message-only agent cannot relay")
	out, err := e.port.Submit(ctx, work, a2aport.OnEvent(func(ev a2aport.Event) {
		if ev.Type == a2aport.EventInputRequested {
			cancel(errAsked)
		}
	}))
	if cause := context.Cause(ctx); errors.Is(cause, errAsked) {
		return nil, fmt.Errorf("%w: %v", a2a.ErrUnsupportedOperation, cause)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %v", a2a.ErrInternalError, err)
	}
	return messageOf(ec, out), nil
}

// forget drops the run of a task that will have no execution to follow it.
func (e *executor) forget(id a2a.TaskID) {
	e.mu.Lock()
	delete(e.runs, id)
	e.mu.Unlock()
}

// elsewhereGrace bounds how long a cancel waits for the Port to re-attach to a Work it does not run.
const elsewhereGrace = 5 * time.Second

// cancelElsewhere cancels a Work another process runs (cluster mode): this process's Port
// re-attaches to it (Resume, through the shared WorkStore) and cancels it, so that the upstream
// task ends; the process that runs it then sees its Work end. Best effort and bounded; the result
// says how the Work ended here (completed, for a task the agent refused to cancel).
func (e *executor) cancelElsewhere(ctx context.Context, ec *a2asrv.ExecutorContext) a2aport.CancelResult {
	owner := ownerOf(ec)
	attached := make(chan struct{})
	var once sync.Once
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		_, _ = e.port.Resume(context.WithoutCancel(ctx), string(ec.TaskID), owner,
			a2aport.OnEvent(func(a2aport.Event) { once.Do(func() { close(attached) }) }))
	}()
	timer := time.NewTimer(elsewhereGrace)
	defer timer.Stop()
	var res a2aport.CancelResult
	select {
	case <-attached:
		res, _ = e.port.Cancel(ctx, string(ec.TaskID), owner)
	case <-ended: // nothing to resume: the Work is over, or this Port cannot resume
		return res
	case <-timer.C:
		return res
	}
	select { // the resumed Work ends with the cancel
	case <-ended:
	case <-timer.C:
	}
	return res
}
