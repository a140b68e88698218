package facade

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2asrv/taskstore"
)

// admission is what the facade checks of a request before a2asrv sees it.
type admission struct {
	limits   Limits
	draining func() bool // Options.Draining
	// authorizeFn is Options.Authorize.
	authorizeFn func(context.Context, Request) error
	exec        *executor
	streams     *callerCounts
	tasks       taskstore.Store
}

// admit bounds every A2A request before a2asrv sees it (Limits): its body is read within
// BodyReadTimeout and MaxRequestBytes, scanned for depth and parts, and a request that would open
// a caller's stream or task beyond its limits is refused with 429 (one that would start a task
// while the process drains, with 503). What a2asrv then reads is the body already in memory.
// version is the A2A version the endpoint serves ("": the one the request's A2A-Version names).
func (a *admission) admit(rpc bool, version string, next http.Handler) http.Handler {
	limits, exec, streams := a.limits, a.exec, a.streams
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, status, err := readBody(w, r, limits)
		if err != nil {
			writeRefusal(w, rpc, status, err.Error())
			return
		}
		if err := scanJSON(body, limits.MaxJSONDepth, limits.MaxParts); errors.Is(err, errTooDeep) || errors.Is(err, errTooManyPart) {
			writeRefusal(w, rpc, http.StatusBadRequest, "the request "+err.Error())
			return
		} // a body that is not JSON is a2asrv's to refuse, in its words
		caller := callerFrom(r.Context())
		q := readRequest(rpc, r, body)
		noteCall(r.Context(), q.method)
		if !a.authorize(w, r, rpc, version, q, body) {
			return
		}
		if q.startsTask() && a.draining != nil && a.draining() {
			w.Header().Set("Retry-After", "1")
			writeRefusal(w, rpc, http.StatusServiceUnavailable, "this node is stopping and takes no new task: send the message again")
			return
		}
		if q.startsTask() && limits.MaxTasksPerCaller >= 0 && exec.activeFor(caller) >= limits.MaxTasksPerCaller {
			w.Header().Set("Retry-After", "1")
			writeRefusal(w, rpc, http.StatusTooManyRequests, fmt.Sprintf("this caller has %d tasks running, the most it may (MaxTasksPerCaller)", limits.MaxTasksPerCaller))
			return
		}
		if q.streams() && q.task != "" && (!rpc || acceptsJSON(r)) {
			// A stream's first bytes are a 200: what is wrong with the task it names is answered
			// before, as the binding answers errors, not as an event inside it. A JSON-RPC client
			// that takes only an event stream gets the error as its one event (a2a-go's does:
			// it reads nothing of a JSON body in a 200 to a streaming call).
			if err := checkTask(asCaller(r.Context()), a.tasks, q.task, true); err != nil {
				writeA2AError(w, rpc, q.id, err)
				return
			}
		}
		if q.streams() {
			if !streams.acquire(caller, limits.MaxStreamsPerCaller) {
				w.Header().Set("Retry-After", "1")
				writeRefusal(w, rpc, http.StatusTooManyRequests, fmt.Sprintf("this caller has %d streams open, the most it may (MaxStreamsPerCaller)", limits.MaxStreamsPerCaller))
				return
			}
			defer streams.release(caller)
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		next.ServeHTTP(w, r)
	})
}

// readBody reads r's body within the limits, or says which was passed (the HTTP status to answer).
func readBody(w http.ResponseWriter, r *http.Request, limits Limits) ([]byte, int, error) {
	rc := http.NewResponseController(w)
	if limits.BodyReadTimeout > 0 {
		_ = rc.SetReadDeadline(time.Now().Add(limits.BodyReadTimeout)) // not every ResponseWriter can: then no deadline
	}
	var reader io.Reader = r.Body
	if limits.MaxRequestBytes >= 0 {
		reader = io.LimitReader(r.Body, int64(limits.MaxRequestBytes)+1)
	}
	body, err := io.ReadAll(reader)
	var timeout interface{ Timeout() bool }
	switch {
	case err != nil && errors.As(err, &timeout) && timeout.Timeout():
		// The deadline stays: the connection is not read again, and the answer leaves at once.
		w.Header().Set("Connection", "close")
		return nil, http.StatusRequestTimeout, fmt.Errorf("the request body did not arrive within %v (BodyReadTimeout)", limits.BodyReadTimeout)
	case err != nil:
		return nil, http.StatusBadRequest, errors.New("the request body could not be read")
	case limits.MaxRequestBytes >= 0 && len(body) > limits.MaxRequestBytes:
		w.Header().Set("Connection", "close") // the rest of the body is not read
		return nil, http.StatusRequestEntityTooLarge, fmt.Errorf("the request body is larger than %d bytes (MaxRequestBytes)", limits.MaxRequestBytes)
	}
	if limits.BodyReadTimeout > 0 {
		_ = rc.SetReadDeadline(time.Time{}) // read whole: the answer may stream for hours
	}
	return body, 0, nil
}

// callerCounts counts what each caller holds open.
type callerCounts struct {
	mu sync.Mutex
	n  map[string]int
}

// acquire takes one for caller unless it holds max already (max < 0: no limit).
func (c *callerCounts) acquire(caller string, max int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if max >= 0 && c.n[caller] >= max {
		return false
	}
	if c.n == nil {
		c.n = map[string]int{}
	}
	c.n[caller]++
	return true
}

func (c *callerCounts) release(caller string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n[caller]--; c.n[caller] <= 0 {
		delete(c.n, caller)
	}
}

// acceptsJSON reports whether the request's Accept admits a JSON body (application/json, or a
// range that covers it), beside the event stream a streaming call asks for.
func acceptsJSON(r *http.Request) bool {
	for _, field := range r.Header.Values("Accept") {
		for _, item := range strings.Split(field, ",") {
			mt, _, err := mime.ParseMediaType(strings.TrimSpace(item))
			if err == nil && (mt == "application/json" || mt == "application/*" || mt == "*/*") {
				return true
			}
		}
	}
	return len(r.Header.Values("Accept")) == 0
}
