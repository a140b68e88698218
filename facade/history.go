package facade

import (
	"context"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
)

// historyLength applies a message's historyLength to the tasks its answer carries, as GetTask
// applies its own: 0 is no history, n the last n messages (A2A §3.2.4). a2a-go's server ignores
// it for a message and returned the whole history.
type historyLength struct {
	a2asrv.PassthroughCallInterceptor
}

type historyLengthKey struct{}

func (historyLength) Before(ctx context.Context, _ *a2asrv.CallContext, req *a2asrv.Request) (context.Context, any, error) {
	if send, ok := payloadOf(req).(*a2a.SendMessageRequest); ok && send.Config != nil && send.Config.HistoryLength != nil {
		ctx = context.WithValue(ctx, historyLengthKey{}, *send.Config.HistoryLength)
	}
	return ctx, nil, nil
}

func (historyLength) After(ctx context.Context, _ *a2asrv.CallContext, resp *a2asrv.Response) error {
	n, ok := ctx.Value(historyLengthKey{}).(int)
	task, isTask := resp.Payload.(*a2a.Task)
	if !ok || !isTask || task == nil || n < 0 || n >= len(task.History) {
		return nil
	}
	trimmed := *task // the answer's own: the task itself may be a2asrv's
	trimmed.History = append([]*a2a.Message{}, task.History[len(task.History)-n:]...)
	resp.Payload = &trimmed
	return nil
}
