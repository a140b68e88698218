package conformance

// Throwaway: the real adapter against a minimal a2asrv agent, to exercise the suite. Not committed.

import (
	"context"
	"fmt"
	"iter"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/a2aport/a2aport/adapter"
	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
)

type scratchExec struct {
	hold    bool
	once    sync.Once
	started chan struct{}
}

func (e *scratchExec) Execute(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		if ec.StoredTask == nil && !yield(a2a.NewSubmittedTask(ec, ec.Message), nil) {
			return
		}
		if !yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateWorking, nil), nil) {
			return
		}
		if e.hold {
			e.once.Do(func() { close(e.started) })
			<-ctx.Done()
			return
		}
		if !yield(a2a.NewArtifactEvent(ec, a2a.NewTextPart("hello")), nil) {
			return
		}
		yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCompleted, nil), nil)
	}
}

func (e *scratchExec) Cancel(_ context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCanceled, nil), nil)
	}
}

func TestScratchNative(t *testing.T) {
	for _, streaming := range []bool{true, false} {
		t.Run(fmt.Sprint("streaming=", streaming), func(t *testing.T) {
			Run(t, func(t *testing.T, opts FixtureOptions) Fixture {
				ex := &scratchExec{hold: opts.Hold, started: make(chan struct{})}
				mux := http.NewServeMux()
				srv := httptest.NewServer(mux)
				t.Cleanup(srv.Close)
				card := &a2a.AgentCard{
					Name: "scratch", Version: "1",
					SupportedInterfaces: []*a2a.AgentInterface{a2a.NewAgentInterface(srv.URL+"/rpc", a2a.TransportProtocolJSONRPC)},
					Capabilities:        a2a.AgentCapabilities{Streaming: streaming},
				}
				mux.Handle(a2asrv.WellKnownAgentCardPath, a2asrv.NewStaticAgentCardHandler(card))
				mux.Handle("/rpc", a2asrv.NewJSONRPCHandler(a2asrv.NewHandler(ex)))
				b, err := adapter.New(adapter.Options{AgentCardURL: srv.URL + a2asrv.WellKnownAgentCardPath, PollInterval: 20e6})
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { _ = b.Close() })
				var n atomic.Int64
				nw := func() adapter.Work {
					return adapter.Work{ID: fmt.Sprintf("w-%d", n.Add(1)), OwnerID: "o", Instruction: "hi"}
				}
				f := Fixture{Backend: mutate(b), Work: nw(), NextWork: nw}
				if opts.Hold {
					f.Started = func(ctx context.Context) error {
						select {
						case <-ex.started:
							return nil
						case <-ctx.Done():
							return ctx.Err()
						}
					}
				}
				return f
			})
		})
	}
}
