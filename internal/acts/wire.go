package acts

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// Exchange is one HTTP request and what came back, kept for failure reports.
type Exchange struct {
	Method      string
	URL         string
	ReqHeaders  http.Header
	ReqBody     string
	Status      int
	ContentType string
	RespBody    string // the body, or the SSE data lines joined by newlines
	Err         error  // transport failure (no HTTP answer)
}

func (x *Exchange) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "sent %s %s", x.Method, x.URL)
	if v := x.ReqHeaders.Get("A2A-Version"); v != "" {
		fmt.Fprintf(&b, " (A2A-Version: %s)", v)
	}
	if x.ReqBody != "" {
		fmt.Fprintf(&b, " body %s", clip(x.ReqBody, 600))
	}
	if x.Err != nil {
		fmt.Fprintf(&b, "; transport error: %v", x.Err)
		return b.String()
	}
	fmt.Fprintf(&b, "; got HTTP %d %s %s", x.Status, x.ContentType, clip(x.RespBody, 900))
	return b.String()
}

func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// A2AError is an error answer in the A2A model: its abstract type (A2A spec §3.3.2, §5.4)
// and the binding's own representation.
type A2AError struct {
	Type       string // e.g. TaskNotFoundError; "" when the answer could not be read as an A2A error
	RPCCode    int    // JSON-RPC error.code, 0 for HTTP+JSON
	HTTPStatus int
	Message    string
	Reason     string // google.rpc.ErrorInfo reason, if any
	Data       any    // JSON-RPC error.data, or HTTP+JSON error.details
	Body       any    // the whole error body
}

// view is what expect_error and "error" assertions see.
func (e *A2AError) view() map[string]any {
	v := map[string]any{
		"code":        e.Type,
		"error_type":  e.Type,
		"http_status": float64(e.HTTPStatus),
		"message":     e.Message,
	}
	if e.RPCCode != 0 {
		v["rpc_code"] = float64(e.RPCCode)
	}
	if e.Reason != "" {
		v["reason"] = e.Reason
	}
	if e.Data != nil {
		v["data"] = e.Data
		v["details"] = e.Data
	}
	return v
}

// rpcTypes maps JSON-RPC codes to A2A error types: A2A spec §5.4 and §9.5.
var rpcTypes = map[int]string{
	-32001: "TaskNotFoundError",
	-32002: "TaskNotCancelableError",
	-32003: "PushNotificationNotSupportedError",
	-32004: "UnsupportedOperationError",
	-32005: "ContentTypeNotSupportedError",
	-32006: "InvalidAgentResponseError",
	-32007: "ExtendedAgentCardNotConfiguredError",
	-32008: "ExtensionSupportRequiredError",
	-32009: "VersionNotSupportedError",
	-32700: "JSONParseError",
	-32600: "InvalidRequestError",
	-32601: "MethodNotFoundError",
	-32602: "InvalidParamsError",
	-32603: "InternalError",
}

// typeAliases are ACTS error names (ACTS §6.2) for what the A2A spec calls otherwise.
var typeAliases = map[string]string{
	"ExtendedCardNotSupportedError": "ExtendedAgentCardNotConfiguredError",
}

// reasonType turns an ErrorInfo reason (TASK_NOT_FOUND) into the type (TaskNotFoundError), A2A
// spec §11.6.
func reasonType(reason string) string {
	var b strings.Builder
	for _, w := range strings.Split(strings.ToLower(reason), "_") {
		if w != "" {
			b.WriteString(strings.ToUpper(w[:1]) + w[1:])
		}
	}
	return b.String() + "Error"
}

// httpTypes is the fallback for an HTTP+JSON error without ErrorInfo (A2A spec §5.4, plus
// the generic statuses).
var httpTypes = map[int]string{
	400: "InvalidParamsError",
	401: "UnauthenticatedError",
	403: "UnauthorizedError",
	404: "TaskNotFoundError",
	405: "MethodNotFoundError",
	415: "ContentTypeNotSupportedError",
	500: "InternalError",
	501: "UnsupportedOperationError",
}

// errorInfo finds a google.rpc.ErrorInfo among error details and returns its reason.
func errorInfo(details any) string {
	arr, _ := details.([]any)
	for _, d := range arr {
		if m, ok := d.(map[string]any); ok {
			if t, _ := m["@type"].(string); strings.HasSuffix(t, "google.rpc.ErrorInfo") {
				r, _ := m["reason"].(string)
				return r
			}
		}
	}
	return ""
}

// rpcError reads a JSON-RPC error object.
func rpcError(obj map[string]any, status int, body any) *A2AError {
	code, _ := number(obj["code"])
	msg, _ := obj["message"].(string)
	e := &A2AError{RPCCode: int(code), HTTPStatus: status, Message: msg, Data: obj["data"], Body: body}
	e.Reason = errorInfo(obj["data"])
	e.Type = rpcTypes[e.RPCCode]
	if e.Type == "" && e.Reason != "" {
		e.Type = reasonType(e.Reason)
	}
	return e
}

// restError reads an HTTP+JSON error answer: google.rpc.Status in {"error": ...} (A2A spec
// §11.6), or anything else (an RFC 7807 problem, plain text) by its HTTP status.
func restError(status int, body any) *A2AError {
	e := &A2AError{HTTPStatus: status, Body: body}
	if m, ok := body.(map[string]any); ok {
		if inner, ok := m["error"].(map[string]any); ok {
			e.Message, _ = inner["message"].(string)
			e.Data = inner["details"]
		} else {
			// RFC 7807 and other shapes: take what reads as a message.
			for _, k := range []string{"message", "detail", "title"} {
				if s, ok := m[k].(string); ok && e.Message == "" {
					e.Message = s
				}
			}
			e.Data = m["details"]
		}
	} else if s, ok := body.(string); ok {
		e.Message = strings.TrimSpace(s)
	}
	e.Reason = errorInfo(e.Data)
	if e.Reason != "" {
		e.Type = reasonType(e.Reason)
	} else {
		e.Type = httpTypes[status]
	}
	return e
}

// Result is the outcome of one operation or raw request.
type Result struct {
	HTTPStatus int
	Header     http.Header
	Body       any   // the parsed body (raw steps), or the unwrapped A2A object (operations)
	Events     []any // stream events: StreamResponse objects (operations) or envelopes (raw)
	Streamed   bool
	Err        *A2AError // an error answer (also one carried by a stream)
	Exchange   *Exchange
}

// client sends A2A requests over one binding.
type client struct {
	http    *http.Client
	version string // A2A-Version header
	token   string
}

// do sends one HTTP request. stream says to read an SSE answer (if one comes) until it ends
// or the deadline passes.
func (c *client) do(ctx context.Context, method, target string, headers map[string]string, body []byte) (*Result, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, target, rd)
	if err != nil {
		return nil, err
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	x := &Exchange{Method: method, URL: target, ReqHeaders: req.Header, ReqBody: string(body)}
	res := &Result{Exchange: x}
	resp, err := c.http.Do(req)
	if err != nil {
		x.Err = err
		return res, nil
	}
	defer resp.Body.Close()
	res.HTTPStatus, res.Header = resp.StatusCode, resp.Header
	x.Status, x.ContentType = resp.StatusCode, resp.Header.Get("Content-Type")
	if strings.HasPrefix(strings.ToLower(x.ContentType), "text/event-stream") {
		res.Streamed = true
		var lines []string
		err := readSSE(resp.Body, func(data string) {
			lines = append(lines, data)
			var v any
			if json.Unmarshal([]byte(data), &v) != nil {
				v = data
			}
			res.Events = append(res.Events, v)
		})
		x.RespBody = strings.Join(lines, "\n")
		if err != nil && ctx.Err() == nil {
			x.Err = fmt.Errorf("stream: %w", err)
		}
		return res, nil
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	x.RespBody = string(data)
	if err != nil {
		x.Err = err
	}
	var v any
	if len(bytes.TrimSpace(data)) == 0 {
		v = nil
	} else if json.Unmarshal(data, &v) != nil {
		v = string(data)
	}
	res.Body = v
	return res, nil
}

// readSSE calls fn with the data of every event (data lines joined by newlines).
func readSSE(r io.Reader, fn func(string)) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	var data []string
	flush := func() {
		if len(data) > 0 {
			fn(strings.Join(data, "\n"))
			data = nil
		}
	}
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			flush()
		case strings.HasPrefix(line, ":"):
		case strings.HasPrefix(line, "data:"):
			data = append(data, strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "))
		}
	}
	flush()
	return sc.Err()
}

// operation names: the ACTS §4.1 list, and the names the suite's files use for the push
// configuration operations.
var opAliases = map[string]string{
	"set_push_notification_config":    "create_push_config",
	"create_push_notification_config": "create_push_config",
	"get_push_notification_config":    "get_push_config",
	"list_push_notification_configs":  "list_push_configs",
	"delete_push_notification_config": "delete_push_config",
}

var rpcMethods = map[string]string{
	"send_message":            "SendMessage",
	"send_streaming_message":  "SendStreamingMessage",
	"get_task":                "GetTask",
	"list_tasks":              "ListTasks",
	"cancel_task":             "CancelTask",
	"subscribe_to_task":       "SubscribeToTask",
	"get_extended_agent_card": "GetExtendedAgentCard",
	"create_push_config":      "CreateTaskPushNotificationConfig",
	"get_push_config":         "GetTaskPushNotificationConfig",
	"list_push_configs":       "ListTaskPushNotificationConfigs",
	"delete_push_config":      "DeleteTaskPushNotificationConfig",
}

func streaming(op string) bool { return op == "send_streaming_message" || op == "subscribe_to_task" }

// wireParams turns ACTS abstract params (ACTS §4.3) into the A2A 1.0 request object.
func wireParams(op string, p map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range p {
		out[k] = v
	}
	switch op {
	case "create_push_config":
		// TaskPushNotificationConfig is flat in A2A 1.0: {taskId, id, url, token, authentication}.
		if cfg, ok := out["pushNotificationConfig"].(map[string]any); ok {
			delete(out, "pushNotificationConfig")
			for k, v := range cfg {
				out[k] = v
			}
		}
	case "list_tasks":
		if c, ok := out["cursor"]; ok {
			delete(out, "cursor")
			out["pageToken"] = c
		}
	}
	return out
}

// callRPC sends an operation over JSON-RPC to endpoint.
func (c *client) callRPC(ctx context.Context, endpoint, op string, params map[string]any, id int) (*Result, error) {
	method, ok := rpcMethods[op]
	if !ok {
		return nil, fmt.Errorf("operation %q has no JSON-RPC method", op)
	}
	env := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if op != "get_extended_agent_card" || len(params) > 0 {
		env["params"] = wireParams(op, params)
	}
	body, err := json.Marshal(env)
	if err != nil {
		return nil, err
	}
	h := c.headers()
	h["Content-Type"] = "application/json"
	if streaming(op) {
		h["Accept"] = "text/event-stream"
	}
	res, err := c.do(ctx, http.MethodPost, endpoint, h, body)
	if err != nil || res.Exchange.Err != nil && !res.Streamed {
		return res, err
	}
	if res.Streamed {
		var events []any
		for _, ev := range res.Events {
			m, _ := ev.(map[string]any)
			if e, ok := m["error"].(map[string]any); ok {
				res.Err = rpcError(e, res.HTTPStatus, m)
				break
			}
			events = append(events, m["result"])
		}
		res.Events = events
		return res, nil
	}
	m, ok := res.Body.(map[string]any)
	if !ok {
		res.Err = &A2AError{HTTPStatus: res.HTTPStatus, Message: fmt.Sprintf("not a JSON-RPC answer: %s", clip(res.Exchange.RespBody, 200)), Body: res.Body}
		return res, nil
	}
	if e, ok := m["error"].(map[string]any); ok {
		res.Err = rpcError(e, res.HTTPStatus, m)
		return res, nil
	}
	res.Body = m["result"]
	return res, nil
}

// callREST sends an operation over HTTP+JSON below base (A2A spec §11.3).
func (c *client) callREST(ctx context.Context, base, op string, params map[string]any) (*Result, error) {
	p := wireParams(op, params)
	str := func(k string) string { s, _ := p[k].(string); return url.PathEscape(s) }
	q := url.Values{}
	var method, path string
	var body any
	switch op {
	case "send_message":
		method, path, body = http.MethodPost, "/message:send", p
	case "send_streaming_message":
		method, path, body = http.MethodPost, "/message:stream", p
	case "get_task":
		method, path = http.MethodGet, "/tasks/"+str("id")
		if v, ok := p["historyLength"]; ok {
			q.Set("historyLength", fmt.Sprint(v))
		}
	case "list_tasks":
		method, path = http.MethodGet, "/tasks"
		for k, v := range p {
			q.Set(k, fmt.Sprint(v))
		}
	case "cancel_task":
		method, path = http.MethodPost, "/tasks/"+str("id")+":cancel"
	case "subscribe_to_task":
		method, path = http.MethodPost, "/tasks/"+str("id")+":subscribe"
	case "get_extended_agent_card":
		method, path = http.MethodGet, "/extendedAgentCard"
	case "create_push_config":
		method, path, body = http.MethodPost, "/tasks/"+str("taskId")+"/pushNotificationConfigs", p
	case "get_push_config":
		method, path = http.MethodGet, "/tasks/"+str("taskId")+"/pushNotificationConfigs/"+str("id")
	case "list_push_configs":
		method, path = http.MethodGet, "/tasks/"+str("taskId")+"/pushNotificationConfigs"
	case "delete_push_config":
		method, path = http.MethodDelete, "/tasks/"+str("taskId")+"/pushNotificationConfigs/"+str("id")
	default:
		return nil, fmt.Errorf("operation %q has no HTTP+JSON route", op)
	}
	target := strings.TrimSuffix(base, "/") + path
	if len(q) > 0 {
		target += "?" + q.Encode()
	}
	h := c.headers()
	var raw []byte
	if body != nil {
		var err error
		if raw, err = json.Marshal(body); err != nil {
			return nil, err
		}
		h["Content-Type"] = "application/json"
	}
	if streaming(op) {
		h["Accept"] = "text/event-stream"
	}
	res, err := c.do(ctx, method, target, h, raw)
	if err != nil || res.Exchange.Err != nil && !res.Streamed {
		return res, err
	}
	if res.Streamed {
		var events []any
		for _, ev := range res.Events {
			if m, ok := ev.(map[string]any); ok {
				if _, isErr := m["error"]; isErr && len(m) == 1 {
					res.Err = restError(res.HTTPStatus, m)
					break
				}
			}
			events = append(events, ev)
		}
		res.Events = events
		return res, nil
	}
	if res.HTTPStatus < 200 || res.HTTPStatus > 299 {
		res.Err = restError(res.HTTPStatus, res.Body)
	}
	return res, nil
}

func (c *client) headers() map[string]string {
	h := map[string]string{"A2A-Version": c.version}
	if c.token != "" {
		h["Authorization"] = "Bearer " + c.token
	}
	return h
}
