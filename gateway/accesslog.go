package gateway

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/a2aport/a2aport/facade"
)

// observe counts each A2A request in the metrics and, with a logger, writes one line for it:
// method and path, the A2A operation, the answer's status and how long it took (a stream: until
// it ended). It reads no body: the facade names the operation (facade.Call) once the caller is
// authenticated and the body bounded. Metric labels come from closed sets, never from the
// request; the log's strings from the request are made printable and bounded (logsafe.go). With
// traces on (t), the request is a server span (tracing.go).
func observe(logger *slog.Logger, m *metrics, t *tracer, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		call := &facade.Call{}
		r, span := t.serverSpan(r)
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		stream := r.Header.Get("Accept") == "text/event-stream"
		if stream {
			m.streams.Inc()
		}
		next.ServeHTTP(rec, r.WithContext(facade.WithCall(r.Context(), call)))
		if stream {
			m.streams.Dec()
		}
		m.request(operationLabel(r, call), rec.status, time.Since(start))
		t.endServerSpan(span, r, call, rec.status)
		if logger == nil {
			return
		}
		logger.Info("request", "method", printable(r.Method, maxLoggedMethod), "path", printable(r.URL.Path, maxLoggedPath), "rpc", call.Operation,
			"status", rec.status, "duration_ms", time.Since(start).Milliseconds(), "remote", r.RemoteAddr)
	})
}

// operationLabel is a request's metric label: its A2A operation, "card" for the Agent Card,
// "card-keys" for the key set that signs it, else "other".
func operationLabel(r *http.Request, call *facade.Call) string {
	switch {
	case call.Operation != "":
		return call.Operation
	case r.URL.Path == facade.CardPath:
		return "card"
	case r.URL.Path == facade.CardKeysPath:
		return "card-keys"
	}
	return "other"
}

// statusRecorder notes the status an answer was given; it passes flushes on, so streams stream.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}

// Unwrap lets http.ResponseController reach the connection (flushes, deadlines).
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

func (s *statusRecorder) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
