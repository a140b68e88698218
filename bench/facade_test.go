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

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/facade"
	"github.com/a2aport/a2aport/facade/pgcluster"
	"github.com/a2aport/a2aport/internal/testkit/pgtest"
)

// echoPort is a trivial Port: each Work completes at once with its instruction as an artifact.
type echoPort struct{}

func (echoPort) Describe() a2aport.Description { return a2aport.Description{Label: "echo"} }
func (echoPort) Start(context.Context) (a2aport.Health, error) {
	return a2aport.Health{OK: true, Started: true}, nil
}
func (echoPort) Health(context.Context) (a2aport.Health, error) {
	return a2aport.Health{OK: true, Started: true}, nil
}
func (echoPort) Submit(_ context.Context, w a2aport.Work, opts ...a2aport.SubmitOption) (a2aport.Outcome, error) {
	art := a2aport.Artifact{ID: "echo", Parts: []a2aport.Part{{Type: a2aport.PartText, Text: w.Instruction}}}
	if on := a2aport.ApplySubmitOptions(opts...).OnEvent; on != nil {
		on(a2aport.Event{Type: a2aport.EventArtifact, WorkID: w.ID, OwnerID: w.OwnerID, Artifact: &art})
	}
	return a2aport.Outcome{Content: w.Instruction, Artifacts: []a2aport.Artifact{art}}, nil
}
func (echoPort) Resume(context.Context, string, string, ...a2aport.SubmitOption) (a2aport.Outcome, error) {
	return a2aport.Outcome{}, a2aport.ErrWorkNotFound
}
func (echoPort) Status(string, string) a2aport.Status {
	return a2aport.Status{State: a2aport.StateNotFound}
}
func (echoPort) Cancel(context.Context, string, string) (a2aport.CancelResult, error) {
	return a2aport.CancelResult{State: a2aport.StateNotFound}, nil
}
func (echoPort) RespondInput(context.Context, string, string, string, a2aport.InputResponse) error {
	return a2aport.ErrInputNotPending
}
func (echoPort) RespondAuthorization(context.Context, string, string, string, a2aport.InputResponse) error {
	return a2aport.ErrAuthorizationUnsupported
}
func (echoPort) Subscribe(func(a2aport.Event)) func() { return func() {} }
func (echoPort) Close() error                         { return nil }
func (echoPort) Detach() error                        { return nil }

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

// echoAgent is echoExecutor served on a2asrv at base: its card and 1.0 JSON-RPC.
func echoAgent(base string) http.Handler {
	card := &a2a.AgentCard{Name: "echo", Version: "1", Capabilities: a2a.AgentCapabilities{Streaming: true},
		SupportedInterfaces: []*a2a.AgentInterface{{URL: base + facade.JSONRPCPath, ProtocolBinding: a2a.TransportProtocolJSONRPC, ProtocolVersion: a2a.Version}},
		DefaultInputModes:   []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"}}
	mux := http.NewServeMux()
	mux.Handle(facade.CardPath, a2asrv.NewStaticAgentCardHandler(card))
	mux.Handle(facade.JSONRPCPath, a2asrv.NewJSONRPCHandler(a2asrv.NewHandler(echoExecutor{})))
	return mux
}

// serve serves handler for base on ln.
func serve(b *testing.B, ln net.Listener, handler http.Handler) {
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: handler}}
	srv.Start()
	b.Cleanup(srv.Close)
}

// clusterNode is a facade over echoPort on its own share of a PostgreSQL cluster.
func clusterNode(b *testing.B, dsn, name string) func(base string) http.Handler {
	return func(base string) http.Handler {
		pool, err := pgxpool.New(context.Background(), dsn)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(pool.Close)
		cluster, err := pgcluster.New(context.Background(), pool, name, 0)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(cluster.Close)
		cfg := cluster.Config()
		h, err := facade.New(echoPort{}, facade.Options{BaseURL: base, Name: "echo", Cluster: &cfg})
		if err != nil {
			b.Fatal(err)
		}
		return h
	}
}

// BenchmarkFacade: trivial tasks through the facade (a Port that answers at once) against the same
// agent written directly on a2asrv, in one process over loopback, and through two facade nodes on
// one PostgreSQL (messages sent to either in turn; the work runs on whichever leases it), a2a-go's
// client sending blocking JSON-RPC messages one after another. Reports tasks/s and p50/p99.
func BenchmarkFacade(b *testing.B) {
	dsn := pgtest.Start(b)
	for _, tc := range []struct {
		name    string
		handler func(base string) http.Handler
		second  func(base string) http.Handler // a second node, if any
	}{
		{"a2asrv directly (baseline)", echoAgent, nil},
		{"facade over a Port", func(base string) http.Handler {
			h, err := facade.New(echoPort{}, facade.Options{BaseURL: base, Name: "echo"})
			if err != nil {
				b.Fatal(err)
			}
			return h
		}, nil},
		{"facade, two nodes on PostgreSQL", clusterNode(b, dsn, "bench-1"), clusterNode(b, dsn, "bench-2")},
	} {
		b.Run(tc.name, func(b *testing.B) {
			clients := []*a2aclient.Client{benchClient(b, tc.handler)}
			if tc.second != nil {
				clients = append(clients, benchClient(b, tc.second))
			}
			ctx := context.Background()
			lat := make([]time.Duration, 0, b.N)
			start := time.Now()
			for i := range b.N {
				client := clients[i%len(clients)]
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

// benchClient serves the handler handler makes on loopback and returns a2a-go's client on its 1.0
// JSON-RPC interface.
func benchClient(b *testing.B, handler func(base string) http.Handler) *a2aclient.Client {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	serve(b, ln, handler(base))
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
	b.Cleanup(func() { _ = client.Destroy() })
	return client
}
