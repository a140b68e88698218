package binding

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"mime"
	"net/http"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/google/uuid"
)

// JSON-RPC method names (A2A 1.0 §9.4) and the SSE line limit a2a-go applies.
const (
	methodSend         = "SendMessage"
	methodStream       = "SendStreamingMessage"
	methodGetTask      = "GetTask"
	methodCancelTask   = "CancelTask"
	methodSubscribe    = "SubscribeToTask"
	methodExtendedCard = "GetExtendedAgentCard"

	maxSSETokenSize    = 10 << 20
	contentJSON        = "application/json"
	contentA2AJSON     = "application/a2a+json" // HTTP+JSON's own (A2A §11.1), which some servers answer with
	contentEventStream = "text/event-stream"
	// maxErrorBody bounds the JSON error read in place of a stream.
	maxErrorBody = 1 << 20
)

// jsonrpc is the JSON-RPC binding of the agent at url.
type jsonrpc struct {
	url    string
	client *Client
}

type rpcRequest struct {
	JSONRPC string `json:"jsonrpc"`
	Method  string `json:"method"`
	Params  any    `json:"params,omitempty"`
	ID      string `json:"id"`
}

type rpcResponse struct {
	Result json.RawMessage `json:"result,omitempty"`
	Error  *rpcError       `json:"error,omitempty"`
}

// post sends one JSON-RPC request; the body of a 200 answer is the caller's to close.
func (t *jsonrpc) post(ctx context.Context, method string, h http.Header, payload any, stream bool) (io.ReadCloser, error) {
	body, err := json.Marshal(rpcRequest{JSONRPC: "2.0", Method: method, Params: payload, ID: uuid.NewString()})
	if err != nil {
		return nil, fmt.Errorf("failed to create HTTP request: failed to marshal request: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.url, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("failed to create HTTP request: %w", err)
	}
	req.Header.Set("Content-Type", contentJSON)
	addHeader(req, h)
	if stream {
		req.Header.Set("Accept", contentEventStream)
	}
	resp, err := t.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("failed to send HTTP request: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		closeBody(resp) // the status is the error
		return nil, fmt.Errorf("unexpected HTTP status: %s", statusOf(resp))
	}
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); stream && mt == contentJSON {
		// An error answered before any stream started (a2aport's facade does so for a client
		// that takes JSON, @a2a-js/sdk's server too): one JSON-RPC response, not events.
		defer closeBody(resp)
		var answer rpcResponse
		if err := json.NewDecoder(io.LimitReader(resp.Body, maxErrorBody)).Decode(&answer); err != nil {
			return nil, fmt.Errorf("failed to decode response: %w", err)
		}
		if answer.Error != nil {
			return nil, answer.Error.a2aError()
		}
		return nil, fmt.Errorf("%w: a streaming call was answered with one JSON result, not an event stream", a2a.ErrInvalidAgentResponse)
	}
	return resp.Body, nil
}

// call sends a request and decodes its result into out (nil: the result is not read).
func (t *jsonrpc) call(ctx context.Context, method string, h http.Header, payload, out any) error {
	body, err := t.post(ctx, method, h, payload, false)
	if err != nil {
		return err
	}
	defer func() { _ = body.Close() }() // read to the end or failed either way
	var resp rpcResponse
	if err := json.NewDecoder(body).Decode(&resp); err != nil {
		return fmt.Errorf("failed to decode response: %w", err)
	}
	if resp.Error != nil {
		return resp.Error.a2aError()
	}
	if out == nil {
		return nil
	}
	if err := unmarshal10(resp.Result, out); err != nil {
		return fmt.Errorf("failed to unmarshal result: %w", err)
	}
	return nil
}

// events sends a streaming request and yields the events of its answer.
func (t *jsonrpc) events(ctx context.Context, method string, h http.Header, payload any) iter.Seq2[a2a.Event, error] {
	return eventStream(func() (io.ReadCloser, error) { return t.post(ctx, method, h, payload, true) }, decodeFast, decodeRPCEvent)
}

// decodeRPCEvent decodes any JSON-RPC event: a result holding a stream response, or an error.
func decodeRPCEvent(data []byte) (a2a.Event, error) {
	result, err := rpcEventResult(data)
	if err != nil {
		return nil, err
	}
	var sr a2a.StreamResponse
	if err := unmarshal10(result, &sr); err != nil {
		return nil, err
	}
	return sr.Event, nil
}

// rpcEventResult is the result of the JSON-RPC response an SSE event holds, or its error.
func rpcEventResult(data []byte) (json.RawMessage, error) {
	var resp rpcResponse
	if err := json.Unmarshal(data, &resp); err != nil {
		return nil, fmt.Errorf("failed to parse SSE data: %w", err)
	}
	if resp.Error != nil {
		return nil, resp.Error.a2aError()
	}
	return resp.Result, nil
}

func (t *jsonrpc) send(ctx context.Context, h http.Header, req *a2a.SendMessageRequest) (a2a.SendMessageResult, error) {
	var result json.RawMessage
	if err := t.call(ctx, methodSend, h, req, &result); err != nil {
		return nil, err
	}
	return sendResult(result)
}

func (t *jsonrpc) stream(ctx context.Context, h http.Header, req *a2a.SendMessageRequest) iter.Seq2[a2a.Event, error] {
	return t.events(ctx, methodStream, h, req)
}

func (t *jsonrpc) subscribe(ctx context.Context, h http.Header, req *a2a.SubscribeToTaskRequest) iter.Seq2[a2a.Event, error] {
	return t.events(ctx, methodSubscribe, h, req)
}

func (t *jsonrpc) getTask(ctx context.Context, h http.Header, req *a2a.GetTaskRequest) (*a2a.Task, error) {
	var task a2a.Task
	if err := t.call(ctx, methodGetTask, h, req, &task); err != nil {
		return nil, err
	}
	return &task, nil
}

func (t *jsonrpc) cancelTask(ctx context.Context, h http.Header, req *a2a.CancelTaskRequest) (*a2a.Task, error) {
	var task a2a.Task
	if err := t.call(ctx, methodCancelTask, h, req, &task); err != nil {
		return nil, err
	}
	return &task, nil
}

func (t *jsonrpc) extendedCard(ctx context.Context, h http.Header, req *a2a.GetExtendedAgentCardRequest) (*a2a.AgentCard, error) {
	var card a2a.AgentCard
	if err := t.call(ctx, methodExtendedCard, h, req, &card); err != nil {
		return nil, err
	}
	return &card, nil
}

// sendResult is SendMessage's result: a task or a message.
func sendResult(result json.RawMessage) (a2a.SendMessageResult, error) {
	ev, ok := decodeFastREST(result) // a SendMessage result has a stream response's shape
	if !ok {
		var sr a2a.StreamResponse
		if err := unmarshal10(result, &sr); err != nil {
			return nil, fmt.Errorf("result violates A2A spec - could not determine type: %w; data: %s", err, string(result))
		}
		ev = sr.Event
	}
	switch ev := ev.(type) {
	case *a2a.Task:
		return ev, nil
	case *a2a.Message:
		return ev, nil
	default:
		return nil, fmt.Errorf("result violates A2A spec - expected Task or Message, got %T: %s", ev, string(result))
	}
}

// addHeader adds the headers every call of an Agent carries (A2A-Version, A2A-Extensions).
func addHeader(req *http.Request, h http.Header) {
	for name, values := range h {
		for _, v := range values {
			req.Header.Add(name, v)
		}
	}
}

// statusOf is resp's status line as http.Client gives it ("404 Not Found").
func statusOf(resp *http.Response) string {
	if resp.Status != "" {
		return resp.Status
	}
	return fmt.Sprintf("%d %s", resp.StatusCode, http.StatusText(resp.StatusCode))
}
