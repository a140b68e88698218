package gateway

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"time"
)

// maxLoggedBody is how much of a request body the access log reads to name its JSON-RPC method;
// a larger body is the facade's to refuse.
const maxLoggedBody = 1 << 20

// accessLog writes one line per request: method and path, the JSON-RPC method, the answer's
// status and how long it took (a stream: until it ended). Never a header or a body.
func accessLog(logger *slog.Logger, next http.Handler) http.Handler {
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
		next.ServeHTTP(rec, r)
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
