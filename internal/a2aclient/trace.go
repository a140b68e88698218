package a2aclient

import (
	"context"
	"net/http"
	"strings"
)

// A Work's trace context (Traceparent) travels in its context and is set on each of its requests
// by traceHeader, the outermost layer of the adapter's transport.

type traceKey struct{}

func withTraceparent(ctx context.Context, traceparent string) context.Context {
	if traceparent == "" {
		return ctx
	}
	return context.WithValue(ctx, traceKey{}, traceparent)
}

// traceHeader sets the traceparent header of requests made for a Work that has one.
type traceHeader struct{ base http.RoundTripper }

func (t traceHeader) RoundTrip(req *http.Request) (*http.Response, error) {
	tp, _ := req.Context().Value(traceKey{}).(string)
	if tp == "" {
		return t.base.RoundTrip(req)
	}
	req = req.Clone(req.Context()) // a RoundTripper must not change the request it was given
	req.Header.Set("traceparent", tp)
	return t.base.RoundTrip(req)
}

// validTraceparent checks the W3C form: version 00, a 32-hex trace id and a 16-hex parent id that
// are not all zeros, and 2 hex flags, lowercase.
func validTraceparent(tp string) bool {
	parts := strings.Split(tp, "-")
	if len(parts) != 4 || parts[0] != "00" {
		return false
	}
	for i, n := range []int{2, 32, 16, 2} {
		if len(parts[i]) != n || strings.Trim(parts[i], "0123456789abcdef") != "" {
			return false
		}
	}
	return strings.Trim(parts[1], "0") != "" && strings.Trim(parts[2], "0") != ""
}
