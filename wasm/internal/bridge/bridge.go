package bridge

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/a2aport/a2aport/internal/a2aclient"

	"github.com/a2aport/a2aport"

	"github.com/a2aport/a2aport/internal/abi"
	"github.com/a2aport/a2aport/internal/park"
)

// Bridge is the module's side of the boundary. The module has exactly one.
type Bridge struct {
	sched *scheduler
	heap  heapKeeper // owned by Call

	mu      sync.Mutex // guards everything below
	out     abi.Writer // effects of the current batch
	now     time.Time  // the host's clock at the last batch
	nextID  uint64     // ids of fetches, timers and store requests
	fetches map[uint64]*fetch
	timers  map[uint64]func()
	stores  map[uint64]*storeRequest
	aborts  map[uint64]context.CancelFunc // of calls in progress, by call id
	port    *a2aclient.Adapter
	panics  int
}

// New returns the bridge and installs its scheduler as the adapter's way of waiting.
func New() *Bridge {
	b := &Bridge{
		sched:   newScheduler(),
		fetches: map[uint64]*fetch{},
		timers:  map[uint64]func(){},
		stores:  map[uint64]*storeRequest{},
		aborts:  map[uint64]context.CancelFunc{},
	}
	park.SetWaiter(b.sched.Wait)
	return b
}

// Call applies one input frame, runs until quiescent, and returns the effect frame. It never
// blocks on the host: everything the goroutines wait for is in the returned effects.
func (b *Bridge) Call(frame []byte) []byte {
	batch, payload, err := abi.ReadFrame(frame)
	if err != nil {
		return b.fatal(err)
	}
	b.mu.Lock()
	if batch.Now != 0 {
		b.now = time.Unix(0, batch.Now)
	}
	b.mu.Unlock()
	for _, e := range batch.Envelopes {
		if err := b.apply(e, payload); err != nil {
			b.emit(abi.Envelope{Kind: abi.KindResult, ID: e.ID, Error: &abi.Error{Code: string(a2aport.CodeInternal), Message: err.Error()}})
		}
	}
	b.sched.recheck()
	b.sched.waitIdle()
	if batch.Snapshot != nil {
		b.snapshot(*batch.Snapshot)
	}
	b.heap.collect()
	return b.flush()
}

// snapshot emits the runtime status, and the description when asked, as the batch left them.
func (b *Bridge) snapshot(req abi.SnapshotRequest) {
	b.mu.Lock()
	p := b.port
	b.mu.Unlock()
	if p == nil {
		return // before init: the host describes from its options
	}
	st := p.Status("", "")
	e := abi.Envelope{Kind: abi.KindSnapshot, Status: &st}
	if req.Describe {
		d := p.Describe()
		e.Description = &d
	}
	b.emit(e)
}

// apply routes one input.
func (b *Bridge) apply(e abi.Envelope, payload []byte) error {
	switch e.Kind {
	case abi.KindCall:
		body, err := abi.Slice(payload, e.Body)
		if err != nil {
			return err
		}
		b.call(e, bytes.Clone(body)) // the frame's buffer is the host's next one
	case abi.KindResponse, abi.KindChunk, abi.KindEnd, abi.KindFailed:
		return b.deliverFetch(e, payload)
	case abi.KindTimer:
		b.mu.Lock()
		f := b.timers[e.ID]
		delete(b.timers, e.ID)
		b.mu.Unlock()
		if f != nil { // a timer cleared after the host fired it is ignored
			b.sched.Go(f, b.logPanic)
		}
	case abi.KindStoreDone:
		b.deliverStore(e)
	case abi.KindAbortCall:
		b.mu.Lock()
		cancel := b.aborts[e.ID]
		b.mu.Unlock()
		if cancel != nil { // the call may have finished meanwhile
			cancel()
		}
	default:
		return fmt.Errorf("bridge: unknown input kind %q", e.Kind)
	}
	return nil
}

// emit queues an effect; body, when non-nil, goes to the payload.
func (b *Bridge) emit(e abi.Envelope) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.out.Add(e)
}

// emitEvent emits an event of call id as abi.Sent made it cross: when more, its delta's text
// alone. The text a chunk appends crosses as payload bytes, as an outcome's content does.
func (b *Bridge) emitEvent(id uint64, ev a2aport.Event, more bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if more {
		b.out.Add(abi.Envelope{Kind: abi.KindMore, ID: id, DeltaText: b.out.String(ev.Delta.Text)})
		return
	}
	e := abi.Envelope{Kind: abi.KindEvent, ID: id, Event: &ev}
	if ev.Delta != nil && ev.Delta.Text != "" {
		delta := *ev.Delta
		e.DeltaText, ev.Delta = b.moveText(&delta.Text), &delta
	}
	b.out.Add(e)
}

// moveText moves *s to the payload (the caller's copy of the value that held it) and returns its span.
func (b *Bridge) moveText(s *string) *abi.Span {
	span := b.out.String(*s)
	*s = ""
	return span
}

// emitResult emits a call's result. An outcome's content crosses as payload bytes, not as a JSON
// string: a long answer is neither escaped here nor parsed by the host.
func (b *Bridge) emitResult(e abi.Envelope) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if e.Outcome != nil && e.Outcome.Content != "" {
		out := *e.Outcome
		e.ContentBody, e.Outcome = b.moveText(&out.Content), &out
	}
	b.out.Add(e)
}

func (b *Bridge) emitWithBody(e abi.Envelope, body []byte) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if body != nil {
		e.Body = b.out.Bytes(body)
	}
	b.out.Add(e)
}

func (b *Bridge) newID() uint64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.nextID++
	return b.nextID
}

func (b *Bridge) flush() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	frame, err := b.out.Frame(0)
	b.out.Reset()
	if err != nil {
		return b.fatalLocked(err)
	}
	return frame
}

// fatal answers a frame the bridge cannot read with a single error result (id 0).
func (b *Bridge) fatal(err error) []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.fatalLocked(err)
}

func (b *Bridge) fatalLocked(err error) []byte {
	var w abi.Writer
	w.Add(abi.Envelope{Kind: abi.KindResult, Error: &abi.Error{Code: string(a2aport.CodeInternal), Message: err.Error()}})
	frame, ferr := w.Frame(0)
	if ferr != nil {
		panic(errors.Join(err, ferr)) // cannot even report: let the host see a trap
	}
	return frame
}

// logPanic keeps a panic in a timer callback from killing the module and counts it (Stats): the
// adapter's callbacks only cancel contexts and close channels, so one is a bug worth seeing.
func (b *Bridge) logPanic(any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.panics++
}
