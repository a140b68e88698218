// Package a2asrvx holds server-side workarounds for a2a-go v2.4.0's a2asrv that the demo agent,
// the test agent and the facade's task stores share. Nothing here runs in the WebAssembly module.
//
//	handler := a2asrvx.Patient(a2asrv.NewHandler(executor))
//	mux.Handle("/", a2asrv.NewJSONRPCHandler(handler))
package a2asrvx

import (
	"context"
	"iter"
	"strings"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
)

// a2asrv v2.4.0 stores a turn's INPUT_REQUIRED status a moment before it releases that turn's
// execution. A client that answers at once (the page does, when a person types fast or a test
// answers) can be refused with "task execution is already in progress" although nothing is
// running any more. Patient retries such a refused answer until the execution is released,
// as a server without the race would simply accept it. Nothing ran for a refused request, so
// retrying it is safe; first messages and other errors pass through untouched.
type patientHandler struct {
	a2asrv.RequestHandler
	every time.Duration // between two tries
	limit time.Duration // after which the refusal is returned
}

// Patient wraps h so that a refused answer to an existing task is retried (every 5 ms, for at
// most 3 s) until a2asrv has released the task's previous turn.
func Patient(h a2asrv.RequestHandler) a2asrv.RequestHandler {
	return patientHandler{RequestHandler: h, every: 5 * time.Millisecond, limit: 3 * time.Second}
}

// refusedAnswer reports whether err refused a user's answer to an existing task.
func refusedAnswer(req *a2a.SendMessageRequest, err error) bool {
	return err != nil && req != nil && req.Message != nil && req.Message.TaskID != "" &&
		strings.Contains(err.Error(), "execution is already in progress")
}

// wait sleeps before the next try; false once the limit has passed or ctx ended.
func (h patientHandler) wait(ctx context.Context, deadline time.Time) bool {
	if !time.Now().Before(deadline) {
		return false
	}
	timer := time.NewTimer(h.every)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// SendMessage implements [a2asrv.RequestHandler].
func (h patientHandler) SendMessage(ctx context.Context, req *a2a.SendMessageRequest) (a2a.SendMessageResult, error) {
	deadline := time.Now().Add(h.limit)
	for {
		res, err := h.RequestHandler.SendMessage(ctx, req)
		if !refusedAnswer(req, err) || !h.wait(ctx, deadline) {
			return res, err
		}
	}
}

// SendStreamingMessage implements [a2asrv.RequestHandler]. Only a stream whose very first item is
// the refusal is retried; once an event went out, the stream is the client's.
func (h patientHandler) SendStreamingMessage(ctx context.Context, req *a2a.SendMessageRequest) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		deadline := time.Now().Add(h.limit)
		for {
			next, stop := iter.Pull2(h.RequestHandler.SendStreamingMessage(ctx, req))
			ev, err, ok := next()
			if ok && refusedAnswer(req, err) && h.wait(ctx, deadline) {
				stop()
				continue
			}
			for ok {
				if !yield(ev, err) {
					break
				}
				ev, err, ok = next()
			}
			stop()
			return
		}
	}
}
