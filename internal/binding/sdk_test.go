package binding

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"iter"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sync"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
)

// The agent both clients talk to: a2a-go's own server, on loopback, with an executor whose
// answer the message's text chooses.
type executor struct{}

func (executor) Execute(_ context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		text := ""
		if ec.Message != nil && len(ec.Message.Parts) > 0 {
			text = ec.Message.Parts[0].Text()
		}
		switch text {
		case "message":
			yield(a2a.NewMessage(a2a.MessageRoleAgent, a2a.NewTextPart("a message ✓")), nil)
		case "refuse":
			yield(nil, a2a.NewError(a2a.ErrUnsupportedOperation, "not today").WithDetails(map[string]any{"why": "tested"}))
		case "chunks": // a streamed answer: one artifact's text in chunks, as chunkRepeat reads them
			if !yield(a2a.NewSubmittedTask(ec, ec.Message), nil) {
				return
			}
			for i, text := range chunkTexts {
				up := a2a.NewArtifactUpdateEvent(ec, "answer", a2a.NewTextPart(text))
				up.Artifact.Name, up.Append, up.LastChunk = "answer", i > 0, i == len(chunkTexts)-1
				if !yield(up, nil) {
					return
				}
			}
			yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCompleted, nil), nil)
		default: // a task with every kind of part, in chunks
			if !yield(a2a.NewSubmittedTask(ec, ec.Message), nil) ||
				!yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateWorking, a2a.NewMessage(a2a.MessageRoleAgent, a2a.NewTextPart("working"))), nil) {
				return
			}
			first := a2a.NewArtifactUpdateEvent(ec, "art-1", a2a.NewTextPart("héllo "))
			next := a2a.NewArtifactUpdateEvent(ec, "art-1", a2a.NewTextPart("world"), a2a.NewDataPart(map[string]any{"n": 1.5}), a2a.NewRawPart([]byte{0, 1, 2}))
			next.Append, next.LastChunk = true, true
			if !yield(first, nil) || !yield(next, nil) {
				return
			}
			yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCompleted, nil), nil)
		}
	}
}

func (executor) Cancel(context.Context, *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) { yield(nil, a2a.ErrTaskNotCancelable) }
}

// startAgent serves the executor on both bindings of A2A 1.0 and of 0.3 (a2a-go's compat
// server) and returns its card.
func startAgent(t *testing.T) *a2a.AgentCard {
	t.Helper()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	card := &a2a.AgentCard{Name: "differential", Capabilities: a2a.AgentCapabilities{Streaming: true, ExtendedAgentCard: true}}
	handler := a2asrv.NewHandler(executor{}, a2asrv.WithLogger(quiet), a2asrv.WithExtendedAgentCard(&a2a.AgentCard{Name: "extended", Description: "for callers who authenticated"}))
	mux := http.NewServeMux()
	mux.Handle("/rpc", a2asrv.NewJSONRPCHandler(handler))
	mux.Handle("/rest/", http.StripPrefix("/rest", a2asrv.NewRESTHandler(handler)))
	mux.Handle("/rpc03", a2av0.NewJSONRPCHandler(handler))
	mux.Handle("/rest03/", http.StripPrefix("/rest03", a2av0.NewRESTHandler(handler)))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	card.SupportedInterfaces = []*a2a.AgentInterface{
		{URL: srv.URL + "/rpc", ProtocolBinding: a2a.TransportProtocolJSONRPC, ProtocolVersion: a2a.Version},
		{URL: srv.URL + "/rest", ProtocolBinding: a2a.TransportProtocolHTTPJSON, ProtocolVersion: a2a.Version},
		{URL: srv.URL + "/rpc03", ProtocolBinding: a2a.TransportProtocolJSONRPC, ProtocolVersion: a2av0.Version},
		{URL: srv.URL + "/rest03", ProtocolBinding: a2a.TransportProtocolHTTPJSON, ProtocolVersion: a2av0.Version},
	}
	return card
}

// tape records what the server answers to one client and replays it to the other, so both
// decode the same bytes; it keeps the requests each sent.
type tape struct {
	mu        sync.Mutex
	answers   []recorded
	requests  [2][]sentRequest // by client: 0 ours (recording), 1 a2a-go's (replaying)
	replaying bool
	next      int
}

type recorded struct {
	status int
	header http.Header
	body   []byte
}

type sentRequest struct {
	method, url string
	header      http.Header
	body        map[string]any // without the JSON-RPC id, which is random
}

func (tp *tape) RoundTrip(req *http.Request) (*http.Response, error) {
	sent := sentRequest{method: req.Method, url: req.URL.String(), header: http.Header{}}
	for _, name := range []string{"Content-Type", "Accept", "A2A-Version", "A2A-Extensions", "X-A2A-Extensions"} {
		if v := req.Header.Values(name); len(v) > 0 {
			sent.header[name] = v
		}
	}
	if req.Body != nil {
		raw, _ := io.ReadAll(req.Body)
		_ = req.Body.Close()
		if len(raw) > 0 {
			_ = json.Unmarshal(raw, &sent.body)
			delete(sent.body, "id")
		}
		req.Body = io.NopCloser(bytes.NewReader(raw))
	}
	tp.mu.Lock()
	defer tp.mu.Unlock()
	if tp.replaying {
		tp.requests[1] = append(tp.requests[1], sent)
		a := tp.answers[tp.next]
		tp.next++
		return &http.Response{StatusCode: a.status, Status: http.StatusText(a.status), Header: a.header.Clone(), Body: io.NopCloser(bytes.NewReader(a.body)), Request: req}, nil
	}
	tp.requests[0] = append(tp.requests[0], sent)
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		return nil, err
	}
	tp.answers = append(tp.answers, recorded{resp.StatusCode, resp.Header, body})
	return &http.Response{StatusCode: resp.StatusCode, Status: resp.Status, Header: resp.Header, Body: io.NopCloser(bytes.NewReader(body)), Request: req}, nil
}

// calls are what the adapter asks of an agent, each run by both clients.
type caller interface {
	SendMessage(ctx context.Context, req *a2a.SendMessageRequest) (a2a.SendMessageResult, error)
	SendStreamingMessage(ctx context.Context, req *a2a.SendMessageRequest) iter.Seq2[a2a.Event, error]
	SubscribeToTask(ctx context.Context, req *a2a.SubscribeToTaskRequest) iter.Seq2[a2a.Event, error]
	GetTask(ctx context.Context, req *a2a.GetTaskRequest) (*a2a.Task, error)
	CancelTask(ctx context.Context, req *a2a.CancelTaskRequest) (*a2a.Task, error)
	GetExtendedAgentCard(ctx context.Context, req *a2a.GetExtendedAgentCardRequest) (*a2a.AgentCard, error)
}

type outcome struct {
	results []any
	err     error
}

func message(text string) *a2a.SendMessageRequest {
	m := a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart(text))
	m.ID = "msg-" + text
	return &a2a.SendMessageRequest{Message: m}
}

func collect(seq iter.Seq2[a2a.Event, error]) outcome {
	var o outcome
	for ev, err := range seq {
		if err != nil {
			o.err = err
			break
		}
		o.results = append(o.results, ev)
	}
	return o
}

func one[T any](v T, err error) outcome {
	if err != nil {
		return outcome{err: err}
	}
	return outcome{results: []any{v}}
}

// TestAgentAgreesWithSDKClient: on every binding of both versions and every call the adapter makes, a2aport's client
// sends what a2a-go's client sends (method, URL, headers, body) and, given the same answer from
// a2a-go's server, returns the same values and the same A2A errors.
func TestAgentAgreesWithSDKClient(t *testing.T) {
	card := startAgent(t)
	ctx := context.Background()
	hist := 1
	for _, iface := range card.SupportedInterfaces {
		t.Run(string(iface.ProtocolBinding)+"/"+string(iface.ProtocolVersion), func(t *testing.T) {
			tp := &tape{}
			ours, err := NewAgent(card, iface, &Client{Transport: tp}, Config{Extensions: []string{"https://example.com/ext"}, AcceptedOutputModes: []string{"text/plain"}})
			if err != nil {
				t.Fatal(err)
			}
			only := *card
			only.SupportedInterfaces = []*a2a.AgentInterface{iface}
			sdkHTTP := &http.Client{Transport: tp}
			theirs, err := a2aclient.NewFactory(a2aclient.WithDefaultsDisabled(),
				a2aclient.WithJSONRPCTransport(sdkHTTP), a2aclient.WithRESTTransport(sdkHTTP),
				a2av0.WithJSONRPCTransport(a2av0.JSONRPCTransportConfig{Client: sdkHTTP}),
				a2av0.WithRESTTransport(a2av0.RESTTransportConfig{Client: sdkHTTP}),
				a2aclient.WithConfig(a2aclient.Config{AcceptedOutputModes: []string{"text/plain"}}),
				a2aclient.WithCallInterceptors(extensions{"https://example.com/ext"}),
			).CreateFromCard(ctx, &only)
			if err != nil {
				t.Fatal(err)
			}
			var taskID a2a.TaskID // of the streamed task, set by the first run
			calls := []struct {
				name string
				run  func(c caller) outcome
			}{
				{"send/message", func(c caller) outcome { return one(c.SendMessage(ctx, message("message"))) }},
				{"send/task", func(c caller) outcome { return one(c.SendMessage(ctx, message("task"))) }},
				{"send/refused", func(c caller) outcome { return one(c.SendMessage(ctx, message("refuse"))) }},
				{"stream/task", func(c caller) outcome {
					o := collect(c.SendStreamingMessage(ctx, message("task")))
					if len(o.results) > 0 && taskID == "" {
						taskID = o.results[0].(a2a.Event).TaskInfo().TaskID
					}
					return o
				}},
				{"stream/message", func(c caller) outcome { return collect(c.SendStreamingMessage(ctx, message("message"))) }},
				{"stream/chunks", func(c caller) outcome { return collect(c.SendStreamingMessage(ctx, message("chunks"))) }},
				{"stream/refused", func(c caller) outcome { return collect(c.SendStreamingMessage(ctx, message("refuse"))) }},
				{"get", func(c caller) outcome {
					return one(c.GetTask(ctx, &a2a.GetTaskRequest{ID: taskID, HistoryLength: &hist}))
				}},
				{"get/unknown", func(c caller) outcome { return one(c.GetTask(ctx, &a2a.GetTaskRequest{ID: "no-such-task"})) }},
				{"cancel/done", func(c caller) outcome { return one(c.CancelTask(ctx, &a2a.CancelTaskRequest{ID: taskID})) }},
				{"subscribe/done", func(c caller) outcome {
					return collect(c.SubscribeToTask(ctx, &a2a.SubscribeToTaskRequest{ID: taskID}))
				}},
				{"extended-card", func(c caller) outcome { return one(c.GetExtendedAgentCard(ctx, &a2a.GetExtendedAgentCardRequest{})) }},
			}
			for _, call := range calls {
				tp.mu.Lock()
				tp.replaying, tp.answers, tp.next, tp.requests = false, nil, 0, [2][]sentRequest{}
				tp.mu.Unlock()
				got := call.run(ours)
				tp.mu.Lock()
				tp.replaying = true
				tp.mu.Unlock()
				want := call.run(theirs)
				if !reflect.DeepEqual(tp.requests[0], tp.requests[1]) {
					t.Errorf("%s: requests differ\nours:   %+v\na2a-go: %+v", call.name, tp.requests[0], tp.requests[1])
				}
				if !reflect.DeepEqual(got.results, want.results) {
					t.Errorf("%s: results differ\nours:   %s\na2a-go: %s", call.name, dump(got.results), dump(want.results))
				}
				checkSameError(t, call.name, got.err, want.err)
			}
			if taskID == "" {
				t.Fatal("the streamed task has no id: the calls on it tested nothing")
			}
		})
	}
}

func checkSameError(t *testing.T, name string, got, want error) {
	t.Helper()
	if (got == nil) != (want == nil) {
		t.Errorf("%s: error %v, a2a-go's %v", name, got, want)
		return
	}
	var ga, wa *a2a.Error
	if errors.As(want, &wa) {
		if !errors.As(got, &ga) || !reflect.DeepEqual(ga, wa) {
			t.Errorf("%s: A2A error %#v, a2a-go's %#v", name, got, want)
		}
	}
}

func dump(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// extensions is the interceptor an a2a-go caller uses to ask for extensions.
type extensions []string

func (e extensions) Before(ctx context.Context, req *a2aclient.Request) (context.Context, any, error) {
	req.ServiceParams.Append(a2a.SvcParamExtensions, e...)
	return ctx, nil, nil
}

func (extensions) After(context.Context, *a2aclient.Response) error { return nil }
