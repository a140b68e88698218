package agent

import (
	"context"
	"fmt"
	"iter"
	"sync"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
)

// followUpLimit bounds how long a follow-up waits for the held execution
// to store its answer; the execution answers at once, so this is generous.
const followUpLimit = 10 * time.Second

// authGate connects follow-up messages to executions held in AUTH_REQUIRED.
type authGate struct {
	mu      sync.Mutex
	waiting map[a2a.TaskID]*authWait
}

type authWait struct {
	contextID string
	message   chan *a2a.Message // to the held execution
	outcome   chan authResult   // to the follow-up request, from Cleanup
	delivered bool
}

type authResult struct {
	result a2a.SendMessageResult
	err    error
}

func newAuthGate() *authGate {
	return &authGate{waiting: make(map[a2a.TaskID]*authWait)}
}

// expect registers a held execution. It must run before AUTH_REQUIRED is
// emitted, so that no client can send the follow-up too early.
func (g *authGate) expect(taskID a2a.TaskID, contextID string) <-chan *a2a.Message {
	w := &authWait{
		contextID: contextID,
		message:   make(chan *a2a.Message, 1),
		outcome:   make(chan authResult, 1),
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.waiting[taskID] = w
	return w.message
}

// deliver hands msg to the execution held for its task. ok is false if
// there is none (or it already got its follow-up): a2asrv then answers.
func (g *authGate) deliver(msg *a2a.Message) (outcome <-chan authResult, ok bool, err error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	w := g.waiting[msg.TaskID]
	if w == nil || w.delivered {
		return nil, false, nil
	}
	if msg.ContextID != "" && msg.ContextID != w.contextID {
		return nil, true, fmt.Errorf("message contextID differs from task contextID: %w", a2a.ErrInvalidParams)
	}
	w.delivered = true
	w.message <- msg
	return w.outcome, true, nil
}

// finish reports the stored result of an execution (or cancelation) of
// taskID to the follow-up waiting for it, if any.
func (g *authGate) finish(taskID a2a.TaskID, result a2a.SendMessageResult, err error) {
	g.mu.Lock()
	w := g.waiting[taskID]
	delete(g.waiting, taskID)
	g.mu.Unlock()
	if w != nil {
		w.outcome <- authResult{result: result, err: err}
	}
}

// authHandler works around a2asrv v2.4.0, which treats AUTH_REQUIRED as
// neither final nor interrupted. An execution that stops after emitting it
// is never finalized (its event consumer waits forever), so the task stays
// locked and every follow-up message fails with "task execution is already
// in progress"; streams stay open too. Only blocking SendMessage returns.
//
// The auth scenario therefore keeps its execution alive, and authHandler,
// which sits between the transports and a2asrv, hands the follow-up message
// to that execution instead of to a2asrv. It also ends streams at
// AUTH_REQUIRED, an interrupted state in A2A 1.0, so clients observe what
// the protocol specifies: the turn ends at AUTH_REQUIRED and a follow-up
// message resumes the task. Unlike a native follow-up, the message is not
// added to the task history.
type authHandler struct {
	a2asrv.RequestHandler
	gate      *authGate
	streaming bool
}

// SendMessage implements [a2asrv.RequestHandler].
func (h *authHandler) SendMessage(ctx context.Context, req *a2a.SendMessageRequest) (a2a.SendMessageResult, error) {
	if result, ok, err := h.followUp(ctx, req); ok {
		return result, err
	}
	return h.RequestHandler.SendMessage(ctx, req)
}

// SendStreamingMessage implements [a2asrv.RequestHandler].
func (h *authHandler) SendStreamingMessage(ctx context.Context, req *a2a.SendMessageRequest) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		// Without streaming, a2asrv refuses the call; leave that to it.
		if h.streaming {
			if result, ok, err := h.followUp(ctx, req); ok {
				if err != nil {
					yield(nil, err)
				} else {
					yield(result, nil)
				}
				return
			}
		}
		endAtAuthRequired(h.RequestHandler.SendStreamingMessage(ctx, req))(yield)
	}
}

// SubscribeToTask implements [a2asrv.RequestHandler].
func (h *authHandler) SubscribeToTask(ctx context.Context, req *a2a.SubscribeToTaskRequest) iter.Seq2[a2a.Event, error] {
	return endAtAuthRequired(h.RequestHandler.SubscribeToTask(ctx, req))
}

// followUp answers req if it continues a held auth execution, with the
// task as stored once that execution finished.
func (h *authHandler) followUp(ctx context.Context, req *a2a.SendMessageRequest) (a2a.SendMessageResult, bool, error) {
	if req == nil || req.Message == nil || req.Message.TaskID == "" {
		return nil, false, nil
	}
	outcome, ok, err := h.gate.deliver(req.Message)
	if !ok || err != nil {
		return nil, ok, err
	}
	timer := time.NewTimer(followUpLimit)
	defer timer.Stop()
	select {
	case out := <-outcome:
		return out.result, true, out.err
	case <-ctx.Done():
		return nil, true, ctx.Err()
	case <-timer.C:
		return nil, true, fmt.Errorf("held auth execution did not answer: %w", a2a.ErrInternalError)
	}
}

// endAtAuthRequired stops a stream after its first AUTH_REQUIRED event.
func endAtAuthRequired(events iter.Seq2[a2a.Event, error]) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		for ev, err := range events {
			if !yield(ev, err) || err != nil || stateOf(ev) == a2a.TaskStateAuthRequired {
				return
			}
		}
	}
}

func stateOf(ev a2a.Event) a2a.TaskState {
	switch v := ev.(type) {
	case *a2a.Task:
		return v.Status.State
	case *a2a.TaskStatusUpdateEvent:
		return v.Status.State
	}
	return a2a.TaskStateUnspecified
}
