package facade

import (
	"context"
	"sync"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
)

// Call is what the facade learned of one A2A request, for a server's log, metrics and traces:
// a closed set of values and the facade's own ids, never a string of the caller's.
type Call struct {
	// Operation is the A2A 1.0 operation the request called ("SendMessage", "GetTask", ...; 0.3's
	// methods and the HTTP+JSON routes by the same names), or "" when the facade did not read one:
	// a request refused before its body was read (unauthenticated, too large, cross-site), or one
	// that names no operation the facade serves.
	Operation string

	// The task and context the answer named (Task). A stream's events are read in a goroutine of
	// a2a-go's that may outlive the request when the caller leaves, hence the lock.
	mu                sync.Mutex
	taskID, contextID string
}

// Task is the task and the context the facade's answer to the request named ("" for an answer
// that named none: an error, a list, the card): a task it created, or one of the caller's own
// that the request addressed. An id a request names is noted only once it is answered with that
// task, so a string a caller made up is never one.
func (c *Call) Task() (taskID, contextID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.taskID, c.contextID
}

type callKey struct{}

// WithCall returns ctx carrying call, which the facade fills while it serves the request made
// with ctx. It reads a body only once the caller is authenticated, within its deadline and bounds.
func WithCall(ctx context.Context, call *Call) context.Context {
	return context.WithValue(ctx, callKey{}, call)
}

// noteCall tells the Call of ctx, if any, the operation of its request.
func noteCall(ctx context.Context, operation string) {
	if c, ok := ctx.Value(callKey{}).(*Call); ok && c != nil {
		c.Operation = operation
	}
}

// After notes in the request's Call the task and context its answer names (callers is the
// interceptor of isolation.go, which a2a-go runs on every answer and every event of a stream).
func (callers) After(ctx context.Context, _ *a2asrv.CallContext, resp *a2asrv.Response) error {
	c, ok := ctx.Value(callKey{}).(*Call)
	if !ok || c == nil || resp == nil {
		return nil
	}
	var taskID a2a.TaskID
	var contextID string
	switch p := resp.Payload.(type) {
	case *a2a.Task:
		if p != nil {
			taskID, contextID = p.ID, p.ContextID
		}
	case *a2a.Message:
		if p != nil {
			taskID, contextID = p.TaskID, p.ContextID
		}
	case *a2a.TaskStatusUpdateEvent:
		if p != nil {
			taskID, contextID = p.TaskID, p.ContextID
		}
	case *a2a.TaskArtifactUpdateEvent:
		if p != nil {
			taskID, contextID = p.TaskID, p.ContextID
		}
	}
	if taskID == "" && contextID == "" {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.taskID == "" && c.contextID == "" { // the first answer names them; a stream's later events the same
		c.taskID, c.contextID = string(taskID), contextID
	}
	return nil
}
