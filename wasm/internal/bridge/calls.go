package bridge

import (
	"context"
	"fmt"
	"runtime"

	"github.com/a2aport/a2aport/internal/a2aclient"

	"github.com/a2aport/a2aport"

	"github.com/a2aport/a2aport/internal/abi"
)

// call runs one API call in a counted goroutine and emits its result. A panic becomes the call's
// INTERNAL error and the module stays usable.
func (b *Bridge) call(e abi.Envelope, body []byte) {
	ctx, cancel := context.WithCancel(context.Background())
	b.mu.Lock()
	b.aborts[e.ID] = cancel
	b.mu.Unlock()
	b.sched.Go(func() {
		defer func() {
			b.mu.Lock()
			delete(b.aborts, e.ID)
			b.mu.Unlock()
			cancel()
		}()
		res := b.dispatch(ctx, e, body)
		res.Kind, res.ID = abi.KindResult, e.ID
		b.emitResult(res)
	}, func(v any) {
		b.emit(abi.Envelope{Kind: abi.KindResult, ID: e.ID, Error: &abi.Error{
			Code: string(a2aport.CodeInternal), Message: fmt.Sprintf("internal error in %s: %v", e.Method, v)}})
	})
}

// dispatch performs the call under ctx (ended by an abortCall input) and returns its result; body
// is the bytes the call carries in the payload (receivePush's).
func (b *Bridge) dispatch(ctx context.Context, e abi.Envelope, body []byte) abi.Envelope {
	switch e.Method {
	case abi.MethodInit:
		return result(nil, b.init(e.Init))
	case abi.MethodStats:
		return abi.Envelope{Stats: b.stats()}
	case abi.MethodPanic:
		panic("deliberate panic (test hook)")
	case abi.MethodTrap:
		// Unrecovered in a counted goroutine: the runtime aborts the module within this batch.
		b.sched.Go(func() { panic("deliberate trap (test hook)") }, nil)
		b.sched.Wait(func() bool { return false })
		return abi.Envelope{}
	}
	b.mu.Lock()
	p := b.port
	b.mu.Unlock()
	if p == nil {
		return result(nil, &a2aport.Error{Code: a2aport.CodeInternal, Message: "the module has no adapter: call init first"})
	}
	switch e.Method {
	case abi.MethodDescribe:
		d := p.Describe()
		return abi.Envelope{Description: &d}
	case abi.MethodStart:
		h, err := p.Start(ctx)
		return result(&abi.Envelope{Health: &h}, err)
	case abi.MethodHealth:
		h, err := p.Health(ctx)
		return result(&abi.Envelope{Health: &h}, err)
	case abi.MethodSubmit:
		if e.Work == nil {
			return result(nil, &a2aport.Error{Code: a2aport.CodeInvalidWork, Message: "submit needs a Work"})
		}
		return b.follow(ctx, e, func(ctx context.Context, opts ...a2aport.SubmitOption) (a2aport.Outcome, error) {
			return p.Submit(ctx, *e.Work, opts...)
		})
	case abi.MethodResume:
		return b.follow(ctx, e, func(ctx context.Context, opts ...a2aport.SubmitOption) (a2aport.Outcome, error) {
			return p.Resume(ctx, e.WorkID, e.OwnerID, opts...)
		})
	case abi.MethodStatus:
		st := p.Status(e.WorkID, e.OwnerID)
		return abi.Envelope{Status: &st}
	case abi.MethodCancel:
		res, err := p.Cancel(ctx, e.WorkID, e.OwnerID)
		return result(&abi.Envelope{Cancel: &res}, err)
	case abi.MethodRespondInput, abi.MethodRespondAuthorization:
		var resp a2aport.InputResponse
		if e.Response != nil {
			resp = *e.Response
		}
		respond := p.RespondInput
		if e.Method == abi.MethodRespondAuthorization {
			respond = p.RespondAuthorization
		}
		return result(nil, respond(ctx, e.WorkID, e.OwnerID, e.InputRequestID, resp))
	case abi.MethodReceivePush:
		return result(nil, p.ReceivePush(ctx, canonicalHeader(e.Headers), body))
	case abi.MethodClose:
		return result(nil, p.Close())
	case abi.MethodDetach:
		return result(nil, p.Detach())
	default:
		return result(nil, &a2aport.Error{Code: a2aport.CodeInternal, Message: fmt.Sprintf("unknown method %q", e.Method)})
	}
}

// follow runs a Submit or Resume call: its events cross as they come (deltas, abi.Sent), its
// outcome refers to what they already carried. The host rebuilds every artifact from the deltas,
// so the adapter keeps none of the text they append (a2aclient.WithContentPieces).
func (b *Bridge) follow(ctx context.Context, e abi.Envelope, call func(context.Context, ...a2aport.SubmitOption) (a2aport.Outcome, error)) abi.Envelope {
	var sent abi.Sent
	var pieces []a2aclient.ContentPiece
	out, err := call(a2aclient.WithContentPieces(ctx, &pieces), a2aport.Traceparent(e.Traceparent), a2aport.OnEvent(func(ev a2aport.Event) {
		wire, more := sent.Event(ev)
		b.emitEvent(e.ID, wire, more)
	}))
	var content []abi.ContentPiece
	for _, p := range pieces {
		content = append(content, abi.ContentPiece{Text: p.Text, From: p.From, Head: p.Head, Tail: p.Tail})
	}
	res := sent.Outcome(out, content)
	return result(&res, err)
}

// result returns ok, or the typed error in place of any value.
func result(ok *abi.Envelope, err error) abi.Envelope {
	if err != nil {
		return abi.Envelope{Error: abi.WireError(err)}
	}
	if ok == nil {
		return abi.Envelope{}
	}
	return *ok
}

// init creates the module's one adapter.
func (b *Bridge) init(in *abi.Init) error {
	if in == nil {
		return &a2aport.Error{Code: a2aport.CodeInvalidOptions, Message: "init needs options"}
	}
	opts, err := in.Options()
	if err != nil {
		return err
	}
	opts.Transport, opts.Clock = b, clock{b}
	if in.HostContextStore {
		opts.ContextStore = hostStore{b}
	}
	if in.HostWorkStore {
		opts.WorkStore = hostWorkStore{b}
	}
	p, err := a2aclient.NewHosted(opts, in.HostCredentials)
	if err != nil {
		return err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.port != nil {
		return &a2aport.Error{Code: a2aport.CodeInternal, Message: "init: the module already has an adapter"}
	}
	b.port = p
	return nil
}

func (b *Bridge) stats() *abi.Stats {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	busy, sleeping := b.sched.counts()
	b.mu.Lock()
	defer b.mu.Unlock()
	return &abi.Stats{Goroutines: runtime.NumGoroutine(), Busy: busy, Sleeping: sleeping,
		Fetches: len(b.fetches), Timers: len(b.timers), HeapBytes: m.HeapAlloc, Panics: b.panics}
}
