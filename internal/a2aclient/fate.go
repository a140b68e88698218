package a2aclient

import (
	"errors"

	"github.com/a2aport/a2aport"
)

// Once a Work's message may have reached the agent, no failure may invite a retry that could do
// the work twice. A Work that ends without its outcome ends so (docs/reliability.md has the table of
// every phase and end):
//
//   - Nothing was sent (discovery, a request that provably never left): the error as it is.
//   - The message was on its way and no answer named its task, when the Work's timeout came or
//     the connection failed: A2A_OUTCOME_UNKNOWN, not retryable (the timeout first gives the
//     answer up to taskGrace to name the task, as Cancel does).
//   - The agent has the task (it was named) and the Work lost it: its timeout came, or the
//     connection failed beyond recovery. The adapter asks the agent to cancel the task; if the
//     agent confirms, the error is retryable (nothing of the Work remains at the agent). If not,
//     it is not: a timeout stays A2A_TIMEOUT, a lost connection is A2A_OUTCOME_UNKNOWN.
//   - The agent answered (the task failed, a refusal with a status, a JSON-RPC error to the send),
//     the caller cancelled, the adapter was closed: the error as it is.

// lostTrack reports whether err lost a task the agent has: a timeout, or a connection failure the
// recovery could not overcome. Such a task is cancelled at the agent before the Work ends.
func (r *run) lostTrack(err error) bool {
	var e *a2aport.Error
	if !errors.As(err, &e) || r.remoteTaskID() == "" {
		return false
	}
	return unknownFate(e)
}

// unknownFate reports whether e leaves it unknown what became of a message that left.
func unknownFate(e *a2aport.Error) bool {
	switch e.Code {
	case a2aport.CodeTimeout, a2aport.CodeNetworkError, a2aport.CodeOutcomeUnknown:
		return true
	case a2aport.CodeHTTPError, a2aport.CodeProtocolError:
		return e.Retryable
	}
	return false
}

// fate is the error a failed Work ends with, by the rules above; cancelled says the agent
// confirmed the cancel of its task.
func (r *run) fate(err error, cancelled bool) error {
	var e *a2aport.Error
	r.mu.Lock()
	sent, task := r.sent, r.remoteTask
	r.mu.Unlock()
	if !sent || !errors.As(err, &e) || !unknownFate(e) {
		return err
	}
	switch {
	case task == "" && e.Code == a2aport.CodeTimeout:
		return &a2aport.Error{Code: a2aport.CodeOutcomeUnknown, Err: e,
			Message: e.Message + ", while its message was on its way and before any answer named its task: whether the agent received it is not known (it was not sent again)"}
	case task == "":
		return err // the send's own failure: sendError typed it
	case cancelled:
		code := e.Code
		if code == a2aport.CodeOutcomeUnknown {
			code = a2aport.CodeNetworkError
		}
		return &a2aport.Error{Code: code, Status: e.Status, Err: e.Err, Retryable: true,
			Message: e.Message + "; the agent confirmed the cancel of its task, so submitting the Work again cannot do it twice"}
	case e.Code == a2aport.CodeTimeout:
		return &a2aport.Error{Code: a2aport.CodeTimeout, Err: e.Err,
			Message: e.Message + "; the agent did not confirm the cancel of its task, which may still run: not retryable"}
	default:
		return &a2aport.Error{Code: a2aport.CodeOutcomeUnknown, Status: e.Status, Err: e,
			Message: e.Message + "; the agent's task was lost and did not confirm its cancel: it may still run (nothing was sent again)"}
	}
}
