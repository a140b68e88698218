package facade

import (
	"encoding/json"
	"mime"
	"net/http"
)

// acceptOnlyJSON refuses what a page of another site can make a browser send without asking the
// facade first (no CORS preflight): a POST of text/plain, a form or multipart, which carries the
// browser's cookies and any ambient authentication. An A2A request is JSON (application/json,
// or application/a2a+json), and a POST without a body (a2a-go's REST cancel and subscribe) has
// no content type at all; anything else is answered 415 before it is read. A state-changing
// request that a browser marks as cross-origin (Sec-Fetch-Site, or an Origin that is not the
// host) is answered 403, whatever its type, unless it comes from one of the allowed origins.
// rpc says the errors are written as JSON-RPC errors.
func acceptOnlyJSON(rpc bool, allowed []string, next http.Handler) http.Handler {
	protect := http.NewCrossOriginProtection()
	for _, origin := range allowed {
		_ = protect.AddTrustedOrigin(origin) // checked by validOrigins
	}
	protect.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		unread(w, r)
		writeRefusal(w, rpc, http.StatusForbidden, "cross-origin requests from a browser are not accepted")
	}))
	return protect.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !jsonBody(r) {
			unread(w, r)
			writeRefusal(w, rpc, http.StatusUnsupportedMediaType, "the request body must be application/json")
			return
		}
		next.ServeHTTP(w, r)
	}))
}

// jsonBody reports whether r carries JSON or, with no content type, no body at all.
func jsonBody(r *http.Request) bool {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodDelete:
		if r.ContentLength == 0 {
			return true
		}
	}
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		return r.ContentLength == 0
	}
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && (mt == "application/json" || mt == "application/a2a+json")
}

// unread marks the answer to a request whose body the facade will not read: the connection closes
// after it. Else Go's server reads up to 256 KiB of the body before it answers, to keep the
// connection, and a body trickled a byte at a time held the answer back (with no deadline: the
// facade bounds the reading of bodies it reads, not of those it refuses).
func unread(w http.ResponseWriter, r *http.Request) {
	if r.ContentLength != 0 {
		w.Header().Set("Connection", "close")
	}
}

// writeRefusal answers a request the facade does not read: a JSON-RPC error (code -32600,
// invalid request) for the JSON-RPC endpoints, a REST error otherwise.
func writeRefusal(w http.ResponseWriter, rpc bool, status int, message string) {
	writeError(w, rpc, status, -32600, message)
}

// writeError answers with HTTP status and, on the JSON-RPC endpoints, a JSON-RPC error of code
// (the request's id is not read: null), else google.rpc.Status as A2A's HTTP+JSON has it (§11.6).
func writeError(w http.ResponseWriter, rpc bool, status, code int, message string) {
	var body any
	if rpc {
		body = map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": code, "message": message}}
	} else {
		body = map[string]any{"error": map[string]any{"code": status, "status": rpcStatus(status), "message": message}}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body) // the client may be gone; nothing more to do
}

// rpcStatus is the google.rpc status name of an HTTP status the facade refuses with (A2A §11.6).
func rpcStatus(status int) string {
	switch status {
	case http.StatusTooManyRequests:
		return "RESOURCE_EXHAUSTED"
	case http.StatusServiceUnavailable:
		return "UNAVAILABLE"
	case http.StatusRequestTimeout:
		return "DEADLINE_EXCEEDED"
	case http.StatusUnauthorized:
		return "UNAUTHENTICATED"
	}
	return "INVALID_ARGUMENT"
}
