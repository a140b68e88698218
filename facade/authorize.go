package facade

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	a2alegacy "github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
	"github.com/a2aproject/a2a-go/v2/a2apb/v0/pbjson"

	"github.com/a2aport/a2aport"
)

// Request is what Options.Authorize is told of one A2A request: who calls, which operation, and
// for a message that starts a task, the message and the Work it would become (Message). Nothing
// in it has been created yet.
type Request struct {
	// Operation is the A2A 1.0 operation ("SendMessage", "GetTask", ...; 0.3's methods and the
	// HTTP+JSON routes by the same names), or "" for a request that names none the facade serves.
	Operation string
	// Caller is the caller Options.Authenticate named ("" when anonymous).
	Caller string
	// Task is the task the call names ("" for a message that starts one, ListTasks, the card).
	Task a2a.TaskID

	sent func() (*a2a.Message, a2aport.Work) // reads the message, when there is one
}

// StartsTask reports whether the request sends a message that starts a task.
func (r Request) StartsTask() bool {
	return (r.Operation == opSend || r.Operation == opStream) && r.Task == ""
}

// Message is the message of a request that starts a task, in A2A 1.0's terms whatever the
// caller's version, and the Work the Port would be given for it (without its ids); nil for
// another request, or one the server will refuse as unreadable. It is read when asked for: an
// Authorize that needs no message costs no second decoding.
func (r Request) Message() (*a2a.Message, a2aport.Work) {
	if r.sent == nil {
		return nil, a2aport.Work{}
	}
	return r.sent()
}

// RetryLater is an error Options.Authorize returns for a request that may be made again later (a
// rate limit): it is answered 429 Too Many Requests with Retry-After, on either binding.
type RetryLater struct {
	After  time.Duration // how long until the request would be taken
	Reason string        // what was passed, for the caller: never a secret
}

func (e *RetryLater) Error() string { return e.Reason }

// ErrForbidden is what Options.Authorize wraps to refuse a caller what it may not do: answered
// as A2A's PERMISSION_DENIED (JSON-RPC -31403; HTTP+JSON 403), with the error's words.
var ErrForbidden = a2a.ErrUnauthorized

// authorize asks opts.Authorize about q and answers the caller itself when it refuses; it says
// whether the request goes on.
func (a *admission) authorize(w http.ResponseWriter, r *http.Request, rpc bool, version string, q request, body []byte) bool {
	if a.authorizeFn == nil {
		return true
	}
	req := Request{Operation: q.method, Caller: callerFrom(r.Context()), Task: q.task}
	if q.startsTask() {
		if version == "" {
			version = requestedVersion(r)
		}
		req.sent = sync.OnceValues(func() (*a2a.Message, a2aport.Work) {
			msg := sentMessage(rpc, version, body)
			if msg == nil {
				return nil, a2aport.Work{}
			}
			work, _ := workOfMessage(msg, a.exec.port.Describe().Capabilities.InputModes)
			return msg, work
		})
	}
	err := a.authorizeFn(r.Context(), req)
	var later *RetryLater
	switch {
	case err == nil:
		return true
	case errors.As(err, &later):
		w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(max(later.After, time.Second).Seconds()))))
		writeRefusal(w, rpc, http.StatusTooManyRequests, later.Reason)
	case errors.Is(err, ErrForbidden):
		writeA2AError(w, rpc, q.id, err)
	default:
		writeA2AError(w, rpc, q.id, fmt.Errorf("%w: %w", a2a.ErrInvalidParams, err))
	}
	return false
}

// sentMessage reads the message of a send request as the server of its binding and version
// will (version "1.0", else 0.3), so that what is authorized is what runs: JSON-RPC params and
// 1.0's HTTP+JSON with encoding/json into a2a-go's types, 0.3's JSON-RPC through its 0.3 types,
// 0.3's HTTP+JSON as the protobuf JSON it is. Nil when the server will refuse the request.
func sentMessage(rpc bool, version string, body []byte) *a2a.Message {
	var params json.RawMessage
	if rpc {
		var call struct {
			Params json.RawMessage `json:"params"`
		}
		if !decodeFirst(body, &call) {
			return nil
		}
		params = call.Params
	}
	var req *a2a.SendMessageRequest
	switch {
	case version == version10 && rpc:
		req = new(a2a.SendMessageRequest)
		if json.Unmarshal(params, req) != nil {
			return nil
		}
	case version == version10:
		req = new(a2a.SendMessageRequest)
		if !decodeFirst(body, req) {
			return nil
		}
	case rpc:
		var legacy a2alegacy.MessageSendParams
		if json.Unmarshal(params, &legacy) != nil {
			return nil
		}
		req, _ = a2av0.ToV1SendMessageRequest(&legacy)
	default:
		req, _ = pbjson.FromProtoSendMessageRequest(body)
	}
	if req == nil {
		return nil
	}
	return req.Message
}
