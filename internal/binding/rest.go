package binding

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"net/http"
	"net/url"
	"strconv"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// rest is the HTTP+JSON binding of the agent at base.
type rest struct {
	base   *url.URL
	client *Client
}

// restCall is one HTTP+JSON request: path is below the interface URL (and its tenant), with an
// optional query; payload, when not nil, is the JSON body.
type restCall struct {
	method  string
	path    string
	tenant  string
	header  http.Header
	payload any
}

// request sends c; the body of a 200 answer is the caller's to close, any other is the A2A error it
// holds.
func (t *rest) request(ctx context.Context, c restCall, stream bool) (io.ReadCloser, error) {
	var body io.Reader
	var payload []byte
	if c.payload != nil {
		var err error
		if payload, err = json.Marshal(c.payload); err != nil {
			return nil, fmt.Errorf("failed to marshal request: %w: %w", err, a2a.ErrInvalidRequest)
		}
		body = bytes.NewReader(payload)
	}
	rel, err := url.Parse(c.path)
	if err != nil {
		return nil, fmt.Errorf("failed to parse path: %w", err)
	}
	u := t.base.JoinPath(rel.Path)
	if c.tenant != "" {
		u = t.base.JoinPath(c.tenant, rel.Path)
	}
	u.RawQuery = rel.RawQuery
	req, err := http.NewRequestWithContext(ctx, c.method, u.String(), body)
	if err != nil {
		return nil, fmt.Errorf("failed to create HTTP request: %w", err)
	}
	if len(payload) > 0 {
		req.Header.Set("Content-Type", contentJSON)
	}
	if stream {
		req.Header.Set("Accept", contentEventStream)
	} else {
		req.Header.Set("Accept", contentJSON)
	}
	addHeader(req, c.header)
	resp, err := t.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("failed to send HTTP request: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		defer closeBody(resp)
		return nil, restError(resp)
	}
	return resp.Body, nil
}

// do sends c and decodes the answer into out (nil: the answer is not read).
func (t *rest) do(ctx context.Context, c restCall, out any) error {
	body, err := t.request(ctx, c, false)
	if err != nil {
		return err
	}
	defer func() { _ = body.Close() }() // read to the end or failed either way
	if out == nil {
		return nil
	}
	data, err := io.ReadAll(body) // bounded by the client's transport (MaxResponseBytes); kept to read 0.3-shaped parts again
	if err != nil {
		return fmt.Errorf("failed to decode response: %w", err)
	}
	if err := decodeFirst10(data, out); err != nil {
		return fmt.Errorf("failed to decode response: %w", err)
	}
	return nil
}

// events sends c and yields the events of its answer.
func (t *rest) events(ctx context.Context, c restCall) iter.Seq2[a2a.Event, error] {
	return eventStream(func() (io.ReadCloser, error) { return t.request(ctx, c, true) }, decodeFastREST, decodeRESTEvent)
}

// restEvent is an HTTP+JSON stream response: exactly one of its fields is set.
type restEvent struct {
	Message        *a2a.Message                 `json:"message,omitempty"`
	Task           *a2a.Task                    `json:"task,omitempty"`
	StatusUpdate   *a2a.TaskStatusUpdateEvent   `json:"statusUpdate,omitempty"`
	ArtifactUpdate *a2a.TaskArtifactUpdateEvent `json:"artifactUpdate,omitempty"`
	Error          *statusBody                  `json:"error,omitempty"`
}

// decodeRESTEvent decodes any HTTP+JSON event.
func decodeRESTEvent(data []byte) (a2a.Event, error) {
	var e restEvent
	if err := unmarshal10(data, &e); err != nil {
		return nil, fmt.Errorf("failed to unmarshal stream response: %w", err)
	}
	var ev a2a.Event
	n := 0
	if e.Message != nil {
		ev, n = e.Message, n+1
	}
	if e.Task != nil {
		ev, n = e.Task, n+1
	}
	if e.StatusUpdate != nil {
		ev, n = e.StatusUpdate, n+1
	}
	if e.ArtifactUpdate != nil {
		ev, n = e.ArtifactUpdate, n+1
	}
	if e.Error != nil {
		n++
	}
	switch {
	case n == 0:
		return nil, fmt.Errorf("unknown stream response type")
	case n > 1:
		return nil, fmt.Errorf("expected exactly one stream response type, got %d", n)
	case e.Error != nil:
		return nil, e.Error.a2aError()
	}
	return ev, nil
}

func (t *rest) send(ctx context.Context, h http.Header, req *a2a.SendMessageRequest) (a2a.SendMessageResult, error) {
	var result json.RawMessage
	if err := t.do(ctx, restCall{method: http.MethodPost, path: "/message:send", tenant: req.Tenant, header: h, payload: req}, &result); err != nil {
		return nil, err
	}
	return sendResult(result)
}

func (t *rest) stream(ctx context.Context, h http.Header, req *a2a.SendMessageRequest) iter.Seq2[a2a.Event, error] {
	return t.events(ctx, restCall{method: http.MethodPost, path: "/message:stream", tenant: req.Tenant, header: h, payload: req})
}

func (t *rest) subscribe(ctx context.Context, h http.Header, req *a2a.SubscribeToTaskRequest) iter.Seq2[a2a.Event, error] {
	return t.events(ctx, restCall{method: http.MethodPost, path: "/tasks/" + string(req.ID) + ":subscribe", tenant: req.Tenant, header: h})
}

func (t *rest) getTask(ctx context.Context, h http.Header, req *a2a.GetTaskRequest) (*a2a.Task, error) {
	q := url.Values{}
	if req.HistoryLength != nil {
		q.Add("historyLength", strconv.Itoa(*req.HistoryLength))
	}
	var task a2a.Task
	if err := t.do(ctx, restCall{method: http.MethodGet, path: withQuery("/tasks/"+string(req.ID), q), tenant: req.Tenant, header: h}, &task); err != nil {
		return nil, err
	}
	return &task, nil
}

func (t *rest) cancelTask(ctx context.Context, h http.Header, req *a2a.CancelTaskRequest) (*a2a.Task, error) {
	var task a2a.Task
	if err := t.do(ctx, restCall{method: http.MethodPost, path: "/tasks/" + string(req.ID) + ":cancel", tenant: req.Tenant, header: h}, &task); err != nil {
		return nil, err
	}
	return &task, nil
}

func (t *rest) extendedCard(ctx context.Context, h http.Header, req *a2a.GetExtendedAgentCardRequest) (*a2a.AgentCard, error) {
	var card a2a.AgentCard
	if err := t.do(ctx, restCall{method: http.MethodGet, path: "/extendedAgentCard", tenant: req.Tenant, header: h}, &card); err != nil {
		return nil, err
	}
	return &card, nil
}

func withQuery(path string, q url.Values) string {
	if encoded := q.Encode(); encoded != "" {
		return path + "?" + encoded
	}
	return path
}
