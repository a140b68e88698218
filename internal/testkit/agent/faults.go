package agent

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"regexp"
	"sync"
	"time"
)

// errStreamCut is returned for writes after the cutstream fault ended the
// response, so the SSE handler stops producing.
var errStreamCut = errors.New("stream cut by the cutstream scenario")

// faults injects the scenarios that break the transport rather than the
// task, which an executor cannot express:
//   - status500: any message send answers HTTP 500 "agent exploded";
//   - status502html: any message send answers HTTP 502 with the HTML error page a proxy in front
//     of the agent serves (nginx's);
//   - emptystream: a streaming send answers an SSE stream with no events,
//     without creating a task;
//   - cutstream: a streaming send's response ends right after its first
//     event while the task carries on and completes shortly after;
//   - breakstream: a streaming send's connection drops (no end of the
//     chunked body) after breakAfter events, while the task carries on;
//   - stallstream: a streaming send's response goes silent after
//     stallAfter events (the connection stays open, nothing more is sent)
//     while the task carries on; stallfirst: silent from the start;
//   - status401, status403, status404, status429: a message send is
//     refused with that status and a text body, as a gateway in front of
//     the agent would (401 with WWW-Authenticate, 429 with Retry-After);
//   - badjson: a message send answered 200 with a body that is not JSON;
//   - wrongtype: a message send answered 200 with an HTML page;
//   - dropsend: a message send reaches the agent (the task starts), then
//     its connection drops before a byte of the answer is sent;
//   - busyanswer: the first JSON-RPC message with this text (an answer to
//     an input request) is refused as a2a-go refuses a message for a task
//     whose previous turn it is still releasing; the next goes through;
//   - rpcerror: a JSON-RPC streaming send is refused with a plain JSON-RPC
//     error response (application/json, not a stream), as some servers do;
//   - nostream: a JSON-RPC streaming send is refused as an unsupported
//     operation although the card says it streams; a plain send works;
//   - slowdrip: every event of a streaming send arrives in dripPieces
//     pieces, dripGap apart, as over a congested link;
//   - dupstatus: a streaming send's status updates each arrive twice, as
//     from a relay that repeats events;
//   - mismatch: the response names another context than the task's, as a
//     server that moved an established conversation would (a2asrv itself
//     refuses such events, so only the wire can show it);
//   - holdsend N: a message send reaches the agent and its task runs (as
//     hold: until cancelled), but its answer is held back for N ms, or for
//     as long as the client waits when N is 0 or absent: a send in flight.
//
// Streaming faults apply only to streaming variants: the others refuse
// streaming, and their non-streaming sends run the executor as usual.
func faults(next http.Handler, v Variant) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := callFrom(r.Context())
		if !c.sendsMessage() {
			next.ServeHTTP(w, r)
			return
		}
		stream := v.Streaming && c.method == methodStream
		switch c.scenario() {
		case "status500":
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.WriteHeader(http.StatusInternalServerError)
			_, _ = io.WriteString(w, "agent exploded")
		case "status502html":
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusBadGateway)
			_, _ = io.WriteString(w, "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.22.1</center>\r\n</body>\r\n</html>\r\n")
		case "status401", "status403", "status404", "status429":
			// A gateway's refusal before the agent: text, with the headers such answers carry.
			code := map[string]int{"status401": http.StatusUnauthorized, "status403": http.StatusForbidden,
				"status404": http.StatusNotFound, "status429": http.StatusTooManyRequests}[c.scenario()]
			if code == http.StatusUnauthorized {
				w.Header().Set("WWW-Authenticate", `Bearer realm="agent"`)
			}
			if code == http.StatusTooManyRequests {
				w.Header().Set("Retry-After", "3")
			}
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.WriteHeader(code)
			_, _ = io.WriteString(w, http.StatusText(code))
		case "badjson":
			// A success whose body is not JSON, in the type the binding expects.
			if stream {
				w.Header().Set("Content-Type", "text/event-stream")
				_, _ = io.WriteString(w, "data: {not json\n\n")
			} else {
				w.Header().Set("Content-Type", "application/json")
				_, _ = io.WriteString(w, "{not json")
			}
		case "wrongtype":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = io.WriteString(w, "<html><body>Welcome to the portal</body></html>")
		case "emptystream":
			if !stream {
				next.ServeHTTP(w, r)
				return
			}
			w.Header().Set("Content-Type", "text/event-stream")
			w.Header().Set("Cache-Control", "no-cache")
			w.WriteHeader(http.StatusOK)
		case "cutstream":
			if !stream {
				next.ServeHTTP(w, r)
				return
			}
			// Cancelling the request context makes the a2asrv SSE loop
			// return, which ends the response cleanly; the execution runs
			// in a context of its own and is unaffected.
			ctx, cancel := context.WithCancel(r.Context())
			defer cancel()
			next.ServeHTTP(&cuttingWriter{ResponseWriter: w, stop: cancel, left: 1, mode: cutClean}, r.WithContext(ctx))
		case "breakstream":
			if !stream {
				next.ServeHTTP(w, r)
				return
			}
			ctx, cancel := context.WithCancel(r.Context())
			defer cancel()
			next.ServeHTTP(&cuttingWriter{ResponseWriter: w, stop: cancel, left: breakAfter, mode: cutDrop}, r.WithContext(ctx))
		case "stallstream", "stallfirst":
			if !stream {
				next.ServeHTTP(w, r)
				return
			}
			cw := &cuttingWriter{ResponseWriter: w, stop: func() {}, left: stallAfter, mode: cutStall}
			if c.scenario() == "stallfirst" {
				cw.left, cw.done = 0, true
			}
			next.ServeHTTP(cw, r)
			// The task is over; the response stays open and silent until the client leaves.
			timer := time.NewTimer(holdLimit)
			defer timer.Stop()
			select {
			case <-r.Context().Done():
			case <-timer.C:
			}
		case "busyanswer":
			if _, seen := refusedOnce.LoadOrStore(c.instruction, true); seen || v.Binding != bindingJSONRPC {
				next.ServeHTTP(w, r)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"task execution is already in progress"}}`)
		case "dropsend":
			next.ServeHTTP(droppingWriter{w}, r)
		case "holdsend":
			_, args := splitInstruction(c.instruction)
			holdAnswer(w, r, next, time.Duration(intArg(args, 0, 0, int(holdLimit/time.Millisecond)))*time.Millisecond)
		case "rpcerror":
			if !stream || v.Binding != bindingJSONRPC {
				next.ServeHTTP(w, r)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"streaming is switched off today"}}`)
		case "nostream":
			if !stream || v.Binding != bindingJSONRPC {
				next.ServeHTTP(w, r)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":null,"error":{"code":-32004,"message":"streaming is not supported"}}`)
		case "slowdrip":
			if !stream {
				next.ServeHTTP(w, r)
				return
			}
			next.ServeHTTP(&drippingWriter{ResponseWriter: w}, r)
		case "dupstatus":
			if !stream {
				next.ServeHTTP(w, r)
				return
			}
			next.ServeHTTP(&doublingWriter{ResponseWriter: w}, r)
		case "mismatch":
			next.ServeHTTP(contextRewriter{w}, r)
		default:
			next.ServeHTTP(w, r)
		}
	})
}

// refusedOnce holds the busyanswer messages already refused once.
var refusedOnce sync.Map

// contextIDValue matches a contextId member of a JSON response body.
var contextIDValue = regexp.MustCompile(`"contextId"\s*:\s*"([^"]*)"`)

// contextRewriter replaces every contextId value with one of the same length (so a
// Content-Length stays right) that no task has.
type contextRewriter struct{ http.ResponseWriter }

func (w contextRewriter) Write(p []byte) (int, error) {
	out := contextIDValue.ReplaceAllFunc(p, func(m []byte) []byte {
		value := contextIDValue.FindSubmatchIndex(m)
		return append(m[:value[2]:value[2]], append(bytes.Repeat([]byte("m"), value[3]-value[2]), m[value[3]:]...)...)
	})
	if _, err := w.ResponseWriter.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush implements [http.Flusher] for streamed responses.
func (w contextRewriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// droppingWriter closes the connection at the first byte of the answer,
// which it never sends.
type droppingWriter struct{ http.ResponseWriter }

func (w droppingWriter) Write([]byte) (int, error) {
	if conn, _, err := http.NewResponseController(w.ResponseWriter).Hijack(); err == nil {
		_ = conn.Close() // the drop is the point
	}
	return 0, errStreamCut
}

// Flush implements [http.Flusher], which streaming handlers require; nothing is sent.
func (w droppingWriter) Flush() {}

// doublingWriter sends every event of an SSE response that carries a status
// update twice. a2asrv flushes after each event: what came between two
// flushes is one event.
type doublingWriter struct {
	http.ResponseWriter
	mu    sync.Mutex
	event []byte
}

func (w *doublingWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.event = append(w.event, p...)
	return len(p), nil
}

// Flush implements [http.Flusher].
func (w *doublingWriter) Flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	copies := 1
	if bytes.Contains(w.event, []byte(`"statusUpdate"`)) || bytes.Contains(w.event, []byte(`"status-update"`)) {
		copies = 2
	}
	for range copies {
		_, _ = w.ResponseWriter.Write(w.event) // a failed write shows as a broken stream
	}
	w.event = w.event[:0]
	_ = http.NewResponseController(w.ResponseWriter).Flush()
}

func (w *doublingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// drippingWriter sends each event of an SSE response in dripPieces pieces,
// flushed dripGap apart.
type drippingWriter struct {
	http.ResponseWriter
	mu    sync.Mutex
	event []byte
}

func (w *drippingWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.event = append(w.event, p...)
	return len(p), nil
}

// Flush implements [http.Flusher].
func (w *drippingWriter) Flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	rc := http.NewResponseController(w.ResponseWriter)
	piece := (len(w.event) + dripPieces - 1) / dripPieces
	for len(w.event) > 0 {
		n := min(piece, len(w.event))
		if _, err := w.ResponseWriter.Write(w.event[:n]); err != nil {
			break // the client left
		}
		_ = rc.Flush()
		w.event = w.event[n:]
		if len(w.event) > 0 {
			time.Sleep(dripGap)
		}
	}
	w.event = w.event[:0]
}

func (w *drippingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// How a cuttingWriter stops a response.
const (
	cutClean = iota // the response ends as usual
	cutDrop         // the connection closes without ending the chunked body: an unexpected EOF
	cutStall        // nothing more is sent, the connection stays open
)

// cuttingWriter passes an SSE response through for a number of events (a
// flush after data was written), then stops it as its mode says and calls stop.
type cuttingWriter struct {
	http.ResponseWriter
	stop func()
	left int // events still to pass
	mode int

	mu      sync.Mutex
	sawData bool
	done    bool
}

func (w *cuttingWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case w.done && w.mode == cutStall:
		return len(p), nil // swallowed
	case w.done:
		return 0, errStreamCut
	}
	if bytes.Contains(p, []byte("data:")) {
		w.sawData = true
	}
	return w.ResponseWriter.Write(p)
}

// Flush implements [http.Flusher]; a2asrv flushes after every event.
func (w *cuttingWriter) Flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done {
		return
	}
	_ = http.NewResponseController(w.ResponseWriter).Flush() // a failed flush shows as a broken stream
	if !w.sawData {
		return
	}
	w.sawData = false
	if w.left--; w.left > 0 {
		return
	}
	w.done = true
	w.stop()
	if w.mode != cutDrop {
		return
	}
	if conn, _, err := http.NewResponseController(w.ResponseWriter).Hijack(); err == nil {
		_ = conn.Close() // the drop is the point
	}
}

func (w *cuttingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// holdAnswer serves r with its answer held back for delay, or until the client leaves when delay
// is 0: the task starts at once, the client hears nothing meanwhile.
func holdAnswer(w http.ResponseWriter, r *http.Request, next http.Handler, delay time.Duration) {
	hw := &holdingWriter{ResponseWriter: w, out: make(chan struct{})}
	if delay > 0 {
		timer := time.AfterFunc(delay, hw.release)
		defer timer.Stop()
	}
	next.ServeHTTP(hw, r)
	select { // a plain answer is complete here: it leaves once released
	case <-hw.out:
	case <-r.Context().Done():
	}
	// Once this returns the server finishes the response: a release that fires later (Stop does
	// not wait for one that runs) must not write to it. The lock waits for one that is writing.
	hw.mu.Lock()
	hw.finished = true
	hw.mu.Unlock()
}

// holdingWriter keeps what is written until release, then sends it and passes the rest on.
type holdingWriter struct {
	http.ResponseWriter
	mu       sync.Mutex
	status   int
	held     bytes.Buffer
	released bool
	finished bool          // the handler returned: nothing may be written any more
	out      chan struct{} // closed at release
}

func (w *holdingWriter) WriteHeader(code int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.released {
		w.status = code
		return
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *holdingWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.released {
		return w.held.Write(p)
	}
	return w.ResponseWriter.Write(p)
}

// Flush implements [http.Flusher]; nothing leaves before the release.
func (w *holdingWriter) Flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.released {
		_ = http.NewResponseController(w.ResponseWriter).Flush() // the client may be gone
	}
}

func (w *holdingWriter) release() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.released || w.finished {
		return
	}
	w.released = true
	if w.status != 0 {
		w.ResponseWriter.WriteHeader(w.status)
	}
	_, _ = w.ResponseWriter.Write(w.held.Bytes()) // the client may be gone
	_ = http.NewResponseController(w.ResponseWriter).Flush()
	close(w.out)
}
