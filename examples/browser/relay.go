package main

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
)

// relayPath forwards the page's requests to agents that do not allow other origins (no CORS):
// GET or POST /relay?to=<absolute URL>, only to the origins the server was started with (-relay).
const relayPath = "/relay"

// relayedRequestHeaders are the request headers an A2A request needs; nothing else of the
// browser's (cookies of this origin, say) goes to the agent.
var relayedRequestHeaders = []string{"Accept", "Authorization", "Content-Type", "A2A-Version", "A2A-Extensions", "traceparent", "X-Api-Key"}

// relayedResponseHeaders are the response headers the adapter reads.
var relayedResponseHeaders = []string{"Content-Type", "Retry-After", "WWW-Authenticate", "Date"}

// relayedMediaTypes are the only bodies the relay passes: what A2A answers with (JSON, its
// event streams, JSON error documents). Anything else, HTML or SVG above all, would be a page of
// this server's origin, with its storage in reach; such a body is replaced by a note and its
// status kept, which is what the adapter reads of it.
var relayedMediaTypes = map[string]bool{
	"application/json": true, "application/a2a+json": true, "application/problem+json": true, "text/event-stream": true,
}

// navigationDestinations are the Sec-Fetch-Dest values of a browser that would render what the
// relay answers (a document, a frame, a plugin); the adapter's fetch is "empty".
var navigationDestinations = map[string]bool{
	"document": true, "iframe": true, "frame": true, "embed": true, "object": true, "worker": true, "sharedworker": true, "serviceworker": true, "script": true, "style": true,
}

// relay is a same-origin path to agents on the allowed origins. Responses stream through (SSE).
type relay struct {
	allowed map[string]bool // origins, as url.URL scheme://host
	client  *http.Client
}

func newRelay(origins []string) (*relay, error) {
	r := &relay{allowed: map[string]bool{}, client: &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse // a redirect is the page's to follow, through the relay again
	}}}
	for _, o := range origins {
		u, err := url.Parse(o)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") {
			return nil, fmt.Errorf("-relay %q: want an origin such as https://agent.example", o)
		}
		r.allowed[u.Scheme+"://"+u.Host] = true
	}
	return r, nil
}

func (rl *relay) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// Whatever the relay answers, even an error, is never a document of this origin.
	w.Header().Set("Content-Security-Policy", "sandbox")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	if navigationDestinations[r.Header.Get("Sec-Fetch-Dest")] || r.Header.Get("Sec-Fetch-Mode") == "navigate" {
		http.Error(w, "the relay answers the page's requests, not navigations", http.StatusForbidden)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodPost {
		http.Error(w, "the relay forwards GET and POST", http.StatusMethodNotAllowed)
		return
	}
	target, err := url.Parse(r.URL.Query().Get("to"))
	if err != nil || !rl.allowed[target.Scheme+"://"+target.Host] {
		http.Error(w, "the relay forwards only to the origins it was started with (-relay)", http.StatusForbidden)
		return
	}
	out, err := http.NewRequestWithContext(r.Context(), r.Method, target.String(), r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	for _, name := range relayedRequestHeaders {
		if v := r.Header.Values(name); len(v) > 0 {
			out.Header[http.CanonicalHeaderKey(name)] = v
		}
	}
	resp, err := rl.client.Do(out)
	if err != nil {
		http.Error(w, "the agent could not be reached: "+err.Error(), http.StatusBadGateway)
		return
	}
	defer func() { _ = resp.Body.Close() }() // read to the end or abandoned with the request
	if mediaType, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); !relayedMediaTypes[mediaType] {
		http.Error(w, fmt.Sprintf("the relay passes only A2A answers; the agent answered %q", mediaType), resp.StatusCode)
		return
	}
	for _, name := range relayedResponseHeaders {
		if v := resp.Header.Values(name); len(v) > 0 {
			w.Header()[http.CanonicalHeaderKey(name)] = v
		}
	}
	w.WriteHeader(resp.StatusCode)
	flush := http.NewResponseController(w)
	buf := make([]byte, 32<<10)
	for {
		n, err := resp.Body.Read(buf)
		if n > 0 {
			if _, werr := w.Write(buf[:n]); werr != nil {
				return // the page left
			}
			_ = flush.Flush() // streams arrive as they are sent
		}
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			panic(http.ErrAbortHandler) // cut the page's response too, as the agent's was cut
		}
	}
}
