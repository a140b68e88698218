package host

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/a2aport/a2aport/internal/a2aclient"
	"github.com/a2aport/a2aport/internal/sleepcount"

	"github.com/a2aport/a2aport"

	"github.com/a2aport/a2aport/internal/abi"
	"github.com/a2aport/a2aport/internal/credentials"
	"github.com/a2aport/a2aport/internal/netfail"
)

// chunkSize is the most body bytes the host reads for one read effect.
const chunkSize = 16 << 10

// driver owns one module instance: it batches inputs, calls the module, and performs the effects.
// Only its loop goroutine calls the instance; everything else talks to it through push.
type driver struct {
	h    driverHost
	inst *instance

	mu      sync.Mutex
	inbox   []input
	wake    chan struct{}
	calls   map[uint64]*pendingCall
	nextID  uint64
	dead    error
	stopped chan struct{}

	// Owned by the loop goroutine.
	fetches   map[uint64]*hostFetch
	timers    map[uint64]a2aport.Timer
	artifacts map[uint64]*abi.Artifacts // by Submit call: the whole artifacts its events rebuild
}

type input struct {
	env   abi.Envelope
	data  []byte // payload bytes (body chunks)
	probe func() // not for the module: runs on the loop goroutine, which owns the tables it reads
}

type pendingCall struct {
	id      uint64
	method  string
	onEvent func(a2aport.Event)
	done    chan abi.Envelope
}

type hostFetch struct {
	cancel context.CancelFunc
	body   io.ReadCloser // set once the response head arrived
	mu     sync.Mutex
}

// driverHost is all a driver asks of its adapter, the same narrow seam the JS driver takes
// (js/src/driver.js): time, the credentials, the context store, ordered delivery, and word of a
// trap.
type driverHost struct {
	clock   a2aport.Clock
	creds   *credentials.Transport
	store   a2aport.ContextStore                                // nil: the module keeps contexts
	works   a2aport.WorkStore                                   // nil: no Work is recorded
	post    func(func())                                        // runs f after all posted before (events before results)
	deliver func(ev a2aport.Event, onEvent func(a2aport.Event)) // to the Work's listener, then every subscriber
	trapped func(*driver)                                       // the instance died; the next call starts another
	reads   *atomic.Int64                                       // body reads, for Stats
}

func newDriver(h driverHost, inst *instance) *driver {
	d := &driver{h: h, inst: inst, wake: make(chan struct{}, 1), calls: map[uint64]*pendingCall{},
		stopped: make(chan struct{}), fetches: map[uint64]*hostFetch{}, timers: map[uint64]a2aport.Timer{},
		artifacts: map[uint64]*abi.Artifacts{}}
	go d.loop()
	return d
}

// push queues an input for the next batch.
func (d *driver) push(in input) {
	d.mu.Lock()
	d.inbox = append(d.inbox, in)
	d.mu.Unlock()
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// start registers call e and queues it; its result arrives on the returned call's done channel.
func (d *driver) start(e abi.Envelope, onEvent func(a2aport.Event)) (*pendingCall, error) {
	return d.startWith(e, nil, onEvent)
}

// startWith starts a call that carries body in the payload (Envelope.Body).
func (d *driver) startWith(e abi.Envelope, body []byte, onEvent func(a2aport.Event)) (*pendingCall, error) {
	pc := &pendingCall{method: e.Method, onEvent: onEvent, done: make(chan abi.Envelope, 1)}
	d.mu.Lock()
	if d.dead != nil {
		d.mu.Unlock()
		return nil, d.dead
	}
	d.nextID++
	e.Kind, e.ID = abi.KindCall, d.nextID
	pc.id = e.ID
	d.calls[e.ID] = pc
	d.inbox = append(d.inbox, input{env: e, data: body})
	d.mu.Unlock()
	select {
	case d.wake <- struct{}{}:
	default:
	}
	return pc, nil
}

func (d *driver) loop() {
	defer close(d.stopped)
	var w abi.Writer
	for {
		<-d.wake
		d.mu.Lock()
		batch := d.inbox
		d.inbox = nil
		dead := d.dead
		d.mu.Unlock()
		w.Reset()
		for _, in := range batch {
			switch {
			case in.probe != nil:
				in.probe()
			case dead == nil:
				if in.env.Kind == abi.KindTimer {
					delete(d.timers, in.env.ID) // fired: the module forgets it too
				}
				if in.data != nil {
					in.env.Body = w.Bytes(in.data)
				}
				w.Add(in.env)
			}
		}
		if dead != nil {
			return
		}
		if w.Len() == 0 {
			continue
		}
		frame, err := w.Frame(d.h.clock.Now().UnixNano())
		if err == nil {
			var out []byte
			if out, err = d.inst.exchange(context.Background(), frame); err == nil {
				err = d.perform(out)
			}
		}
		if err != nil {
			d.die(err)
			return
		}
	}
}

// die marks the instance dead (a trap, or a frame it cannot read) and rejects every pending call.
func (d *driver) die(cause error) {
	msg := cause.Error()
	if stderr := d.inst.stderr.String(); stderr != "" {
		msg += ": " + firstLines(stderr, 3)
	}
	dead := &a2aport.Error{Code: a2aport.CodeModuleTrapped, Message: d.h.creds.Redact("the WebAssembly module stopped: " + msg), Err: cause}
	d.mu.Lock()
	d.dead = dead
	calls := d.calls
	d.calls = map[uint64]*pendingCall{}
	d.mu.Unlock()
	d.release(calls, dead)
	d.h.trapped(d)
}

// release ends what the instance left behind (only once its loop no longer runs), rejects the
// calls it will never answer with err, and closes it.
func (d *driver) release(calls map[uint64]*pendingCall, err *a2aport.Error) {
	for _, f := range d.fetches {
		f.cancel()
	}
	for _, t := range d.timers {
		t.Stop()
	}
	for _, pc := range calls {
		d.resolve(pc, abi.Envelope{Error: abi.WireError(err)})
	}
	_ = d.inst.close(context.Background()) // the instance is discarded either way; nothing to report
}

// perform carries out one effect frame.
func (d *driver) perform(frame []byte) error {
	batch, payload, err := abi.ReadFrame(frame)
	if err != nil {
		return err
	}
	for _, e := range batch.Envelopes {
		switch e.Kind {
		case abi.KindFetch:
			body, err := abi.Slice(payload, e.Body)
			if err != nil {
				return err
			}
			d.fetch(e, bytes.Clone(body))
		case abi.KindRead:
			d.read(e.ID)
		case abi.KindAbort:
			if f := d.fetches[e.ID]; f != nil {
				delete(d.fetches, e.ID)
				f.cancel()
			}
		case abi.KindSet:
			id := e.ID
			d.timers[id] = d.h.clock.AfterFunc(time.Duration(e.Nanos), func() { d.push(input{env: abi.Envelope{Kind: abi.KindTimer, ID: id}}) })
		case abi.KindClear:
			if t := d.timers[e.ID]; t != nil {
				t.Stop()
				delete(d.timers, e.ID)
			}
		case abi.KindEvent:
			if err := d.event(e, payload); err != nil {
				return err
			}
		case abi.KindMore:
			if err := d.more(e, payload); err != nil {
				return err
			}
		case abi.KindResult:
			if err := d.result(e, payload); err != nil {
				return err
			}
		case abi.KindStore:
			d.store(e)
		default:
			return fmt.Errorf("host: unknown effect %q", e.Kind)
		}
	}
	return nil
}

// fetch performs an HTTP request for the module; credentials are added here, never in the module.
// Redirects are the module's business (its http.Client follows them), so the transport is used raw.
func (d *driver) fetch(e abi.Envelope, body []byte) {
	ctx, cancel := context.WithCancel(context.Background())
	f := &hostFetch{cancel: cancel}
	d.fetches[e.ID] = f
	id := e.ID
	go func() {
		req, err := http.NewRequestWithContext(credentials.WithPlan(ctx, e.Auth), e.Method, e.URL, bytes.NewReader(body))
		if err != nil {
			d.push(input{env: abi.Envelope{Kind: abi.KindFailed, ID: id, Error: &abi.Error{Code: string(a2aport.CodeNetworkError), Message: err.Error()}}})
			return
		}
		req.Header = http.Header(e.Headers).Clone()
		if req.Header == nil {
			req.Header = http.Header{}
		}
		resp, err := d.h.creds.RoundTrip(req)
		if err != nil {
			d.push(input{env: abi.Envelope{Kind: abi.KindFailed, ID: id, Error: fetchError(d.h.creds, err)}})
			return
		}
		f.mu.Lock()
		f.body = resp.Body
		f.mu.Unlock()
		context.AfterFunc(ctx, func() { _ = resp.Body.Close() }) // an abort also ends the body
		d.push(input{env: abi.Envelope{Kind: abi.KindResponse, ID: id, HTTPStatus: resp.StatusCode, Headers: resp.Header}})
	}()
}

// read delivers the next chunk of a body: one read per request, so nothing buffers unasked.
func (d *driver) read(id uint64) {
	f := d.fetches[id]
	if f == nil {
		return
	}
	f.mu.Lock()
	body := f.body
	f.mu.Unlock()
	d.h.reads.Add(1)
	go func() {
		buf := make([]byte, chunkSize)
		n, err := body.Read(buf)
		for n == 0 && err == nil {
			n, err = body.Read(buf)
		}
		if n > 0 {
			d.push(input{env: abi.Envelope{Kind: abi.KindChunk, ID: id}, data: buf[:n]})
		}
		switch {
		case errors.Is(err, io.EOF):
			d.push(input{env: abi.Envelope{Kind: abi.KindEnd, ID: id}})
		case err != nil:
			d.push(input{env: abi.Envelope{Kind: abi.KindFailed, ID: id, Error: fetchError(d.h.creds, err)}})
		}
	}()
}

// more delivers the event a KindMore envelope stands for: the call's last text-delta event again,
// appending the text at DeltaText.
func (d *driver) more(e abi.Envelope, payload []byte) error {
	text, err := abi.Slice(payload, e.DeltaText)
	if err != nil {
		return err
	}
	arts := d.artifacts[e.ID]
	if arts == nil {
		return fmt.Errorf("host: more text for call %d, which sent no event", e.ID)
	}
	ev, err := arts.More(string(text))
	if err != nil {
		return err
	}
	e.Event, e.DeltaText = &ev, nil
	return d.event(e, payload)
}

func (d *driver) event(e abi.Envelope, payload []byte) error {
	if e.Event == nil {
		return nil
	}
	if e.DeltaText != nil && e.Event.Delta != nil {
		text, err := abi.Slice(payload, e.DeltaText)
		if err != nil {
			return err
		}
		e.Event.Delta.Text = string(text)
	}
	arts := d.artifacts[e.ID]
	if arts == nil {
		arts = &abi.Artifacts{}
		d.artifacts[e.ID] = arts
	}
	if err := arts.Rebuild(e.Event); err != nil {
		return err
	}
	ev := redactEvent(d.h.creds, *e.Event)
	d.mu.Lock()
	pc := d.calls[e.ID]
	d.mu.Unlock()
	var onEvent func(a2aport.Event)
	if pc != nil {
		onEvent = pc.onEvent
	}
	d.h.post(func() { d.h.deliver(ev, onEvent) })
	return nil
}

func (d *driver) result(e abi.Envelope, payload []byte) error {
	if e.Outcome != nil && e.ContentBody != nil {
		content, err := abi.Slice(payload, e.ContentBody)
		if err != nil {
			return err
		}
		e.Outcome.Content = string(content)
	}
	if e.Outcome != nil && (len(e.Reuse) > 0 || len(e.Content) > 0) {
		arts := d.artifacts[e.ID]
		if arts == nil {
			arts = &abi.Artifacts{}
		}
		if err := arts.Outcome(&e); err != nil {
			return err
		}
	}
	delete(d.artifacts, e.ID)
	d.mu.Lock()
	pc := d.calls[e.ID]
	delete(d.calls, e.ID)
	d.mu.Unlock()
	if pc == nil {
		return nil
	}
	if e.Error != nil {
		e.Error.Message = d.h.creds.Redact(e.Error.Message)
	}
	d.resolve(pc, e)
	return nil
}

// resolve hands a result to its caller: a Submit's or a Resume's through the dispatcher, after
// the Work's events; other calls at once (a listener may make them, and wait for them).
func (d *driver) resolve(pc *pendingCall, e abi.Envelope) {
	if pc.method == abi.MethodSubmit || pc.method == abi.MethodResume {
		d.h.post(func() { pc.done <- e })
		return
	}
	pc.done <- e
}

// store answers the module's store requests from the host's ContextStore and WorkStore.
func (d *driver) store(e abi.Envelope) {
	store := d.h.store
	if e.Method == abi.StoreHold || e.Method == abi.StoreRelease {
		if h, ok := store.(interface {
			Hold(string)
			Release(string)
		}); ok {
			if e.Method == abi.StoreHold {
				h.Hold(e.OwnerID)
			} else {
				h.Release(e.OwnerID)
			}
		}
		return
	}
	go func() {
		ctx := context.Background()
		done := abi.Envelope{Kind: abi.KindStoreDone, ID: e.ID}
		var err error
		switch works := d.h.works; {
		case strings.HasPrefix(e.Method, "work") && works == nil, !strings.HasPrefix(e.Method, "work") && store == nil:
			err = fmt.Errorf("no store for %q", e.Method)
		case e.Method == abi.StoreGet:
			done.ContextID, done.Found, err = store.Get(ctx, e.OwnerID)
		case e.Method == abi.StoreSet:
			err = store.Set(ctx, e.OwnerID, e.ContextID)
		case e.Method == abi.StoreDelete:
			err = store.Delete(ctx, e.OwnerID)
		case e.Method == abi.StoreWorkGet:
			var rec a2aport.WorkRecord
			if rec, done.Found, err = works.Get(ctx, e.WorkID); done.Found {
				done.Record = &rec
			}
		case e.Method == abi.StoreWorkSet && e.Record != nil:
			err = works.Set(ctx, *e.Record)
		case e.Method == abi.StoreWorkDelete:
			err = works.Delete(ctx, e.WorkID)
		default:
			err = fmt.Errorf("unknown store method %q", e.Method)
		}
		if err != nil {
			done.Error = &abi.Error{Code: string(a2aport.CodeInternal), Message: d.h.creds.Redact(err.Error())}
		}
		d.push(input{env: done})
	}()
}

// fetchError types a transport failure for the module.
func fetchError(creds *credentials.Transport, err error) *abi.Error {
	var headerErr *credentials.HeaderFuncError
	if errors.As(err, &headerErr) {
		return &abi.Error{Code: string(a2aport.CodeHeadersFailed), Message: creds.Redact(headerErr.Err.Error())}
	}
	var authErr *credentials.AuthError
	if errors.As(err, &authErr) && !authErr.Retry {
		return &abi.Error{Code: abi.FetchAuthFailed, Status: authErr.Status, Message: creds.Redact(authErr.Error())}
	}
	code := string(a2aport.CodeNetworkError)
	switch {
	case netfail.NotSent(err):
		code = abi.FetchNotSent
	case netfail.Broken(err):
		code = abi.FetchBroken
	}
	return &abi.Error{Code: code, Message: creds.Redact(err.Error())}
}

// redactEvent keeps credentials out of event texts (the agent may echo what it was sent).
func redactEvent(creds *credentials.Transport, ev a2aport.Event) a2aport.Event {
	ev.Text = creds.Redact(ev.Text)
	if ev.Input != nil {
		in := *ev.Input
		in.Prompt = creds.Redact(in.Prompt)
		ev.Input = &in
	}
	return ev
}

func firstLines(s string, n int) string {
	lines := bytes.SplitN([]byte(s), []byte("\n"), n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return string(bytes.Join(lines, []byte(" | ")))
}

// stop ends the loop and closes the instance; pending calls are rejected as closed.
func (d *driver) stop() {
	d.mu.Lock()
	if d.dead == nil {
		d.dead = a2aclient.ClosedError()
	}
	calls := d.calls
	d.calls = map[uint64]*pendingCall{}
	d.mu.Unlock()
	select {
	case d.wake <- struct{}{}:
	default:
	}
	<-d.stopped
	sleepcount.Ended.Add(d.inst.sleeps.Load())
	d.release(calls, a2aclient.ClosedError())
}
