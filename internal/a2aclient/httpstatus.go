package a2aclient

import (
	"bytes"
	"context"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// a2a-go reports a non-2xx JSON-RPC response only as text, so the adapter notes the status and the
// start of the body itself, per call, to give callers a typed A2A_HTTP_ERROR with Status.
type httpFailure struct {
	mu         sync.Mutex
	status     int
	summary    string
	retryAfter time.Duration // the answer's Retry-After, if any
	challenge  string        // the answer's WWW-Authenticate, if any
	overLimit  error         // a size limit the answer passed (limits.go)
}

type failureKey struct{}

func withFailureRecorder(ctx context.Context) (context.Context, *httpFailure) {
	f := &httpFailure{}
	return context.WithValue(ctx, failureKey{}, f), f
}

func (f *httpFailure) get() (int, string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.status, f.summary
}

// tooLarge records that the answer passed a size limit. A nil recorder (a request outside the
// adapter's own calls) records nothing.
func (f *httpFailure) tooLarge(err error) {
	if f == nil {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.overLimit = err
}

// limit returns the size limit the answer passed, if any.
func (f *httpFailure) limit() error {
	if f == nil {
		return nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.overLimit
}

// wait is how long the agent asked the client to wait before trying again (0: it did not).
func (f *httpFailure) wait() time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.retryAfter
}

// statusRecorder wraps the transport that a2a-go uses. It also bounds what a2a-go reads of a
// success: one answer, or one event of a stream, up to maxResponse bytes.
type statusRecorder struct {
	base        http.RoundTripper
	maxResponse int
}

// bodySummaryLen is how much of a failed answer's body is read for its summary: enough for the
// title of an error page behind its head's meta and link tags.
const bodySummaryLen = 2048

func (s statusRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := s.base.RoundTrip(req)
	if err == nil && resp.StatusCode == http.StatusCreated {
		// @a2a-js/sdk answers an A2A 0.3 REST message:send with 201 Created, which a2a-go's 0.3
		// REST client (200 and 204 only) would take for an error. It is a success.
		resp.StatusCode, resp.Status = http.StatusOK, "200 OK"
	}
	if err != nil {
		return nil, err
	}
	f, _ := req.Context().Value(failureKey{}).(*httpFailure)
	if resp.StatusCode < 300 {
		if c := captureOf(req.Context()); c != nil {
			resp.Body = c.tee(resp.Body)
		}
		resp = asEventStream(req, resp, s.maxResponse)
		if media, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); media == "text/event-stream" {
			resp.Body = capEvents(resp.Body, s.maxResponse, f)
		} else {
			resp.Body = capBody(resp.Body, s.maxResponse, f)
		}
		return resp, nil
	}
	if f == nil {
		return resp, nil
	}
	head := make([]byte, bodySummaryLen)
	n, _ := io.ReadFull(resp.Body, head)
	head = head[:n]
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(head), resp.Body), resp.Body}
	f.mu.Lock()
	f.status, f.summary = resp.StatusCode, summarize(head)
	f.retryAfter = retryAfter(resp.Header)
	f.challenge = strings.Join(resp.Header.Values("WWW-Authenticate"), ", ")
	f.mu.Unlock()
	return resp, nil
}

// retryAfter reads a Retry-After header: delay-seconds, or an HTTP date measured against the
// answer's own Date (so that neither clock's skew matters). 0 when absent or unreadable.
func retryAfter(h http.Header) time.Duration {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if secs, err := strconv.Atoi(v); err == nil {
		return max(time.Duration(secs)*time.Second, 0)
	}
	at, err := http.ParseTime(v)
	if err != nil {
		return 0
	}
	sent, err := http.ParseTime(h.Get("Date"))
	if err != nil {
		return 0
	}
	return max(at.Sub(sent), 0)
}
