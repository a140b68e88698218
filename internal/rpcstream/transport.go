package rpcstream

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"net/http"
	"unicode/utf8"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/google/uuid"
	"github.com/mailru/easyjson"
)

// Method names and limits as a2a-go's JSON-RPC transport uses them.
const (
	methodStream       = "SendStreamingMessage"
	methodSubscribe    = "SubscribeToTask"
	maxSSETokenSize    = 10 << 20 // a2a-go's limit for one SSE line
	contentJSON        = "application/json"
	contentEventStream = "text/event-stream"
)

// WithJSONRPCTransport is a2aclient.WithJSONRPCTransport with faster streams.
func WithJSONRPCTransport(client *http.Client) a2aclient.FactoryOption {
	return a2aclient.WithTransport(a2a.TransportProtocolJSONRPC,
		a2aclient.TransportFactoryFn(func(_ context.Context, _ *a2a.AgentCard, iface *a2a.AgentInterface) (a2aclient.Transport, error) {
			return NewJSONRPCTransport(iface.URL, client), nil
		}))
}

// NewJSONRPCTransport is a2aclient.NewJSONRPCTransport with faster streams.
func NewJSONRPCTransport(url string, client *http.Client) a2aclient.Transport {
	return &transport{Transport: a2aclient.NewJSONRPCTransport(url, client), url: url, client: client}
}

// transport is a2a-go's JSON-RPC transport but for its two streaming methods.
type transport struct {
	a2aclient.Transport
	url    string
	client *http.Client
}

// SendStreamingMessage implements a2aclient.Transport.
func (t *transport) SendStreamingMessage(ctx context.Context, params a2aclient.ServiceParams, req *a2a.SendMessageRequest) iter.Seq2[a2a.Event, error] {
	return t.stream(ctx, methodStream, params, req)
}

// SubscribeToTask implements a2aclient.Transport.
func (t *transport) SubscribeToTask(ctx context.Context, params a2aclient.ServiceParams, req *a2a.SubscribeToTaskRequest) iter.Seq2[a2a.Event, error] {
	return t.stream(ctx, methodSubscribe, params, req)
}

// stream sends the request as a2a-go does and decodes the events it gets back.
func (t *transport) stream(ctx context.Context, method string, params a2aclient.ServiceParams, payload any) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		body, err := t.send(ctx, method, params, payload)
		if err != nil {
			yield(nil, err)
			return
		}
		defer func() { _ = body.Close() }() // the stream is over either way
		for data, err := range dataEvents(body) {
			if err != nil {
				yield(nil, err)
				return
			}
			ev, ok := decodeFast(data)
			if !ok {
				// The event has arrived: decoding it is not the caller's to cancel.
				ev, err = decodeWithSDK(context.WithoutCancel(ctx), t.url, data)
			}
			if !yield(ev, err) || err != nil {
				return
			}
		}
	}
}

// send posts the JSON-RPC request with a2a-go's headers and errors.
func (t *transport) send(ctx context.Context, method string, params a2aclient.ServiceParams, payload any) (io.ReadCloser, error) {
	reqBody, err := json.Marshal(rpcRequest{JSONRPC: "2.0", Method: method, Params: payload, ID: uuid.NewString()})
	if err != nil {
		return nil, fmt.Errorf("failed to create HTTP request: failed to marshal request: %w", err)
	}
	httpReq, err := http.NewRequestWithContext(ctx, http.MethodPost, t.url, bytes.NewReader(reqBody))
	if err != nil {
		return nil, fmt.Errorf("failed to create HTTP request: failed to create HTTP request: %w", err)
	}
	httpReq.Header.Set("Content-Type", contentJSON)
	for k, vals := range params {
		for _, v := range vals {
			httpReq.Header.Add(k, v)
		}
	}
	httpReq.Header.Set("Accept", contentEventStream)
	resp, err := t.client.Do(httpReq)
	if err != nil {
		return nil, fmt.Errorf("failed to send HTTP request: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		_ = resp.Body.Close() // the status is the error
		return nil, fmt.Errorf("unexpected HTTP status: %s", resp.Status)
	}
	return resp.Body, nil
}

type rpcRequest struct {
	JSONRPC string `json:"jsonrpc"`
	Method  string `json:"method"`
	Params  any    `json:"params,omitempty"`
	ID      string `json:"id"`
}

// dataEvents yields the data of each server-sent event, by the rules a2a-go applies: "data:"
// lines (one optional space after the colon) joined by newlines, other lines ignored, a blank
// line ends an event, lines up to 10 MiB.
func dataEvents(body io.Reader) iter.Seq2[[]byte, error] {
	return func(yield func([]byte, error) bool) {
		scanner := bufio.NewScanner(body)
		scanner.Buffer(make([]byte, 0, bufio.MaxScanTokenSize), maxSSETokenSize)
		var event []byte
		for scanner.Scan() {
			line := scanner.Bytes()
			if len(line) == 0 {
				if len(event) > 0 && !yield(event, nil) {
					return
				}
				event = nil // the consumer may keep what it was given
				continue
			}
			data, ok := bytes.CutPrefix(line, []byte("data:"))
			if !ok {
				continue
			}
			data, _ = bytes.CutPrefix(data, []byte(" "))
			if len(event) > 0 {
				event = append(event, '\n')
			}
			event = append(event, data...)
		}
		if err := scanner.Err(); err != nil {
			yield(nil, fmt.Errorf("SSE stream error: %w", err))
			return
		}
		if len(event) > 0 {
			yield(event, nil)
		}
	}
}

// decodeFast decodes an artifact update of text parts; ok is false for anything else.
func decodeFast(data []byte) (a2a.Event, bool) {
	ascii := true
	for _, c := range data {
		if c < 0x20 {
			return nil, false // JSON refuses control characters in strings, easyjson does not
		}
		ascii = ascii && c < utf8.RuneSelf
	}
	var w rpcEvent
	if easyjson.Unmarshal(data, &w) != nil || w.Result == nil || w.Result.ArtifactUpdate == nil {
		return nil, false
	}
	up := w.Result.ArtifactUpdate
	art := up.Artifact
	// encoding/json replaces invalid UTF-8, easyjson keeps it: leave such events to a2a-go. ASCII
	// input (with \u escapes decoded to valid runes) has none to check.
	valid := func(s string) bool { return ascii || utf8.ValidString(s) }
	if art == nil || !valid(art.ID) || !valid(art.Name) || !valid(art.Description) || !valid(up.TaskID) || !valid(up.ContextID) {
		return nil, false
	}
	var parts a2a.ContentParts
	if art.Parts != nil {
		parts = make(a2a.ContentParts, len(art.Parts))
	}
	for i, p := range art.Parts {
		if p.Text == nil || !valid(*p.Text) || !valid(p.MediaType) || !valid(p.Filename) {
			return nil, false
		}
		parts[i] = &a2a.Part{Content: a2a.Text(*p.Text), MediaType: p.MediaType, Filename: p.Filename}
	}
	return &a2a.TaskArtifactUpdateEvent{
		TaskID: a2a.TaskID(up.TaskID), ContextID: up.ContextID, Append: up.Append, LastChunk: up.LastChunk,
		Artifact: &a2a.Artifact{ID: a2a.ArtifactID(art.ID), Name: art.Name, Description: art.Description, Parts: parts},
	}, true
}

// decodeWithSDK has a2a-go decode one event: its own transport reads the event's bytes as the
// whole stream of a request that never leaves the process.
func decodeWithSDK(ctx context.Context, url string, data []byte) (a2a.Event, error) {
	replay := &http.Client{Transport: replayedEvent(data)}
	for ev, err := range a2aclient.NewJSONRPCTransport(url, replay).SendStreamingMessage(ctx, nil, &a2a.SendMessageRequest{}) {
		return ev, err
	}
	return nil, fmt.Errorf("failed to parse SSE data: no event in %d bytes", len(data))
}

// replayedEvent answers any request with a stream of one event whose data is its bytes.
type replayedEvent []byte

func (data replayedEvent) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		_ = req.Body.Close() // an in-memory request body: nothing to report
	}
	var body bytes.Buffer
	for line := range bytes.SplitSeq(data, []byte("\n")) {
		body.WriteString("data: ")
		body.Write(line)
		body.WriteByte('\n')
	}
	body.WriteByte('\n')
	return &http.Response{StatusCode: http.StatusOK, Status: "200 OK", Header: http.Header{"Content-Type": {contentEventStream}},
		Body: io.NopCloser(&body), Request: req}, nil
}
