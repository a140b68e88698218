package a2aclient

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"strings"

	"github.com/a2aport/a2aport"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// execute runs the Work turn by turn: a turn sends one message and follows the task until it ends
// or asks for input; an answered input request starts the next turn on the same remote task.
func (r *run) execute() (a2aport.Outcome, error) {
	a := r.a
	conn, err := a.connect(r.ctx)
	if err != nil {
		return a2aport.Outcome{}, err
	}
	contextID := ""
	if a.s.ReuseContext && r.work.Continuity != a2aport.ContinuityIsolated {
		if r.lease, err = a.cont.acquire(r.ctx, r.work.OwnerID); err != nil {
			if r.ctx.Err() != nil {
				return a2aport.Outcome{}, a.ctxError(r.ctx)
			}
			return a2aport.Outcome{}, err
		}
		defer r.lease.release()
		contextID = r.lease.sent
	}
	done, out, err := r.turn(conn, outgoingMessage(r.parts, contextID))
	return r.converse(conn, done, out, err)
}

// resume follows a recorded Work's remote task again (Adapter.Resume): its recorded state first,
// then what the agent has now.
func (r *run) resume() (a2aport.Outcome, error) {
	conn, err := r.a.connect(r.ctx)
	if err != nil {
		return a2aport.Outcome{}, err
	}
	r.activity(r.state, "")
	done, out, err := r.recoverStream(conn)
	return r.converse(conn, done, out, err)
}

// converse carries a Work on after a turn: each answered input request starts the next turn on
// the same remote task, until the Work has its outcome.
func (r *run) converse(conn *connection, done bool, out a2aport.Outcome, err error) (a2aport.Outcome, error) {
	for err == nil && !done {
		var msg *a2a.Message
		if msg, err = r.awaitAnswer(); err != nil {
			return a2aport.Outcome{}, err
		}
		done, out, err = r.turn(conn, msg)
	}
	return out, err
}

// turn sends msg and follows the task until it ends or asks for input. A send the agent refused
// because it was still releasing the task's previous turn (a2a-go answers an immediate answer to
// an input request so) provably did not run: it is sent again, up to RecoveryAttempts times.
func (r *run) turn(conn *connection, msg *a2a.Message) (bool, a2aport.Outcome, error) {
	for attempt := 0; ; attempt++ {
		var done bool
		var out a2aport.Outcome
		var err error
		if conn.card.Capabilities.Streaming && !r.a.usesPush(conn) {
			done, out, err = r.streamTurn(conn, msg)
		} else {
			done, out, err = r.pollTurn(conn, msg)
		}
		if !turnStillReleasing(err) || attempt >= r.a.s.RecoveryAttempts {
			return done, out, err
		}
		if err := r.backoff(attempt+1, nil); err != nil {
			return false, a2aport.Outcome{}, err
		}
	}
}

// turnStillReleasing reports whether err is the agent's refusal of a message because the task's
// previous execution was still running: a2a-go's "task execution is already in progress", which it
// sends as an internal error before executing anything.
func turnStillReleasing(err error) bool {
	var e *a2aport.Error
	return errors.As(err, &e) && e.Code == a2aport.CodeProtocolError && strings.Contains(e.Message, "task execution is already in progress")
}

// streamTurn consumes one SendStreamingMessage. A stream that breaks or ends before the task does
// is recovered through the task (recoverStream); a stream without any event is an invalid
// response, and one that failed before any event fails the Work: whether the agent received the
// message is not known, and it must never be sent twice. A stream silent for StreamIdleTimeout is
// recovered like a broken one; no first event within FirstEventTimeout fails the Work. A
// streaming call the server refuses as unsupported is made again as a plain send.
func (r *run) streamTurn(conn *connection, msg *a2a.Message) (bool, a2aport.Outcome, error) {
	r.markSent()
	s := r.followStream(conn, r.a.s.FirstEventTimeout, func(ctx context.Context) iter.Seq2[a2a.Event, error] {
		return conn.client.SendStreamingMessage(ctx, &a2a.SendMessageRequest{Message: msg})
	})
	switch {
	case s.next != turnContinue:
		return s.next == turnDone, s.out, s.err
	case r.ctx.Err() != nil:
		return false, a2aport.Outcome{}, r.a.ctxError(r.ctx)
	case s.idle && s.events == 0:
		return false, a2aport.Outcome{}, newError(a2aport.CodeOutcomeUnknown, "the agent's stream sent no event within %v (FirstEventTimeout): whether it received the message is not known (it was not sent again)", r.a.s.FirstEventTimeout)
	case s.dead && r.a.s.RecoveryAttempts == 0:
		return false, a2aport.Outcome{}, newError(a2aport.CodeOutcomeUnknown, "the agent's stream died: the task moved on and the stream brought none of it (recovery is off)")
	case s.idle && r.a.s.RecoveryAttempts == 0:
		return false, a2aport.Outcome{}, &a2aport.Error{Code: a2aport.CodeTimeout, Message: fmt.Sprintf("the agent's stream sent nothing for %v", r.a.s.StreamIdleTimeout), Retryable: true}
	case s.idle:
		return r.recoverStream(conn)
	case s.err != nil:
		if s.events == 0 && (errors.Is(s.err, a2a.ErrUnsupportedOperation) || errors.Is(s.err, a2a.ErrMethodNotFound)) {
			// The card says it streams, the server says it does not: the refusal proves nothing
			// ran, so the message goes again, as a plain send.
			return r.pollTurn(conn, msg)
		}
		e := r.a.requestError(r.ctx, a2aport.CodeProtocolError, "streaming message failed", s.err, s.rec)
		if s.events == 0 {
			return false, a2aport.Outcome{}, sendError(e)
		}
		if !transient(e) || r.a.s.RecoveryAttempts == 0 {
			return false, a2aport.Outcome{}, e
		}
		return r.recoverStream(conn)
	case s.events == 0:
		return false, a2aport.Outcome{}, newError(a2aport.CodeInvalidResponse, "the agent's stream ended without any event")
	}
	return r.recoverStream(conn)
}

// pollTurn sends without waiting (returnImmediately) and follows the task with GetTask, every
// PollInterval or, when the agent pushes, on each push (push.go).
func (r *run) pollTurn(conn *connection, msg *a2a.Message) (bool, a2aport.Outcome, error) {
	ctx, rec := withFailureRecorder(r.ctx)
	req := &a2a.SendMessageRequest{Message: msg, Config: &a2a.SendMessageConfig{ReturnImmediately: true, PushConfig: r.pushConfig(conn)}}
	r.markSent()
	res, err := conn.client.SendMessage(ctx, req)
	if err != nil && req.Config.PushConfig != nil && errors.Is(err, a2a.ErrPushNotificationNotSupported) {
		// The card offers pushes, the server refuses them: the refusal proves nothing ran, so
		// the message goes again, and the Work polls.
		r.refusePush()
		return r.pollTurn(conn, msg)
	}
	if err != nil {
		return false, a2aport.Outcome{}, sendError(r.a.requestError(ctx, a2aport.CodeProtocolError, "sending the message failed", err, rec))
	}
	if res == nil {
		return false, a2aport.Outcome{}, newError(a2aport.CodeInvalidResponse, "the agent answered the message with nothing")
	}
	if next, out, err := r.apply(res); next != turnContinue {
		return next == turnDone, out, err
	}
	return r.poll(conn)
}

// poll follows the remote task every PollInterval (or push: awaitPoll) until it ends or asks for input. A failed
// GetTask that may succeed again (the connection, a 5xx, 429, no answer within RequestTimeout) is
// retried up to RecoveryAttempts times in a row, after the agent's Retry-After if it gave one.
func (r *run) poll(conn *connection) (bool, a2aport.Outcome, error) {
	task := r.remoteTaskID()
	if task == "" {
		return false, a2aport.Outcome{}, newError(a2aport.CodeInvalidResponse, "the agent's answer names no task to follow")
	}
	failures := 0
	var last *httpFailure // the previous poll's, for its Retry-After
	for {
		if failures == 0 {
			if err := r.awaitPoll(); err != nil {
				return false, a2aport.Outcome{}, r.a.ctxError(r.ctx)
			}
		} else if err := r.backoff(failures, last); err != nil {
			return false, a2aport.Outcome{}, err
		}
		ctx, rec := withFailureRecorder(r.ctx)
		ctx, cancel := withTimeout(ctx, r.a.s.Clock, r.a.s.RequestTimeout, errRequestTimeout) // a GetTask that stalls is tried again
		last = rec
		snapshot, err := conn.client.GetTask(ctx, &a2a.GetTaskRequest{ID: task})
		if err != nil {
			e := r.a.requestError(ctx, a2aport.CodeProtocolError, "polling the task failed", err, rec)
			cancel()
			if r.ctx.Err() != nil || !transient(e) || failures >= r.a.s.RecoveryAttempts {
				return false, a2aport.Outcome{}, e
			}
			failures++
			r.reconnecting()
			continue
		}
		cancel()
		failures = 0
		r.recovered()
		if snapshot == nil {
			return false, a2aport.Outcome{}, newError(a2aport.CodeInvalidResponse, "the agent answered GetTask with nothing")
		}
		if next, out, err := r.apply(snapshot); next != turnContinue {
			return next == turnDone, out, err
		}
	}
}

type turnNext int

const (
	turnContinue turnNext = iota // keep following the task
	turnDone                     // the Work has its outcome (or error)
	turnInput                    // the task waits for the user
)

// apply folds one A2A event into the run and says what comes next.
func (r *run) apply(ev a2a.Event) (turnNext, a2aport.Outcome, error) {
	if m, ok := ev.(*a2a.Message); ok {
		if r.remoteTaskID() == "" {
			// A reply that is a Message, not a Task, completes the Work.
			if err := r.learn(ev.TaskInfo()); err != nil {
				return turnDone, a2aport.Outcome{}, err
			}
			r.emit(a2aport.Event{Type: a2aport.EventMessage, Text: messageText(m)})
			return turnDone, messageOutcome(m), nil
		}
		if text := messageText(m); text != "" {
			r.emit(a2aport.Event{Type: a2aport.EventMessage, Text: text})
		}
		return turnContinue, a2aport.Outcome{}, nil
	}
	if err := r.learn(ev.TaskInfo()); err != nil {
		return turnDone, a2aport.Outcome{}, err
	}
	switch e := ev.(type) {
	case *a2a.Task:
		for _, art := range r.out.snapshot(e) {
			if err := r.checkSize(art); err != nil {
				return turnDone, a2aport.Outcome{}, err
			}
			r.progress.artifact(art.ID, art.size)
			r.emitArtifact(art)
		}
		return r.status(e.Status)
	case *a2a.TaskStatusUpdateEvent:
		return r.status(e.Status)
	case *a2a.TaskArtifactUpdateEvent:
		if art := r.out.chunk(e); art != nil {
			if err := r.checkSize(art); err != nil {
				return turnDone, a2aport.Outcome{}, err
			}
			r.progress.artifact(art.ID, art.size)
			r.emitArtifact(art)
		}
		return turnContinue, a2aport.Outcome{}, nil
	default:
		return turnDone, a2aport.Outcome{}, newError(a2aport.CodeInvalidResponse, "the agent sent an unknown event %T", ev)
	}
}

// learn records the remote task and context ids (never shown to listeners) and checks that the
// agent keeps the conversation in one context.
func (r *run) learn(info a2a.TaskInfo) error {
	r.mu.Lock()
	named := r.remoteTask == "" && info.TaskID != ""
	if named {
		r.remoteTask = info.TaskID
		close(r.taskKnown)
	}
	known := r.contextID
	if known == "" {
		r.contextID = info.ContextID
	}
	r.mu.Unlock()
	if named {
		// The agent made a task: the Work is submitted (DESIGN.md §3). A Work the agent answers
		// with a message never is.
		r.activity(a2aport.StateSubmitted, "")
	}
	if known != "" && info.ContextID != "" && info.ContextID != known {
		return newError(a2aport.CodeContextMismatch, "the agent moved the task to another context")
	}
	r.record()
	if r.lease != nil {
		return r.lease.learn(r.ctx, info.ContextID)
	}
	return nil
}

func (r *run) remoteTaskID() a2a.TaskID {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.remoteTask
}

// status applies a task status: terminal states end the Work, interrupts ask the user.
func (r *run) status(st a2a.TaskStatus) (turnNext, a2aport.Outcome, error) {
	text := messageText(st.Message)
	state := workState(st.State)
	switch state {
	case a2aport.StateCompleted:
		r.progress.status(st)
		r.out.status = text
		return turnDone, r.out.outcome(), nil
	case a2aport.StateFailed:
		return turnDone, a2aport.Outcome{}, r.taskError(a2aport.CodeTaskFailed, "the agent failed the task", text)
	case a2aport.StateRejected:
		return turnDone, a2aport.Outcome{}, r.taskError(a2aport.CodeTaskRejected, "the agent rejected the task", text)
	case a2aport.StateCancelled:
		return turnDone, a2aport.Outcome{}, r.taskError(a2aport.CodeWorkCancelled, "the agent cancelled the task", text)
	}
	r.progress.status(st)
	interrupt := state == a2aport.StateInputRequired || state == a2aport.StateAuthRequired
	if interrupt && statusKey(st) == r.answeredStatus {
		// A snapshot taken before the agent saw our answer (returnImmediately answers at the
		// agent's first event, which may be an artifact) still shows the answered request.
		return turnContinue, a2aport.Outcome{}, nil
	}
	if text != "" {
		r.out.status = text
	}
	r.activity(state, text)
	if interrupt {
		r.answeredStatus = statusKey(st)
		r.request(state, text)
		return turnInput, a2aport.Outcome{}, nil
	}
	return turnContinue, a2aport.Outcome{}, nil
}

// statusKey identifies one status of a task: the same request seen twice has the same key.
func statusKey(st a2a.TaskStatus) string {
	key := string(st.State)
	if st.Message != nil {
		key += "/" + st.Message.ID
	}
	if st.Timestamp != nil {
		key += "/" + st.Timestamp.String()
	}
	return key
}

func (r *run) taskError(code a2aport.Code, what, text string) *a2aport.Error {
	msg := what
	if text != "" {
		msg += ": " + text
	}
	return &a2aport.Error{Code: code, Message: r.a.redact(msg), AgentText: r.a.redact(text)}
}
