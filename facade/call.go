package facade

import "context"

// Call is what the facade learned of one A2A request, for a server's log and metrics: a closed
// set of values, never a string of the caller's.
type Call struct {
	// Operation is the A2A 1.0 operation the request called ("SendMessage", "GetTask", ...; 0.3's
	// methods and the HTTP+JSON routes by the same names), or "" when the facade did not read one:
	// a request refused before its body was read (unauthenticated, too large, cross-site), or one
	// that names no operation the facade serves.
	Operation string
}

type callKey struct{}

// WithCall returns ctx carrying call, which the facade fills while it serves the request made
// with ctx. It reads a body only once the caller is authenticated, within its deadline and bounds.
func WithCall(ctx context.Context, call *Call) context.Context {
	return context.WithValue(ctx, callKey{}, call)
}

// noteCall tells the Call of ctx, if any, the operation of its request.
func noteCall(ctx context.Context, operation string) {
	if c, ok := ctx.Value(callKey{}).(*Call); ok && c != nil {
		c.Operation = operation
	}
}
