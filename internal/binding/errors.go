package binding

import (
	"encoding/json"
	"fmt"
	"maps"
	"mime"
	"net/http"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/errordetails"
)

// The A2A errors by JSON-RPC code (A2A 1.0 §9.5); another code is an internal error.
var errorByCode = map[int]error{
	-32700: a2a.ErrParseError,
	-32600: a2a.ErrInvalidRequest,
	-32601: a2a.ErrMethodNotFound,
	-32602: a2a.ErrInvalidParams,
	-32603: a2a.ErrInternalError,
	-32000: a2a.ErrServerError,
	-32001: a2a.ErrTaskNotFound,
	-32002: a2a.ErrTaskNotCancelable,
	-32003: a2a.ErrPushNotificationNotSupported,
	-32004: a2a.ErrUnsupportedOperation,
	-32005: a2a.ErrUnsupportedContentType,
	-32006: a2a.ErrInvalidAgentResponse,
	-32007: a2a.ErrExtendedCardNotConfigured,
	-32008: a2a.ErrExtensionSupportRequired,
	-32009: a2a.ErrVersionNotSupported,
	-31401: a2a.ErrUnauthenticated,
	-31403: a2a.ErrUnauthorized,
}

// rpcError is a JSON-RPC error object. Its data is read leniently: A2A 1.0 asks for an array of
// typed details, but agents send an object (0.3's habit) or anything else, and an error's code and
// message ("task not found") must survive whatever its data is.
type rpcError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// a2aError is e as the a2a.Error of its code: the message, the first detail that is not an
// ErrorInfo as Details, an ErrorInfo's metadata, and every other detail kept typed. Data that is
// an object is the Details; data of another shape is dropped.
func (e *rpcError) a2aError() error {
	base, ok := errorByCode[e.Code]
	if !ok {
		base = a2a.ErrInternalError
	}
	msg := e.Message
	if msg == "" {
		msg = base.Error()
	}
	out := a2a.NewError(base, msg)
	items, object := detailsOf(e.Data)
	if object != nil {
		return out.WithDetails(object)
	}
	var typed []*errordetails.Typed
	for _, raw := range items {
		var d errordetails.Typed
		if json.Unmarshal(raw, &d) != nil {
			continue // a detail that is not a typed one: the rest still count
		}
		if d.TypeURL == errordetails.ErrorInfoType {
			if meta, ok := stringMap(d.Value["metadata"]); ok {
				out = out.WithErrorInfoMeta(meta)
			}
			continue
		}
		if len(typed) == 0 {
			out = out.WithDetails(d.Value)
		}
		typed = append(typed, &d)
	}
	out.TypedDetails = append(out.TypedDetails, typed...)
	return out
}

// detailsOf reads an error's details: the items of an array, or an object's members; nothing for
// another shape (a string, a number, null, bytes that are not JSON).
func detailsOf(raw json.RawMessage) (items []json.RawMessage, object map[string]any) {
	if json.Unmarshal(raw, &items) == nil {
		return items, nil
	}
	if json.Unmarshal(raw, &object) == nil && object != nil {
		return nil, object
	}
	return nil, nil
}

// stringMap is raw's string values when raw is an object.
func stringMap(raw any) (map[string]string, bool) {
	switch m := raw.(type) {
	case map[string]string:
		return m, true
	case map[string]any:
		out := make(map[string]string, len(m))
		for k, v := range m {
			if s, ok := v.(string); ok {
				out[k] = s
			}
		}
		return out, true
	}
	return nil, false
}

// statusBody is an HTTP+JSON error body's "error" object (google.rpc.Status as JSON).
type statusBody struct {
	Code    int             `json:"code"`
	Status  string          `json:"status"`
	Message string          `json:"message"`
	Details json.RawMessage `json:"details"` // an array of typed details, read leniently (detailsOf)
}

// errorInfo is a google.rpc.ErrorInfo detail.
type errorInfo struct {
	Type     string            `json:"@type"`
	Reason   string            `json:"reason"`
	Domain   string            `json:"domain"`
	Metadata map[string]string `json:"metadata,omitempty"`
}

// restReasons are the A2A errors an HTTP+JSON answer can name by its ErrorInfo's reason.
var restReasons = []error{
	a2a.ErrParseError, a2a.ErrInvalidRequest, a2a.ErrMethodNotFound, a2a.ErrInvalidParams,
	a2a.ErrInternalError, a2a.ErrServerError, a2a.ErrTaskNotFound, a2a.ErrTaskNotCancelable,
	a2a.ErrPushNotificationNotSupported, a2a.ErrUnsupportedOperation, a2a.ErrUnsupportedContentType,
	a2a.ErrInvalidAgentResponse, a2a.ErrExtendedCardNotConfigured, a2a.ErrExtensionSupportRequired,
	a2a.ErrVersionNotSupported, a2a.ErrUnauthenticated, a2a.ErrUnauthorized,
}

// a2aError is b as the a2a.Error its A2A ErrorInfo's reason names (an internal error without
// one), with that ErrorInfo's metadata, the first other detail as Details and every other
// detail kept typed.
func (b *statusBody) a2aError() error {
	var reason string
	meta := map[string]string{}
	details := map[string]any{}
	var typed []*errordetails.Typed
	items, object := detailsOf(b.Details)
	maps.Copy(details, object)
	for _, raw := range items {
		var kind struct {
			Type string `json:"@type"`
		}
		if json.Unmarshal(raw, &kind) == nil && kind.Type == errordetails.ErrorInfoType {
			var info errorInfo
			if json.Unmarshal(raw, &info) == nil && info.Domain == a2a.ProtocolDomain {
				reason = info.Reason
				maps.Copy(meta, info.Metadata)
			}
			continue
		}
		var d errordetails.Typed
		if json.Unmarshal(raw, &d) == nil {
			if len(typed) == 0 {
				maps.Copy(details, d.Value)
			}
			typed = append(typed, &d)
		}
	}
	base := a2a.ErrInternalError
	for _, e := range restReasons {
		if a2a.ErrorReason(e) == reason {
			base = e
			break
		}
	}
	out := a2a.NewError(base, b.Message)
	if len(meta) > 0 {
		out = out.WithErrorInfoMeta(meta)
	}
	if len(details) > 0 {
		out = out.WithDetails(details)
	}
	out.TypedDetails = append(out.TypedDetails, typed...)
	return out
}

// restError is the A2A error of an HTTP+JSON answer other than 200: its JSON error body, or a
// server error when the body is not JSON.
func restError(resp *http.Response) error {
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt != contentJSON && mt != contentA2AJSON {
		return a2a.ErrServerError
	}
	var body struct {
		Error statusBody `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		return fmt.Errorf("failed to decode error response: %w: %w", err, a2a.ErrParseError)
	}
	return body.Error.a2aError()
}
