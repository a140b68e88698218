package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// agentTransport is the HTTP of the commands that speak A2A directly: it adds the service
// parameters (--svc-param) and the credentials to every A2A request, remembers an answer that
// refused them (401, 403: the exit status says authentication), and with --debug writes every
// request and answer to stderr as it goes on the wire, every secret in it replaced by
// "[REDACTED]" (SPEC.md §12.1: no flag shows them).
type agentTransport struct {
	base    http.RoundTripper
	headers http.Header    // service parameters and header credentials
	query   url.Values     // an API key the card wants in the query
	cookies []*http.Cookie // an API key the card wants in a cookie
	secrets []string       // every secret value, for the redaction
	debug   io.Writer      // nil: no wire log
	refused atomic.Int32   // the status of the last answer that refused the credentials
	mu      sync.Mutex     // one request's log at a time
	seq     atomic.Int64   // numbers the requests in the log
}

// sensitiveHeaders are names whose values the wire log never shows, whoever set them.
var sensitiveHeaders = []string{"authorization", "proxy-authorization", "cookie", "set-cookie", "token", "secret", "key", "password", "auth"}

func (t *agentTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	for k, vs := range t.headers {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	if len(t.query) > 0 {
		q := req.URL.Query()
		for k, vs := range t.query {
			q[k] = vs
		}
		req.URL.RawQuery = q.Encode()
	}
	for _, c := range t.cookies {
		req.AddCookie(c)
	}
	n := t.seq.Add(1)
	if t.debug != nil {
		t.logRequest(n, req)
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		t.logf("#%d ✗ %v\n", n, err)
		return nil, err
	}
	if resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden {
		t.refused.Store(int32(resp.StatusCode))
	}
	if t.debug != nil {
		t.logf("#%d < %s %s\n%s", n, resp.Proto, resp.Status, t.headerLines(resp.Header, fmt.Sprintf("#%d <   ", n)))
		resp.Body = &loggedBody{ReadCloser: resp.Body, t: t, n: n}
	}
	return resp, nil
}

// logRequest writes a request's line, headers and body (read and put back).
func (t *agentTransport) logRequest(n int64, req *http.Request) {
	var body []byte
	if req.Body != nil && req.Body != http.NoBody {
		body, _ = io.ReadAll(req.Body) // a request body here is the JSON a2a-go built in memory
		_ = req.Body.Close()
		req.Body = io.NopCloser(bytes.NewReader(body))
	}
	t.logf("#%d > %s %s\n%s", n, req.Method, t.redact(req.URL.String()), t.headerLines(req.Header, fmt.Sprintf("#%d >   ", n)))
	if len(body) > 0 {
		t.logf("#%d > %s\n", n, t.redact(string(body)))
	}
}

// headerLines is a header as the log shows it, sorted, its sensitive values redacted.
func (t *agentTransport) headerLines(h http.Header, prefix string) string {
	names := make([]string, 0, len(h))
	for k := range h {
		names = append(names, k)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, k := range names {
		value := strings.Join(h[k], ", ")
		lower := strings.ToLower(k)
		for _, s := range sensitiveHeaders {
			if strings.Contains(lower, s) {
				value = "[REDACTED]"
			}
		}
		fmt.Fprintf(&b, "%s%s: %s\n", prefix, k, t.redact(value))
	}
	return b.String()
}

// redact replaces every secret the command was given in s.
func (t *agentTransport) redact(s string) string {
	for _, secret := range t.secrets {
		if secret != "" {
			s = strings.ReplaceAll(s, secret, "[REDACTED]")
			s = strings.ReplaceAll(s, url.QueryEscape(secret), "[REDACTED]")
		}
	}
	return s
}

func (t *agentTransport) logf(format string, args ...any) {
	if t.debug == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	fmt.Fprintf(t.debug, "a2aport debug "+format, args...)
}

// loggedBody writes an answer's body to the log as it is read (a stream's events as they come).
type loggedBody struct {
	io.ReadCloser
	t *agentTransport
	n int64
}

func (b *loggedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 {
		for _, line := range strings.Split(strings.TrimRight(string(p[:n]), "\n"), "\n") {
			b.t.logf("#%d < %s\n", b.n, b.t.redact(clean(line)))
		}
	}
	return n, err
}
