package bridge

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/internal/abi"
	"github.com/a2aport/a2aport/internal/credentials"
	"github.com/a2aport/a2aport/internal/netfail"
)

// fetch is one HTTP exchange performed by the host. Its fields are guarded by mu; the scheduler's
// ready checks read them, so mu is never held while calling into the scheduler.
type fetch struct {
	id  uint64
	ctx context.Context

	mu       sync.Mutex
	resp     *http.Response // set by the response head
	buf      []byte         // body bytes delivered and not yet read
	asked    bool           // a read effect is outstanding
	ended    bool
	err      error // why the fetch or its body ended (io.EOF for a clean end)
	finished bool  // the module is done with it; late inputs are ignored
}

// RoundTrip implements http.RoundTripper: the request becomes a fetch effect and the goroutine
// parks until the host answers or the request's context ends (then the fetch is aborted).
func (b *Bridge) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		var err error
		body, err = io.ReadAll(req.Body) // a2a-go's request bodies are in memory: this never waits
		if cerr := req.Body.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return nil, fmt.Errorf("bridge: reading the request body: %w", err)
		}
	}
	f := &fetch{id: b.newID(), ctx: req.Context()}
	b.mu.Lock()
	b.fetches[f.id] = f
	b.mu.Unlock()
	b.emitWithBody(abi.Envelope{Kind: abi.KindFetch, ID: f.id, Method: req.Method, URL: req.URL.String(), Headers: req.Header,
		Auth: credentials.PlanOf(req.Context())}, body)

	b.sched.Wait(func() bool { return f.headReady() || f.ctx.Err() != nil })
	f.mu.Lock()
	resp, err := f.resp, f.err
	f.mu.Unlock()
	if resp == nil {
		if err == nil || f.ctx.Err() != nil {
			b.abort(f)
			return nil, f.ctx.Err()
		}
		b.abort(f)
		return nil, err
	}
	resp.Request = req
	resp.Body = &bodyReader{b: b, f: f}
	return resp, nil
}

func (f *fetch) headReady() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.resp != nil || f.ended
}

// bodyReader pulls the response body from the host one chunk at a time: the host reads the next chunk
// only when asked, so a slow reader never makes it buffer without bound.
type bodyReader struct {
	b *Bridge
	f *fetch
}

func (r *bodyReader) Read(p []byte) (int, error) {
	f := r.f
	for {
		f.mu.Lock()
		if len(f.buf) > 0 {
			n := copy(p, f.buf)
			f.buf = f.buf[n:]
			f.mu.Unlock()
			return n, nil
		}
		if f.ended {
			err := f.err
			f.mu.Unlock()
			return 0, err
		}
		ask := !f.asked
		f.asked = true
		f.mu.Unlock()
		if ask {
			r.b.emit(abi.Envelope{Kind: abi.KindRead, ID: f.id})
		}
		r.b.sched.Wait(func() bool { return f.bodyReady() || f.ctx.Err() != nil })
		if f.ctx.Err() != nil && !f.bodyReady() {
			r.b.abort(f)
			return 0, f.ctx.Err()
		}
	}
}

func (f *fetch) bodyReady() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.buf) > 0 || f.ended
}

// Close ends the body; the host stops reading an unfinished one.
func (r *bodyReader) Close() error {
	r.b.abort(r.f)
	return nil
}

// abort tells the host the module is done with fetch f (finished or not: the host then cancels
// whatever is left and frees it) and forgets it.
func (b *Bridge) abort(f *fetch) {
	if b.forget(f) {
		b.emit(abi.Envelope{Kind: abi.KindAbort, ID: f.id})
	}
}

// forget removes f from the table; it reports whether f was still there.
func (b *Bridge) forget(f *fetch) bool {
	f.mu.Lock()
	f.finished, f.ended = true, true
	if f.err == nil {
		f.err = io.ErrClosedPipe
	}
	f.buf = nil
	f.mu.Unlock()
	b.mu.Lock()
	defer b.mu.Unlock()
	_, ok := b.fetches[f.id]
	delete(b.fetches, f.id)
	return ok
}

// deliverFetch applies a response head, a body chunk, the end or a failure to its fetch.
func (b *Bridge) deliverFetch(e abi.Envelope, payload []byte) error {
	b.mu.Lock()
	f := b.fetches[e.ID]
	b.mu.Unlock()
	if f == nil {
		return nil // aborted meanwhile: the host may still have been answering
	}
	data, err := abi.Slice(payload, e.Body)
	if err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.finished {
		return nil
	}
	switch e.Kind {
	case abi.KindResponse:
		f.resp = &http.Response{
			Status: strconv.Itoa(e.HTTPStatus) + " " + http.StatusText(e.HTTPStatus), StatusCode: e.HTTPStatus,
			Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
			Header: canonicalHeader(e.Headers), ContentLength: -1,
		}
	case abi.KindChunk:
		f.buf = append(f.buf, data...) // copied: the payload is the host's input buffer
		f.asked = false
	case abi.KindEnd:
		f.ended, f.err = true, io.EOF
	case abi.KindFailed:
		f.ended, f.err = true, fetchError(e.Error)
	}
	return nil
}

// canonicalHeader keys h as net/http does: a browser's fetch hands header names over in lower
// case, and Header.Get looks them up in canonical form only.
func canonicalHeader(h map[string][]string) http.Header {
	out := make(http.Header, len(h))
	for name, values := range h {
		key := http.CanonicalHeaderKey(name)
		out[key] = append(out[key], values...)
	}
	return out
}

// fetchError rebuilds the host's failure as the error the adapter would have seen natively.
func fetchError(e *abi.Error) error {
	if e == nil {
		return errors.New("fetch failed")
	}
	switch e.Code {
	case string(a2aport.CodeHeadersFailed):
		return &credentials.HeaderFuncError{Err: errors.New(e.Message)}
	case abi.FetchAuthFailed:
		return &credentials.AuthError{Status: e.Status, Message: e.Message}
	case abi.FetchRedirectHidden:
		return &netfail.Redirect{}
	}
	blocked := e.Code == abi.FetchBlocked
	return &netError{msg: e.Message, notSent: blocked || e.Code == abi.FetchNotSent, blocked: blocked, broken: e.Code == abi.FetchBroken, cause: e.Cause}
}

// netError is a host-side network failure; as a net.Error the adapter types it A2A_NETWORK_ERROR.
type netError struct {
	msg     string
	notSent bool
	blocked bool
	broken  bool
	cause   *abi.Cause
}

// RequestNotSent reports whether the host knows the request never left it.
func (e *netError) RequestNotSent() bool { return e.notSent }

// RequestBroken reports whether the host saw the connection made and then broken.
func (e *netError) RequestBroken() bool { return e.broken }

// RequestBlocked reports whether a browser refused the request for the page's origin (CORS).
func (e *netError) RequestBlocked() bool { return e.blocked }

// HostCause is the host runtime's own failure, for the error the host's caller gets.
func (e *netError) HostCause() *abi.Cause { return e.cause }

func (e *netError) Error() string   { return e.msg }
func (e *netError) Timeout() bool   { return false }
func (e *netError) Temporary() bool { return true }
