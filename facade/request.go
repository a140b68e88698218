package facade

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// A request is read here once, after the caller is authenticated and the body is bounded, the way
// a2a-go's server will read it: with encoding/json (names matched without regard to case, the
// last of duplicate keys, the body's first value), JSON-RPC methods compared as decoded strings.
// So no spelling (an escaped method name, a taskId elsewhere than in the message, a duplicated
// key) reads one way for the caller's limits and another for the server that runs it.

// request is what the facade knows of one A2A request.
type request struct {
	// method is the A2A 1.0 name of the operation ("SendMessage", ...; 0.3's names and the
	// HTTP+JSON routes mapped to them), or "" for a request that names none the facade serves.
	method string
	id     json.RawMessage // the JSON-RPC request's id
	task   a2a.TaskID      // the task the call names: the message's taskId, or the task of the call
}

// The A2A 1.0 operations.
const (
	opSend         = "SendMessage"
	opStream       = "SendStreamingMessage"
	opGet          = "GetTask"
	opList         = "ListTasks"
	opCancel       = "CancelTask"
	opSubscribe    = "SubscribeToTask"
	opPushCreate   = "CreateTaskPushNotificationConfig"
	opPushGet      = "GetTaskPushNotificationConfig"
	opPushList     = "ListTaskPushNotificationConfigs"
	opPushDelete   = "DeleteTaskPushNotificationConfig"
	opExtendedCard = "GetExtendedAgentCard"
)

// rpcMethods are the JSON-RPC methods a2a-go's server runs, 1.0's and 0.3's, by the operation.
var rpcMethods = map[string]string{
	opSend: opSend, "message/send": opSend,
	opStream: opStream, "message/stream": opStream,
	opGet: opGet, "tasks/get": opGet,
	opList: opList, "tasks/list": opList,
	opCancel: opCancel, "tasks/cancel": opCancel,
	opSubscribe: opSubscribe, "tasks/resubscribe": opSubscribe,
	opPushCreate: opPushCreate, "tasks/pushNotificationConfig/set": opPushCreate,
	opPushGet: opPushGet, "tasks/pushNotificationConfig/get": opPushGet,
	opPushList: opPushList, "tasks/pushNotificationConfig/list": opPushList,
	opPushDelete: opPushDelete, "tasks/pushNotificationConfig/delete": opPushDelete,
	opExtendedCard: opExtendedCard, "agent/getAuthenticatedExtendedCard": opExtendedCard,
}

// sent is a message as a request carries it: only its task matters here.
type sent struct {
	TaskID string `json:"taskId"`
}

// readRequest reads r, whose body is body (bounded and scanned already).
func readRequest(rpc bool, r *http.Request, body []byte) request {
	if !rpc {
		method, task := restOperation(r.Method, r.URL.Path)
		if method == opSend || method == opStream {
			var send struct {
				Message *sent `json:"message"`
			}
			if decodeFirst(body, &send) && send.Message != nil {
				task = a2a.TaskID(send.Message.TaskID)
			}
		}
		return request{method: method, task: task}
	}
	var call struct {
		Method string          `json:"method"`
		ID     json.RawMessage `json:"id"`
		Params json.RawMessage `json:"params"`
	}
	if !decodeFirst(body, &call) {
		return request{}
	}
	out := request{method: rpcMethods[call.Method], id: call.ID}
	var params struct {
		ID      json.RawMessage `json:"id"`
		TaskID  json.RawMessage `json:"taskId"`
		Message *sent           `json:"message"`
	}
	if len(call.Params) > 0 && json.Unmarshal(call.Params, &params) == nil {
		switch out.method {
		case opSend, opStream:
			if params.Message != nil {
				out.task = a2a.TaskID(params.Message.TaskID)
			}
		case opGet, opCancel, opSubscribe:
			out.task = a2a.TaskID(stringOf(params.ID))
		case opPushCreate, opPushGet, opPushList, opPushDelete:
			out.task = a2a.TaskID(stringOf(params.TaskID))
		}
	}
	return out
}

// decodeFirst decodes the body's first JSON value into v, as a2a-go's server does.
func decodeFirst(body []byte, v any) bool {
	return json.NewDecoder(bytes.NewReader(body)).Decode(v) == nil
}

func stringOf(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// restOperation is the operation of an HTTP+JSON request (1.0's routes; 0.3's below /v1) and the
// task its path names.
func restOperation(method, path string) (string, a2a.TaskID) {
	path = strings.TrimSuffix(path, "/")
	i := strings.LastIndex(path, "/message:")
	if i >= 0 && method == http.MethodPost {
		switch path[i+len("/message:"):] {
		case "send":
			return opSend, ""
		case "stream":
			return opStream, ""
		}
		return "", ""
	}
	if strings.HasSuffix(path, "/extendedAgentCard") || strings.HasSuffix(path, "/card") {
		return opExtendedCard, ""
	}
	i = strings.LastIndex(path, "/tasks")
	if i < 0 {
		return "", ""
	}
	rest := strings.Split(strings.TrimPrefix(path[i+len("/tasks"):], "/"), "/")
	if rest[0] == "" {
		if method == http.MethodGet {
			return opList, ""
		}
		return "", ""
	}
	id, action, _ := strings.Cut(rest[0], ":")
	task := a2a.TaskID(id)
	switch {
	case len(rest) == 1 && action == "cancel":
		return opCancel, task
	case len(rest) == 1 && action == "subscribe":
		return opSubscribe, task
	case len(rest) == 1 && action == "" && method == http.MethodGet:
		return opGet, task
	case len(rest) >= 2 && strings.HasPrefix(rest[1], "pushNotificationConfigs"):
		switch {
		case method == http.MethodPost:
			return opPushCreate, task
		case method == http.MethodDelete:
			return opPushDelete, task
		case len(rest) == 3:
			return opPushGet, task
		default:
			return opPushList, task
		}
	}
	return "", task
}

// sends reports whether the operation sends a message, and streams whether its answer is a stream.
func (q request) sends() bool   { return q.method == opSend || q.method == opStream }
func (q request) streams() bool { return q.method == opStream || q.method == opSubscribe }

// startsTask reports whether the request sends a message that starts a task.
func (q request) startsTask() bool { return q.sends() && q.task == "" }
