package binding

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"net/http"
	"net/url"
	"strconv"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2apb/v0/pbjson"
)

// rest03Prefix is where A2A 0.3's HTTP+JSON paths start, below the interface URL.
const rest03Prefix = "/v1"

// rest03 is the HTTP+JSON binding of a 0.3 interface: 1.0's HTTP and errors, with 0.3's paths
// and objects, which are the protobuf JSON of 0.3's gRPC messages ("ROLE_USER", a message's
// "content"). a2a-go's pbjson reads and writes them with encoding/json alone.
type rest03 struct{ rest rest }

func (t *rest03) send(ctx context.Context, h http.Header, req *a2a.SendMessageRequest) (a2a.SendMessageResult, error) {
	body, err := pbjson.ToProtoSendMessageRequest(req)
	if err != nil {
		return nil, fmt.Errorf("failed to marshal SendMessageRequest: %w", err)
	}
	var result json.RawMessage
	if err := t.rest.do(ctx, restCall{method: http.MethodPost, path: rest03Prefix + "/message:send", header: h, payload: json.RawMessage(body)}, &result); err != nil {
		return nil, err
	}
	return pbjson.FromProtoSendMessageResponse(result)
}

func (t *rest03) stream(ctx context.Context, h http.Header, req *a2a.SendMessageRequest) iter.Seq2[a2a.Event, error] {
	body, err := pbjson.ToProtoSendMessageRequest(req)
	if err != nil {
		return func(yield func(a2a.Event, error) bool) {
			yield(nil, fmt.Errorf("failed to marshal SendMessageRequest: %w", err))
		}
	}
	return t.events(ctx, restCall{method: http.MethodPost, path: rest03Prefix + "/message:stream", header: h, payload: json.RawMessage(body)})
}

func (t *rest03) subscribe(ctx context.Context, h http.Header, req *a2a.SubscribeToTaskRequest) iter.Seq2[a2a.Event, error] {
	return t.events(ctx, restCall{method: http.MethodGet, path: rest03Prefix + "/tasks/" + string(req.ID) + ":subscribe", header: h})
}

func (t *rest03) getTask(ctx context.Context, h http.Header, req *a2a.GetTaskRequest) (*a2a.Task, error) {
	q := url.Values{}
	if req.HistoryLength != nil {
		q.Set("historyLength", strconv.Itoa(*req.HistoryLength))
	}
	return t.task(ctx, restCall{method: http.MethodGet, path: withQuery(rest03Prefix+"/tasks/"+string(req.ID), q), header: h})
}

func (t *rest03) cancelTask(ctx context.Context, h http.Header, req *a2a.CancelTaskRequest) (*a2a.Task, error) {
	return t.task(ctx, restCall{method: http.MethodPost, path: rest03Prefix + "/tasks/" + string(req.ID) + ":cancel", header: h})
}

func (t *rest03) extendedCard(ctx context.Context, h http.Header, _ *a2a.GetExtendedAgentCardRequest) (*a2a.AgentCard, error) {
	var body json.RawMessage
	if err := t.rest.do(ctx, restCall{method: http.MethodGet, path: rest03Prefix + "/card", header: h}, &body); err != nil {
		return nil, err
	}
	card, err := ParseCompatCard(body)
	if err != nil {
		return nil, fmt.Errorf("failed to parse agent card: %w", err)
	}
	return card, nil
}

// task makes a call whose answer is a task.
func (t *rest03) task(ctx context.Context, c restCall) (*a2a.Task, error) {
	var body json.RawMessage
	if err := t.rest.do(ctx, c, &body); err != nil {
		return nil, err
	}
	return pbjson.FromProtoTask(body)
}

// events sends c and yields the events of its answer.
func (t *rest03) events(ctx context.Context, c restCall) iter.Seq2[a2a.Event, error] {
	return eventStream(func() (io.ReadCloser, error) { return t.rest.request(ctx, c, true) }, noFastPath, decodeREST03Event)
}

// decodeREST03Event reads one event of a 0.3 HTTP+JSON stream: a stream response, or an error.
func decodeREST03Event(data []byte) (a2a.Event, error) {
	var failed struct {
		Error *statusBody `json:"error"`
	}
	if json.Unmarshal(data, &failed) == nil && failed.Error != nil {
		return nil, failed.Error.a2aError()
	}
	ev, err := pbjson.FromProtoStreamEvent(data)
	if err != nil {
		return nil, fmt.Errorf("failed to unmarshal SSE event: %w", err)
	}
	return ev, nil
}

// noFastPath leaves every event to the full decoder: 0.3's HTTP+JSON events are proto JSON,
// rarer than its JSON-RPC ones.
func noFastPath([]byte) (a2a.Event, bool) { return nil, false }
