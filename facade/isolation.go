package facade

import (
	"context"
	"errors"
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
	id := taskNamed(req)
	if id == "" {
		return ctx, nil, nil
	}
	if _, err := c.tasks.Get(ctx, id); err != nil {
		if errors.Is(err, a2a.ErrTaskNotFound) {
			return ctx, nil, errTaskNotFound
		}
		return ctx, nil, fmt.Errorf("%w: the task could not be read", a2a.ErrInternalError)
	}
	return ctx, nil, nil
}

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
// ListTasks, the extended card).
func taskNamed(req *a2asrv.Request) a2a.TaskID {
	if req == nil {
		return ""
	}
	switch p := req.Payload.(type) {
	case *a2a.GetTaskRequest:
		return p.ID
	case *a2a.CancelTaskRequest:
		return p.ID
	case *a2a.SubscribeToTaskRequest:
		return p.ID
	case *a2a.SendMessageRequest:
		if p.Message != nil {
			return p.Message.TaskID
		}
	case *a2a.GetTaskPushConfigRequest:
		return p.TaskID
	case *a2a.ListTaskPushConfigRequest:
		return p.TaskID
	case *a2a.PushConfig:
		return p.TaskID
	case *a2a.DeleteTaskPushConfigRequest:
		return p.TaskID
	}
	return ""
}
