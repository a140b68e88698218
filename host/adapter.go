package host

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/a2aport/a2aport/internal/a2aclient"

	"github.com/a2aport/a2aport"

	"github.com/a2aport/a2aport/internal/abi"
	"github.com/a2aport/a2aport/internal/credentials"
)

// Adapter implements a2aport.Port by driving a2aport.wasm under wazero. It takes the same
// Options as adapter.New and behaves the same; credentials stay in this process and are added to
// the fetches the module asks for.
type Adapter struct {
	opts  a2aport.Options
	init  abi.Init
	creds *credentials.Transport
	clock a2aport.Clock
	disp  *dispatcher
	reads atomic.Int64
	calls calls // Submit and Resume calls under way (transit.go)

	mu        sync.Mutex
	drv       *driver // nil after a trap until the next call starts a fresh instance
	closed    bool
	lastDesc  a2aport.Description
	listeners map[int]func(a2aport.Event)
	nextID    int
	traps     int
}

var _ a2aport.Port = (*Adapter)(nil)

// New instantiates the module (compiling it once per process) and creates its adapter. Invalid
// options fail here, with the same errors as adapter.New.
func New(ctx context.Context, opts a2aport.Options) (*Adapter, error) {
	h := &Adapter{opts: opts, clock: opts.Clock, listeners: map[int]func(a2aport.Event){}}
	if h.clock == nil {
		h.clock = a2aport.RealClock()
	}
	transport := opts.Transport
	if transport == nil {
		transport = http.DefaultTransport
	}
	h.creds = &credentials.Transport{Base: transport, Token: opts.Token, Headers: opts.Headers, HeaderFunc: opts.HeaderFunc,
		Credentials: opts.Credentials, TokenProvider: opts.TokenProvider, TokenOrigins: credentials.TokenOrigins(opts.AgentCardURL, opts.AllowedOrigins)}
	init, err := abi.NewInit(opts)
	if err != nil {
		return nil, err
	}
	h.init = init
	h.disp = newDispatcher()
	if _, err := h.driver(ctx); err != nil {
		h.disp.close()
		return nil, err
	}
	return h, nil
}

// driver returns the live instance's driver, starting a fresh instance after a trap.
func (h *Adapter) driver(ctx context.Context) (*driver, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.drv != nil {
		return h.drv, nil
	}
	inst, err := shared.instantiate(ctx)
	if err != nil {
		return nil, &a2aport.Error{Code: a2aport.CodeModuleTrapped, Message: h.creds.Redact(err.Error()), Err: err}
	}
	d := newDriver(h.driverHost(), inst)
	pc, err := d.start(abi.Envelope{Method: abi.MethodInit, Init: &h.init}, nil)
	if err == nil {
		err = (<-pc.done).Error.AdapterError()
	}
	if err != nil {
		d.stop()
		return nil, err
	}
	h.drv = d
	return d, nil
}

// trapped forgets a dead instance; the next call starts a fresh one.
func (h *Adapter) trapped(d *driver) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.drv == d {
		h.drv = nil
		h.traps++
	}
}

// call runs one API call in the module and waits for its result.
func (h *Adapter) call(ctx context.Context, e abi.Envelope, onEvent func(a2aport.Event)) (abi.Envelope, error) {
	d, err := h.driver(ctx)
	if err != nil {
		return abi.Envelope{}, err
	}
	pc, err := d.start(e, onEvent)
	if err != nil {
		return abi.Envelope{}, err
	}
	res := <-pc.done
	return res, res.Error.AdapterError()
}

func (h *Adapter) isClosed() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.closed
}

// gone answers for the closed adapter, as the adapter package states those answers.
func (h *Adapter) gone() a2aport.Port { return a2aclient.ClosedPort(h.opts.Label) }

// Describe implements a2aport.Port.
func (h *Adapter) Describe() a2aport.Description {
	if !h.isClosed() {
		if res, err := h.call(context.Background(), abi.Envelope{Method: abi.MethodDescribe}, nil); err == nil && res.Description != nil {
			h.mu.Lock()
			h.lastDesc = *res.Description
			h.mu.Unlock()
		}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	d := h.lastDesc
	if d.Protocol == "" { // the module could not answer (trapped and not restartable)
		d = a2aport.Description{Protocol: "a2a", Label: h.opts.Label}
	}
	return d
}

// Start implements a2aport.Port.
func (h *Adapter) Start(ctx context.Context) (a2aport.Health, error) {
	if h.isClosed() {
		return h.gone().Start(ctx)
	}
	res, err := h.call(ctx, abi.Envelope{Method: abi.MethodStart}, nil)
	if err != nil {
		return a2aport.Health{Error: err.Error()}, err
	}
	return *res.Health, nil
}

// Health implements a2aport.Port.
func (h *Adapter) Health(ctx context.Context) (a2aport.Health, error) {
	if h.isClosed() {
		return h.gone().Health(ctx)
	}
	res, err := h.call(ctx, abi.Envelope{Method: abi.MethodHealth}, nil)
	if err != nil {
		return a2aport.Health{Error: err.Error()}, err
	}
	return *res.Health, nil
}

// Submit implements a2aport.Port. When ctx ends first, the Work is cancelled as if by Cancel.
func (h *Adapter) Submit(ctx context.Context, w a2aport.Work, opts ...a2aport.SubmitOption) (a2aport.Outcome, error) {
	if h.isClosed() {
		return h.gone().Submit(ctx, w, opts...)
	}
	if err := w.Validate(); err != nil {
		return a2aport.Outcome{}, err // the frame could not carry it
	}
	return h.follow(ctx, abi.Envelope{Method: abi.MethodSubmit, Work: &w}, opts)
}

// Resume implements a2aport.Port.
func (h *Adapter) Resume(ctx context.Context, workID, ownerID string, opts ...a2aport.SubmitOption) (a2aport.Outcome, error) {
	if h.isClosed() {
		return h.gone().Resume(ctx, workID, ownerID, opts...)
	}
	return h.follow(ctx, abi.Envelope{Method: abi.MethodResume, WorkID: workID, OwnerID: ownerID}, opts)
}

// follow makes a Submit or Resume call of the module and waits for its outcome, delivering its
// events meanwhile.
func (h *Adapter) follow(ctx context.Context, call abi.Envelope, opts []a2aport.SubmitOption) (a2aport.Outcome, error) {
	cfg := a2aport.ApplySubmitOptions(opts...)
	call.Traceparent = cfg.Traceparent
	workID := call.WorkID
	if call.Work != nil {
		workID = call.Work.ID
	}
	defer h.calls.enter(workID)()
	d, err := h.driver(ctx)
	if err != nil {
		return a2aport.Outcome{}, err
	}
	pc, err := d.start(call, cfg.OnEvent)
	if err != nil {
		return a2aport.Outcome{}, err
	}
	var res abi.Envelope
	select {
	case res = <-pc.done:
	case <-ctx.Done():
		// The module ends this call's context, as a cancelled ctx ends a native Submit; its
		// result then says what happened.
		d.push(input{env: abi.Envelope{Kind: abi.KindAbortCall, ID: pc.id}})
		res = <-pc.done
	}
	if err := res.Error.AdapterError(); err != nil {
		return a2aport.Outcome{}, err
	}
	return *res.Outcome, nil
}

// Status implements a2aport.Port.
func (h *Adapter) Status(workID, ownerID string) a2aport.Status {
	if h.isClosed() {
		return h.gone().Status(workID, ownerID)
	}
	res, err := h.call(context.Background(), abi.Envelope{Method: abi.MethodStatus, WorkID: workID, OwnerID: ownerID}, nil)
	if err != nil || res.Status == nil {
		return a2aport.Status{State: a2aport.StateNotFound}
	}
	return *res.Status
}

// Cancel implements a2aport.Port.
func (h *Adapter) Cancel(ctx context.Context, workID, ownerID string) (a2aport.CancelResult, error) {
	if h.isClosed() {
		return h.gone().Cancel(ctx, workID, ownerID)
	}
	return h.calls.cancelInTransit(ctx, workID, func() (a2aport.CancelResult, error) {
		res, err := h.call(ctx, abi.Envelope{Method: abi.MethodCancel, WorkID: workID, OwnerID: ownerID}, nil)
		if err != nil {
			return a2aport.CancelResult{}, err
		}
		return *res.Cancel, nil
	})
}

// RespondInput implements a2aport.Port.
func (h *Adapter) RespondInput(ctx context.Context, workID, ownerID, inputRequestID string, resp a2aport.InputResponse) error {
	return h.respond(ctx, abi.MethodRespondInput, workID, inputRequestID, resp, ownerID)
}

// RespondAuthorization implements a2aport.Port.
func (h *Adapter) RespondAuthorization(ctx context.Context, workID, ownerID, inputRequestID string, resp a2aport.InputResponse) error {
	return h.respond(ctx, abi.MethodRespondAuthorization, workID, inputRequestID, resp, ownerID)
}

func (h *Adapter) respond(ctx context.Context, method, workID, inputRequestID string, resp a2aport.InputResponse, ownerID string) error {
	if h.isClosed() {
		if method == abi.MethodRespondAuthorization {
			return h.gone().RespondAuthorization(ctx, workID, ownerID, inputRequestID, resp)
		}
		return h.gone().RespondInput(ctx, workID, ownerID, inputRequestID, resp)
	}
	_, err := h.call(ctx, abi.Envelope{Method: method, WorkID: workID, InputRequestID: inputRequestID, Response: &resp, OwnerID: ownerID}, nil)
	return err
}

// Subscribe implements a2aport.Port.
func (h *Adapter) Subscribe(listener func(a2aport.Event)) func() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed || listener == nil {
		return func() {}
	}
	id := h.nextID
	h.nextID++
	h.listeners[id] = listener
	return func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		delete(h.listeners, id)
	}
}

// deliver hands an event to the Work's own listener, then to every subscriber.
func (h *Adapter) deliver(ev a2aport.Event, onEvent func(a2aport.Event)) {
	if onEvent != nil {
		deliver(onEvent, ev)
	}
	h.mu.Lock()
	listeners := make([]func(a2aport.Event), 0, len(h.listeners))
	for _, l := range h.listeners {
		listeners = append(listeners, l)
	}
	h.mu.Unlock()
	for _, l := range listeners {
		deliver(l, ev)
	}
}

// driverHost is the narrow seam a driver of this adapter gets.
func (h *Adapter) driverHost() driverHost {
	return driverHost{clock: h.clock, creds: h.creds, store: h.opts.ContextStore, works: h.opts.WorkStore, post: h.disp.post,
		deliver: h.deliver, trapped: h.trapped, reads: &h.reads}
}

// Close implements a2aport.Port: the module cancels active Works (bounded) and rejects pending
// submits, then the instance is closed.
func (h *Adapter) Close() error { return h.shutdown(abi.MethodClose) }

// Detach implements a2aport.Port: the module lets go of active Works, leaving them running at
// the agent with their WorkStore records (kept in this process), then the instance is closed.
func (h *Adapter) Detach() error { return h.shutdown(abi.MethodDetach) }

// shutdown closes or detaches (method) the module's adapter, then the instance.
func (h *Adapter) shutdown(method string) error {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil
	}
	d := h.drv
	h.mu.Unlock()
	if d != nil {
		h.Describe() // remembered for Describe after Close
		if pc, err := d.start(abi.Envelope{Method: method}, nil); err == nil {
			<-pc.done
		}
	}
	h.mu.Lock()
	h.closed = true
	h.drv = nil
	h.listeners = map[int]func(a2aport.Event){}
	h.mu.Unlock()
	if d != nil {
		d.stop()
	}
	h.disp.close()
	if m, ok := h.opts.ContextStore.(*a2aport.MemoryContextStore); ok {
		m.Clear() // as natively: the in-memory cache goes with the adapter
	}
	return nil
}
