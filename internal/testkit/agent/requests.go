package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
)

// Request is one HTTP request received by the server.
type Request struct {
	Method string
	Path   string
	Header http.Header
	// A2AMethod is the protocol method called, named as in A2A 1.0 also for
	// 0.3 calls: "SendMessage", "SendStreamingMessage", "GetTask",
	// "CancelTask", ... It is "" for card fetches and unrecognised requests.
	A2AMethod string
	// Variant is the Name of the variant whose endpoint was hit, or "".
	Variant string
}

// A2A 1.0 method names used in [Request.A2AMethod].
const (
	methodSend      = "SendMessage"
	methodStream    = "SendStreamingMessage"
	methodGet       = "GetTask"
	methodList      = "ListTasks"
	methodCancel    = "CancelTask"
	methodSubscribe = "SubscribeToTask"
	methodPushGet   = "GetTaskPushNotificationConfig"
	methodPushSet   = "CreateTaskPushNotificationConfig"
	methodPushList  = "ListTaskPushNotificationConfigs"
	methodPushDel   = "DeleteTaskPushNotificationConfig"
	methodCard      = "GetExtendedAgentCard"
)

// jsonrpcMethods maps JSON-RPC method names of both versions to 1.0 names.
var jsonrpcMethods = map[string]string{
	methodSend: methodSend, "message/send": methodSend,
	methodStream: methodStream, "message/stream": methodStream,
	methodGet: methodGet, "tasks/get": methodGet,
	methodList: methodList, "tasks/list": methodList,
	methodCancel: methodCancel, "tasks/cancel": methodCancel,
	methodSubscribe: methodSubscribe, "tasks/resubscribe": methodSubscribe,
	methodPushGet: methodPushGet, "tasks/pushNotificationConfig/get": methodPushGet,
	methodPushSet: methodPushSet, "tasks/pushNotificationConfig/set": methodPushSet,
	methodPushList: methodPushList, "tasks/pushNotificationConfig/list": methodPushList,
	methodPushDel: methodPushDel, "tasks/pushNotificationConfig/delete": methodPushDel,
	methodCard: methodCard, "agent/getAuthenticatedExtendedCard": methodCard,
}

// maxInspectedBody caps how much of a request body is buffered to find the
// method and instruction; the rest is streamed to the handler untouched.
const maxInspectedBody = 8 << 20

// call is what the server learned about an A2A request before handling it.
type call struct {
	method      string // A2AMethod
	instruction string // first text part of the message sent, if any
}

// scenario is the lowercased first word of the instruction.
func (c call) scenario() string {
	word, _ := splitInstruction(c.instruction)
	return word
}

func (c call) sendsMessage() bool { return c.method == methodSend || c.method == methodStream }

type callKey struct{}

func callFrom(ctx context.Context) call {
	c, _ := ctx.Value(callKey{}).(call)
	return c
}

// requestLog records every request, in arrival order.
type requestLog struct {
	mu       sync.Mutex
	requests []Request
}

func (l *requestLog) add(r Request) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.requests = append(l.requests, r)
}

func (l *requestLog) all() []Request {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]Request, len(l.requests))
	for i, r := range l.requests {
		r.Header = r.Header.Clone()
		out[i] = r
	}
	return out
}

func (l *requestLog) reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.requests = nil
}

// record logs each request and attaches its call to the context, for the
// fault middleware.
func (s *Server) record(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		entry := Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone()}
		var c call
		if v, rest, ok := s.variantOf(r.URL.Path); ok {
			entry.Variant = v.Name()
			c = inspect(r, v, rest)
			entry.A2AMethod = c.method
		}
		s.requests.add(entry)
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), callKey{}, c)))
	})
}

// inspect identifies the A2A call r makes on variant v, where rest is the
// path below the variant's prefix. It restores the body it reads.
func inspect(r *http.Request, v Variant, rest string) call {
	var c call
	if v.Binding == bindingJSONRPC {
		if r.Method != http.MethodPost {
			return c
		}
		var envelope struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if json.Unmarshal(peekBody(r), &envelope) != nil {
			return c
		}
		c.method = jsonrpcMethods[envelope.Method]
		if c.sendsMessage() {
			c.instruction = instructionOf(envelope.Params)
		}
		return c
	}

	if v.Version == version03 {
		rest = strings.TrimPrefix(rest, "/v1") // 0.3 REST paths live under /v1
	}
	c.method = restMethod(r.Method, rest)
	if c.sendsMessage() {
		c.instruction = instructionOf(peekBody(r))
	}
	return c
}

// restMethod maps an HTTP+JSON route to its A2A method.
func restMethod(httpMethod, path string) string {
	switch {
	case path == "/message:send" && httpMethod == http.MethodPost:
		return methodSend
	case path == "/message:stream" && httpMethod == http.MethodPost:
		return methodStream
	case path == "/tasks" && httpMethod == http.MethodGet:
		return methodList
	case (path == "/extendedAgentCard" || path == "/card") && httpMethod == http.MethodGet:
		return methodCard
	case !strings.HasPrefix(path, "/tasks/"):
		return ""
	}
	task, configs, hasConfigs := strings.Cut(strings.TrimPrefix(path, "/tasks/"), "/pushNotificationConfigs")
	switch {
	case hasConfigs && httpMethod == http.MethodPost:
		return methodPushSet
	case hasConfigs && httpMethod == http.MethodDelete:
		return methodPushDel
	case hasConfigs && httpMethod == http.MethodGet && configs == "":
		return methodPushList
	case hasConfigs && httpMethod == http.MethodGet:
		return methodPushGet
	case strings.HasSuffix(task, ":cancel") && httpMethod == http.MethodPost:
		return methodCancel
	case strings.HasSuffix(task, ":subscribe"):
		return methodSubscribe
	case httpMethod == http.MethodGet:
		return methodGet
	}
	return ""
}

// instructionOf finds the first text part of the message in a send
// request's params. It accepts both the 1.0 and 0.3 JSON shapes: parts
// under "parts", or under "content" in 0.3 proto JSON (HTTP+JSON).
func instructionOf(params []byte) string {
	type part struct {
		Text *string `json:"text"`
	}
	var req struct {
		Message struct {
			Parts   []part `json:"parts"`
			Content []part `json:"content"`
		} `json:"message"`
	}
	if json.Unmarshal(params, &req) != nil {
		return ""
	}
	for _, p := range append(req.Message.Parts, req.Message.Content...) {
		if p.Text != nil {
			return *p.Text
		}
	}
	return ""
}

// peekBody returns the start of r's body and puts it back for the handler.
func peekBody(r *http.Request) []byte {
	if r.Body == nil {
		return nil
	}
	head, _ := io.ReadAll(io.LimitReader(r.Body, maxInspectedBody))
	r.Body = readCloser{io.MultiReader(bytes.NewReader(head), r.Body), r.Body}
	return head
}

// readCloser replays a buffered body while closing the original one.
type readCloser struct {
	io.Reader
	io.Closer
}
