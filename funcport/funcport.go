package funcport

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/a2aport/a2aport"
)

// Func runs one Work to its outcome. t tells the Work's owner of its progress and asks the owner
// questions; ctx ends when the Work is cancelled, its caller gives up or the Port closes. An error
// that is not an *a2aport.Error ends the Work as A2A_TASK_FAILED with its text.
type Func func(ctx context.Context, work a2aport.Work, t *Turn) (a2aport.Outcome, error)

// Options describe the Port. The zero value is ready to use.
type Options struct {
	// Label names the Port in Describe (default "funcport").
	Label string
	// InputModes and OutputModes are the media types its Works take and give (default text/plain).
	InputModes, OutputModes []string
}

// Port is an a2aport.Port whose Works run a Func. It keeps the contract around the function
// (DESIGN.md §2): one outcome per Work, validation, status, cancel, questions and answers,
// listeners, close. A Port method added to the contract later is added here, not to your code.
type Port struct {
	run  Func
	opts Options

	mu        sync.Mutex
	started   bool
	closed    bool
	works     map[string]*work
	listeners map[int]func(a2aport.Event)
	nextID    int
}

var _ a2aport.Port = (*Port)(nil)

// New returns a Port whose Works run f.
func New(f Func, opts Options) *Port {
	if opts.Label == "" {
		opts.Label = "funcport"
	}
	if len(opts.InputModes) == 0 {
		opts.InputModes = []string{"text/plain"}
	}
	if len(opts.OutputModes) == 0 {
		opts.OutputModes = []string{"text/plain"}
	}
	return &Port{run: f, opts: opts, works: map[string]*work{}, listeners: map[int]func(a2aport.Event){}}
}

// Causes with which a Work's context ends.
var (
	errCancelled = errors.New("the work was cancelled")
	errClosed    = errors.New("the port was closed")
)

// Describe implements a2aport.Port.
func (p *Port) Describe() a2aport.Description {
	p.mu.Lock()
	defer p.mu.Unlock()
	return a2aport.Description{Protocol: "a2a", Label: p.opts.Label, Discovered: p.started,
		Capabilities: a2aport.Capabilities{Cancel: true, Streaming: true, InputRequests: true,
			InputModes: p.opts.InputModes, OutputModes: p.opts.OutputModes}}
}

// Start implements a2aport.Port: there is nothing to discover.
func (p *Port) Start(context.Context) (a2aport.Health, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return a2aport.Health{Closed: true, Error: "the port is closed"}, closedError()
	}
	p.started = true
	return a2aport.Health{OK: true, Started: true}, nil
}

// Health implements a2aport.Port.
func (p *Port) Health(context.Context) (a2aport.Health, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return a2aport.Health{OK: !p.closed, Started: p.started, Closed: p.closed}, nil
}

// Submit implements a2aport.Port.
func (p *Port) Submit(ctx context.Context, w a2aport.Work, opts ...a2aport.SubmitOption) (a2aport.Outcome, error) {
	if err := w.Validate(); err != nil {
		return a2aport.Outcome{}, err
	}
	cfg := a2aport.ApplySubmitOptions(opts...)
	wk := &work{port: p, w: w, onEvent: cfg.OnEvent, state: a2aport.StateWorking, done: make(chan struct{})}
	wk.ctx, wk.stop = context.WithCancelCause(ctx)
	defer wk.stop(nil)
	p.mu.Lock()
	switch {
	case p.closed:
		p.mu.Unlock()
		return a2aport.Outcome{}, closedError()
	case p.works[w.ID] != nil:
		p.mu.Unlock()
		return a2aport.Outcome{}, &a2aport.Error{Code: a2aport.CodeWorkAlreadyActive, Message: fmt.Sprintf("work %q is already active", w.ID)}
	}
	p.works[w.ID] = wk
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		delete(p.works, w.ID)
		p.mu.Unlock()
	}()

	wk.emit(a2aport.Event{Type: a2aport.EventActivity, State: a2aport.StateWorking})
	type result struct {
		out a2aport.Outcome
		err error
	}
	ran := make(chan result, 1)
	go func() {
		defer func() {
			if v := recover(); v != nil {
				ran <- result{err: &a2aport.Error{Code: a2aport.CodeInternal, Message: fmt.Sprintf("the work panicked: %v", v)}}
			}
		}()
		out, err := p.run(wk.ctx, w, &Turn{w: wk})
		ran <- result{out, err}
	}()
	select {
	case r := <-ran:
		return wk.settle(r.out, r.err, true)
	case <-wk.ctx.Done(): // a function that ignores its context does not hold the Work's end back
		select {
		case r := <-ran:
			return wk.settle(r.out, r.err, true)
		default:
			return wk.settle(a2aport.Outcome{}, nil, false)
		}
	}
}

// Resume implements a2aport.Port: a function's Work does not outlive its Port.
func (p *Port) Resume(context.Context, string, string, ...a2aport.SubmitOption) (a2aport.Outcome, error) {
	if p.isClosed() {
		return a2aport.Outcome{}, closedError()
	}
	return a2aport.Outcome{}, &a2aport.Error{Code: a2aport.CodeWorkNotFound, Message: "a function's Work does not outlive its Port: nothing to resume"}
}

// Status implements a2aport.Port.
func (p *Port) Status(workID, ownerID string) a2aport.Status {
	p.mu.Lock()
	defer p.mu.Unlock()
	if workID == "" {
		st := a2aport.Status{State: a2aport.RuntimeIdle, Started: p.started, ActiveWorks: len(p.works)}
		switch {
		case p.closed:
			st.State = a2aport.RuntimeClosed
		case p.started:
			st.State = a2aport.RuntimeReady
		}
		return st
	}
	wk := p.works[workID]
	if wk == nil || wk.w.OwnerID != ownerID || wk.stopped() {
		return a2aport.Status{State: a2aport.StateNotFound}
	}
	return a2aport.Status{State: wk.currentState()}
}

// Cancel implements a2aport.Port.
func (p *Port) Cancel(_ context.Context, workID, ownerID string) (a2aport.CancelResult, error) {
	wk, err := p.find(workID, ownerID)
	if err != nil || wk == nil {
		return a2aport.CancelResult{State: a2aport.StateNotFound}, err
	}
	if !wk.end(errCancelled) {
		return a2aport.CancelResult{State: a2aport.StateNotFound}, nil
	}
	return a2aport.CancelResult{WorkID: workID, State: a2aport.StateCancelled}, nil
}

// RespondInput implements a2aport.Port: it answers the question the Work's Turn.Ask waits on.
func (p *Port) RespondInput(_ context.Context, workID, ownerID, inputRequestID string, response a2aport.InputResponse) error {
	wk, err := p.find(workID, ownerID)
	if err != nil {
		return err
	}
	if wk == nil {
		return &a2aport.Error{Code: a2aport.CodeWorkNotFound, Message: fmt.Sprintf("work %q is not active for this owner", workID)}
	}
	return wk.answer(inputRequestID, response)
}

// RespondAuthorization implements a2aport.Port: as every Port, it has no approvals to give.
func (p *Port) RespondAuthorization(context.Context, string, string, string, a2aport.InputResponse) error {
	return &a2aport.Error{Code: a2aport.CodeAuthorizationUnsupported, Message: "A2A has no general approval semantics: answer with RespondInput"}
}

// Subscribe implements a2aport.Port.
func (p *Port) Subscribe(listener func(a2aport.Event)) func() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || listener == nil {
		return func() {}
	}
	id := p.nextID
	p.nextID++
	p.listeners[id] = listener
	return func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		delete(p.listeners, id)
	}
}

// Close implements a2aport.Port: active Works end ADAPTER_CLOSED, listeners are dropped.
func (p *Port) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	active := make([]*work, 0, len(p.works))
	for _, wk := range p.works {
		active = append(active, wk)
	}
	p.listeners = map[int]func(a2aport.Event){}
	p.mu.Unlock()
	for _, wk := range active {
		wk.end(errClosed)
		<-wk.done
	}
	return nil
}

// Detach implements a2aport.Port as Close: a function's Work cannot go on without its Port.
func (p *Port) Detach() error { return p.Close() }

// find is owner's active Work workID: nil for none, WORK_NOT_FOUND for another owner's.
func (p *Port) find(workID, ownerID string) (*work, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	wk := p.works[workID]
	if wk == nil {
		return nil, nil
	}
	if wk.w.OwnerID != ownerID {
		return nil, &a2aport.Error{Code: a2aport.CodeWorkNotFound, Message: fmt.Sprintf("work %q is not active for this owner", workID)}
	}
	return wk, nil
}

func (p *Port) isClosed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.closed
}

func (p *Port) subscribers() []func(a2aport.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]func(a2aport.Event), 0, len(p.listeners))
	for _, l := range p.listeners {
		out = append(out, l)
	}
	return out
}

func closedError() error {
	return &a2aport.Error{Code: a2aport.CodeAdapterClosed, Message: "the port is closed"}
}
