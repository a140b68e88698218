package facade

import (
	"mime"
	"net/http"
	"strings"
)

// contentA2A is HTTP+JSON's own media type (A2A §11.1: it SHOULD be used for requests and
// responses). a2a-go's server answers application/json, and a2a-go's client, which asks for
// application/json, types an error only in a body of that type: the answer follows the request's
// Accept, application/a2a+json unless the client asked for application/json alone.
const contentA2A = "application/a2a+json"

// a2aJSON labels next's JSON answers application/a2a+json for clients that take it.
func a2aJSON(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !takesA2AJSON(r.Header.Values("Accept")) {
			next.ServeHTTP(w, r)
			return
		}
		next.ServeHTTP(&relabel{ResponseWriter: w}, r)
	})
}

// takesA2AJSON reports whether an Accept header admits application/a2a+json: none at all, the type
// itself, or a range that covers it.
func takesA2AJSON(accept []string) bool {
	if len(accept) == 0 {
		return true
	}
	for _, field := range accept {
		for _, item := range strings.Split(field, ",") {
			mt, params, err := mime.ParseMediaType(strings.TrimSpace(item))
			if err != nil || params["q"] == "0" {
				continue
			}
			if mt == contentA2A || mt == "*/*" || mt == "application/*" {
				return true
			}
		}
	}
	return false
}

// relabel turns an answer's application/json into application/a2a+json as its header leaves.
type relabel struct {
	http.ResponseWriter
	wrote bool
}

func (r *relabel) WriteHeader(status int) {
	if !r.wrote {
		r.wrote = true
		h := r.Header()
		if mt, _, err := mime.ParseMediaType(h.Get("Content-Type")); err == nil && mt == "application/json" {
			h.Set("Content-Type", contentA2A)
		}
	}
	r.ResponseWriter.WriteHeader(status)
}

func (r *relabel) Write(b []byte) (int, error) {
	if !r.wrote {
		r.WriteHeader(http.StatusOK)
	}
	return r.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection (flushes for streams, deadlines).
func (r *relabel) Unwrap() http.ResponseWriter { return r.ResponseWriter }

func (r *relabel) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
