package binding

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"net/http"

	"github.com/a2aproject/a2a-go/v2/a2a"

	v03 "github.com/a2aproject/a2a-go/a2a"
)

// A2A 0.3's JSON-RPC method names.
const (
	method03Send         = "message/send"
	method03Stream       = "message/stream"
	method03GetTask      = "tasks/get"
	method03CancelTask   = "tasks/cancel"
	method03Resubscribe  = "tasks/resubscribe"
	method03ExtendedCard = "agent/getAuthenticatedExtendedCard"
)

// jsonrpc03 is the JSON-RPC binding of a 0.3 interface: 1.0's envelope, HTTP and errors, with
// 0.3's method names and objects (v03.go).
type jsonrpc03 struct{ rpc jsonrpc }

func (t *jsonrpc03) send(ctx context.Context, h http.Header, req *a2a.SendMessageRequest) (a2a.SendMessageResult, error) {
	var result json.RawMessage
	if err := t.rpc.call(ctx, method03Send, h, sendParams03(req), &result); err != nil {
		return nil, err
	}
	ev, err := decodeEvent03(result)
	if err != nil {
		return nil, fmt.Errorf("failed to unmarshal event: %w", err)
	}
	switch ev := ev.(type) {
	case *a2a.Task:
		return ev, nil
	case *a2a.Message:
		return ev, nil
	}
	return nil, fmt.Errorf("result violates A2A spec - expected Task or Message, got %T: %s", ev, string(result))
}

func (t *jsonrpc03) stream(ctx context.Context, h http.Header, req *a2a.SendMessageRequest) iter.Seq2[a2a.Event, error] {
	return t.events(ctx, method03Stream, h, sendParams03(req))
}

func (t *jsonrpc03) subscribe(ctx context.Context, h http.Header, req *a2a.SubscribeToTaskRequest) iter.Seq2[a2a.Event, error] {
	return t.events(ctx, method03Resubscribe, h, &v03.TaskIDParams{ID: v03.TaskID(req.ID)})
}

func (t *jsonrpc03) getTask(ctx context.Context, h http.Header, req *a2a.GetTaskRequest) (*a2a.Task, error) {
	return t.task(ctx, method03GetTask, h, &v03.TaskQueryParams{ID: v03.TaskID(req.ID), HistoryLength: req.HistoryLength})
}

func (t *jsonrpc03) cancelTask(ctx context.Context, h http.Header, req *a2a.CancelTaskRequest) (*a2a.Task, error) {
	return t.task(ctx, method03CancelTask, h, &v03.TaskIDParams{ID: v03.TaskID(req.ID), Metadata: req.Metadata})
}

func (t *jsonrpc03) extendedCard(ctx context.Context, h http.Header, req *a2a.GetExtendedAgentCardRequest) (*a2a.AgentCard, error) {
	var result json.RawMessage
	if err := t.rpc.call(ctx, method03ExtendedCard, h, req, &result); err != nil {
		return nil, err
	}
	card, err := ParseCompatCard(result)
	if err != nil {
		return nil, fmt.Errorf("failed to unmarshal agent card: %w", err)
	}
	return card, nil
}

// task calls a method whose result is a task.
func (t *jsonrpc03) task(ctx context.Context, method string, h http.Header, params any) (*a2a.Task, error) {
	var task v03.Task
	if err := t.rpc.call(ctx, method, h, params, &task); err != nil {
		return nil, err
	}
	return taskFrom03(&task), nil
}

// events sends a streaming request and yields the events of its answer, each a JSON-RPC response.
func (t *jsonrpc03) events(ctx context.Context, method string, h http.Header, params any) iter.Seq2[a2a.Event, error] {
	return eventStream(func() (io.ReadCloser, error) { return t.rpc.post(ctx, method, h, params, true) }, decodeFast03, decodeRPCEvent03)
}

// decodeRPCEvent03 decodes any 0.3 JSON-RPC event: a result holding a task, message or update, or
// an error.
func decodeRPCEvent03(data []byte) (a2a.Event, error) {
	result, err := rpcEventResult(data)
	if err != nil {
		return nil, err
	}
	return decodeEvent03(result)
}

// decodeEvent03 reads a 0.3 task, message or update by its kind.
func decodeEvent03(data []byte) (a2a.Event, error) {
	ev, err := v03.UnmarshalEventJSON(data)
	if err != nil {
		return nil, err
	}
	return eventFrom03(ev)
}
