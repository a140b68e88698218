package gateway

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"
)

// maxLoggedBody is how much of a request body the access log reads to name its JSON-RPC method;
// a larger body is the facade's to refuse.
const maxLoggedBody = 1 << 20

// observe counts each A2A request in the metrics and, with a logger, writes one line for it:
// method and path, the JSON-RPC method, the answer's status and how long it took (a stream:
// until it ended). Never a header or a body.
func observe(logger *slog.Logger, m *metrics, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rpcMethod := ""
		if r.Method == http.MethodPost && r.Body != nil {
			head, _ := io.ReadAll(io.LimitReader(r.Body, maxLoggedBody+1))
			r.Body = struct {
				io.Reader
				io.Closer
			}{io.MultiReader(bytes.NewReader(head), r.Body), r.Body}
			if len(head) <= maxLoggedBody {
				var call struct {
					Method string `json:"method"`
				}
				if json.Unmarshal(head, &call) == nil {
					rpcMethod = call.Method
				}
			}
		}
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		stream := r.Header.Get("Accept") == "text/event-stream"
		if stream {
			m.streams.Inc()
		}
		next.ServeHTTP(rec, r)
		if stream {
			m.streams.Dec()
		}
		label := rpcMethod
		if label == "" {
			label = r.Method + " " + restRoute(r.URL.Path)
		}
		m.request(label, rec.status, time.Since(start))
		if logger == nil {
			return
		}
		logger.Info("request", "method", r.Method, "path", r.URL.Path, "rpc", rpcMethod,
			"status", rec.status, "duration_ms", time.Since(start).Milliseconds(), "remote", r.RemoteAddr)
	})
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

// restRoute is an HTTP+JSON path with its ids left out, so that metrics have few labels:
// /a2a/rest/tasks/abc:cancel is /a2a/rest/tasks/{id}:cancel.
func restRoute(path string) string {
	parts := strings.Split(path, "/")
	for i, p := range parts {
		if i > 0 && parts[i-1] == "tasks" && p != "" {
			if _, action, ok := strings.Cut(p, ":"); ok {
				parts[i] = "{id}:" + action
			} else {
				parts[i] = "{id}"
			}
		}
	}
	return strings.Join(parts, "/")
}
