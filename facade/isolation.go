package facade

import (
	"context"
	"fmt"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
	"github.com/a2aproject/a2a-go/v2/a2asrv/taskstore"
)

// callers hands the authenticated caller to a2asrv and keeps each caller to its own tasks. The
// task store already refuses another caller's task to GetTask, but a2a-go's execution managers do
// not ask it: a SubscribeToTask, a CancelTask or a message naming a running task of another caller
// would reach that task's execution. So every call that names a task is answered here first, from
// the store as the caller sees it: a task of another caller is "task not found", in the same words
// as an id nobody ever used, and the call goes no further.
type callers struct {
	a2asrv.PassthroughCallInterceptor
	tasks  taskstore.Store
	pushes bool // the card offers push notifications
}

func (c callers) Before(ctx context.Context, callCtx *a2asrv.CallContext, req *a2asrv.Request) (context.Context, any, error) {
	callCtx.User = a2asrv.NewAuthenticatedUser(callerFrom(ctx), nil)
	if !c.pushes && pushConfigCall(req) {
		// What the agent cannot do at all comes before what it does not have (A2A §3.1.7).
		return ctx, nil, a2a.ErrPushNotificationNotSupported
	}
	if _, list := payloadOf(req).(*a2a.ListTasksRequest); list && callerFrom(ctx) == "" {
		return ctx, nil, errAnonymousList
	}
	id, continues := taskNamed(req)
	if id == "" {
		return ctx, nil, nil
	}
	return ctx, nil, checkTask(ctx, c.tasks, id, continues)
}

// errAnonymousList answers ListTasks when callers are not authenticated: they are all one
// anonymous caller, a task's id is all that keeps it to whoever started it, and a list would give
// every task to anyone (docs/facade.md).
var errAnonymousList = a2a.NewError(a2a.ErrUnsupportedOperation,
	"ListTasks needs authenticated callers: this agent has none configured (facade.Options.Authenticate; the gateway's auth), so a list would show every caller's tasks to anyone")

// errTaskNotFound is the one answer for a task the caller may not see.
var errTaskNotFound = fmt.Errorf("%w", a2a.ErrTaskNotFound)

// pushConfigCall reports whether req is one of the push-config methods.
func pushConfigCall(req *a2asrv.Request) bool {
	if req == nil {
		return false
	}
	switch req.Payload.(type) {
	case *a2a.GetTaskPushConfigRequest, *a2a.ListTaskPushConfigRequest, *a2a.PushConfig, *a2a.DeleteTaskPushConfigRequest:
		return true
	}
	return false
}

// taskNamed is the task a call addresses, or "" for a call that names none (a new message,
// ListTasks, the extended card); continues says the call adds to the task or follows it (a
// message on it, a subscription).
func taskNamed(req *a2asrv.Request) (id a2a.TaskID, continues bool) {
	if req == nil {
		return "", false
	}
	switch p := req.Payload.(type) {
	case *a2a.GetTaskRequest:
		return p.ID, false
	case *a2a.CancelTaskRequest:
		return p.ID, false
	case *a2a.SubscribeToTaskRequest:
		return p.ID, true
	case *a2a.SendMessageRequest:
		if p.Message != nil {
			return p.Message.TaskID, true
		}
	case *a2a.GetTaskPushConfigRequest:
		return p.TaskID, false
	case *a2a.ListTaskPushConfigRequest:
		return p.TaskID, false
	case *a2a.PushConfig:
		return p.TaskID, false
	case *a2a.DeleteTaskPushConfigRequest:
		return p.TaskID, false
	}
	return "", false
}

func payloadOf(req *a2asrv.Request) any {
	if req == nil {
		return nil
	}
	return req.Payload
}
