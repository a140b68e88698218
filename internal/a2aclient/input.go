package a2aclient

import (
	"context"
	"fmt"

	"github.com/a2aport/a2aport"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/a2aport/a2aport/internal/park"
)

// request opens an input request for an INPUT_REQUIRED or AUTH_REQUIRED task.
func (r *run) request(state a2aport.WorkState, prompt string) {
	kind := a2aport.InputKindInput
	if state == a2aport.StateAuthRequired {
		kind = a2aport.InputKindAuthorization
	}
	r.mu.Lock()
	r.inputSeq++
	req := &a2aport.InputRequest{InputRequestID: fmt.Sprintf("%s/input-%d", r.work.ID, r.inputSeq), Kind: kind, Mode: "text", Prompt: prompt}
	r.pending, r.answered = req, make(chan struct{})
	r.mu.Unlock()
	copied := *req
	r.emit(a2aport.Event{Type: a2aport.EventInputRequested, State: state, Input: &copied})
}

// awaitAnswer waits for RespondInput and returns the message that continues the remote task.
func (r *run) awaitAnswer() (*a2a.Message, error) {
	r.mu.Lock()
	answered := r.answered
	r.mu.Unlock()
	wait, stopWait := withTimeout(r.ctx, r.a.s.Clock, r.a.s.InputTimeout, errUnanswered) // 0: no bound
	err := park.Wait(wait, answered)
	stopWait()
	if err != nil && r.ctx.Err() == nil { // the question's own time ran out, not the Work's
		r.stop(errUnanswered)
	}
	if err != nil {
		return nil, r.a.ctxError(r.ctx)
	}
	r.mu.Lock()
	req, resp := r.lastAnswered, r.answer
	task, contextID := r.remoteTask, r.contextID
	r.mu.Unlock()
	resolved := *req
	resolved.Action = resp.Action
	if resolved.Action == "" {
		resolved.Action = a2aport.ActionAccept
	}
	r.emit(a2aport.Event{Type: a2aport.EventInputResolved, Input: &resolved})
	r.activity(a2aport.StateWorking, "")
	// Authorization has no text of its own; a decline on either kind tells the agent so.
	defaultText := map[string]string{a2aport.ActionAccept: "accepted", a2aport.ActionDecline: "declined"}[resp.Action]
	return answerMessage(task, contextID, resp, defaultText), nil
}

// RespondInput implements Port.
func (a *Adapter) RespondInput(ctx context.Context, workID, ownerID, inputRequestID string, resp a2aport.InputResponse) error {
	a.mu.Lock()
	r, ok := a.runs[workID]
	a.mu.Unlock()
	if !ok || r.work.OwnerID != ownerID || r.currentState() == a2aport.StateNotFound {
		return newError(a2aport.CodeWorkNotFound, "work %q is not active for this owner", workID)
	}
	r.mu.Lock()
	req := r.pending
	switch {
	case r.answeredIDs[inputRequestID]:
		r.mu.Unlock()
		return newError(a2aport.CodeInputAlreadySubmitted, "input request %q was already answered", inputRequestID)
	case req == nil || req.InputRequestID != inputRequestID:
		r.mu.Unlock()
		return newError(a2aport.CodeInputNotPending, "work %q has no pending input request %q", workID, inputRequestID)
	}
	if err := checkAnswer(req.Kind, resp); err != nil {
		r.mu.Unlock()
		return err
	}
	r.answeredIDs[inputRequestID] = true
	r.pending, r.lastAnswered, r.answer = nil, req, resp
	if resp.Action != a2aport.ActionCancel {
		close(r.answered)
	}
	r.mu.Unlock()
	if resp.Action == a2aport.ActionCancel {
		_, err := a.cancelRun(ctx, r)
		return err
	}
	return nil
}

// checkAnswer validates an answer against the request kind. Authorization needs an explicit
// accept, decline or cancel; an input needs text or values unless it is declined or cancelled.
func checkAnswer(kind string, resp a2aport.InputResponse) error {
	switch resp.Action {
	case a2aport.ActionAccept, a2aport.ActionDecline, a2aport.ActionCancel:
	case "":
		if kind == a2aport.InputKindAuthorization {
			return newError(a2aport.CodeInputActionRequired, "an authorization request needs action accept, decline or cancel")
		}
	default:
		return newError(a2aport.CodeInputActionRequired, "unknown action %q: use accept, decline or cancel", resp.Action)
	}
	if kind == a2aport.InputKindInput && (resp.Action == "" || resp.Action == a2aport.ActionAccept) && resp.Text == "" && len(resp.Values) == 0 {
		return newError(a2aport.CodeInputActionRequired, "an input answer needs text or values")
	}
	return nil
}
