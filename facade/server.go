package facade

import (
	"net/http"
	"time"
)

// Timeouts of NewServer.
const (
	ServerReadHeaderTimeout = 10 * time.Second
	ServerIdleTimeout       = 60 * time.Second
)

// NewServer returns an http.Server for handler with the timeouts a server of long streams needs:
// a request's headers within ServerReadHeaderTimeout, a keep-alive connection closed after
// ServerIdleTimeout without a request. It sets no ReadTimeout or WriteTimeout: those bound the
// whole exchange and would cut a stream that lasts hours; the facade bounds each request's body
// itself (Limits.BodyReadTimeout), and a stream's answer is bounded by its task.
func NewServer(handler http.Handler) *http.Server {
	return &http.Server{Handler: handler, ReadHeaderTimeout: ServerReadHeaderTimeout, IdleTimeout: ServerIdleTimeout}
}
