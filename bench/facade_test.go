package bench

import (
	"context"
	"iter"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"
	"github.com/a2aproject/a2a-go/v2/a2asrv"

	"github.com/a2aport/a2aport/adapter"
	"github.com/a2aport/a2aport/facade"
)

// echoPort is a trivial Port: each Work completes at once with its instruction as an artifact.
type echoPort struct{}

func (echoPort) Describe() adapter.Description { return adapter.Description{Label: "echo"} }
func (echoPort) Start(context.Context) (adapter.Health, error) {
	return adapter.Health{OK: true, Started: true}, nil
}
func (echoPort) Health(context.Context) (adapter.Health, error) {
	return adapter.Health{OK: true, Started: true}, nil
}
func (echoPort) Submit(_ context.Context, w adapter.Work, opts ...adapter.SubmitOption) (adapter.Outcome, error) {
	art := adapter.Artifact{ID: "echo", Parts: []adapter.Part{{Type: adapter.PartText, Text: w.Instruction}}}
	if on := adapter.ApplySubmitOptions(opts...).OnEvent; on != nil {
		on(adapter.Event{Type: adapter.EventArtifact, TaskID: w.ID, OwnerID: w.OwnerID, Artifact: &art})
	}
	return adapter.Outcome{Content: w.Instruction, Artifacts: []adapter.Artifact{art}}, nil
}
func (echoPort) Resume(context.Context, string, string, ...adapter.SubmitOption) (adapter.Outcome, error) {
	return adapter.Outcome{}, adapter.ErrWorkNotFound
}
func (echoPort) Status(string, string) adapter.Status {
	return adapter.Status{State: adapter.StateNotFound}
}
func (echoPort) Cancel(context.Context, string, string) (adapter.CancelResult, error) {
	return adapter.CancelResult{State: adapter.StateNotFound}, nil
}
func (echoPort) RespondInput(context.Context, string, string, adapter.InputResponse, string) error {
	return adapter.ErrInputNotPending
}
func (echoPort) RespondAuthorization(context.Context, string, string, adapter.InputResponse, string) error {
	return adapter.ErrAuthorizationUnsupported
}
func (echoPort) Subscribe(func(adapter.Event)) func() { return func() {} }
func (echoPort) Close() error                         { return nil }

// echoExecutor is the same trivial agent written directly on a2asrv: the baseline.
type echoExecutor struct{}

func (echoExecutor) Execute(_ context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		text := ""
		for _, p := range ec.Message.Parts {
			if t, ok := p.Content.(a2a.Text); ok {
				text += string(t)
			}
		}
		art := a2a.NewArtifactEvent(ec, a2a.NewTextPart(text))
		art.Artifact.ID = "echo"
		_ = yield(a2a.NewSubmittedTask(ec, ec.Message), nil) && yield(art, nil) && yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCompleted, nil), nil)
	}
}

func (echoExecutor) Cancel(_ context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCanceled, nil), nil)
	}
}

// serve serves handler for base on ln.
func serve(b *testing.B, ln net.Listener, handler http.Handler) {
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: handler}}
	srv.Start()
	b.Cleanup(srv.Close)
}

// BenchmarkFacade: trivial tasks through the facade (a Port that answers at once) against the same
// agent written directly on a2asrv, both in one process over loopback, a2a-go's client sending
// blocking JSON-RPC messages one after another. Reports tasks/s and p50/p99 latency.
func BenchmarkFacade(b *testing.B) {
	for _, tc := range []struct {
		name    string
		handler func(base string) http.Handler
	}{
		{"a2asrv directly (baseline)", func(base string) http.Handler {
			card := &a2a.AgentCard{Name: "echo", Version: "1", Capabilities: a2a.AgentCapabilities{Streaming: true},
				SupportedInterfaces: []*a2a.AgentInterface{{URL: base + facade.JSONRPCPath, ProtocolBinding: a2a.TransportProtocolJSONRPC, ProtocolVersion: a2a.Version}},
				DefaultInputModes:   []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"}}
			mux := http.NewServeMux()
			mux.Handle(facade.CardPath, a2asrv.NewStaticAgentCardHandler(card))
			mux.Handle(facade.JSONRPCPath, a2asrv.NewJSONRPCHandler(a2asrv.NewHandler(echoExecutor{})))
			return mux
		}},
		{"facade over a Port", func(base string) http.Handler {
			h, err := facade.New(echoPort{}, facade.Options{BaseURL: base, Name: "echo"})
			if err != nil {
				b.Fatal(err)
			}
			return h
		}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				b.Fatal(err)
			}
			base := "http://" + ln.Addr().String()
			serve(b, ln, tc.handler(base))
			ctx := context.Background()
			card, err := agentcard.DefaultResolver.Resolve(ctx, base)
			if err != nil {
				b.Fatal(err)
			}
			card.SupportedInterfaces = card.SupportedInterfaces[:1] // 1.0 JSON-RPC
			client, err := a2aclient.NewFromCard(ctx, card)
			if err != nil {
				b.Fatal(err)
			}
			defer func() { _ = client.Destroy() }()
			lat := make([]time.Duration, 0, b.N)
			start := time.Now()
			for range b.N {
				t0 := time.Now()
				res, err := client.SendMessage(ctx, &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("hello"))})
				if err != nil {
					b.Fatal(err)
				}
				if task, ok := res.(*a2a.Task); !ok || task.Status.State != a2a.TaskStateCompleted {
					b.Fatalf("SendMessage() = %+v", res)
				}
				lat = append(lat, time.Since(t0))
			}
			elapsed := time.Since(start)
			slices.Sort(lat)
			b.ReportMetric(float64(b.N)/elapsed.Seconds(), "tasks/s")
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "ms-p50")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "ms-p99")
		})
	}
}
