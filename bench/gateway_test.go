package bench

import (
	"context"
	"net"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"

	"github.com/a2aport/a2aport"

	"github.com/a2aport/a2aport/adapter"
	"github.com/a2aport/a2aport/facade"
	"github.com/a2aport/a2aport/gateway"
)

// BenchmarkGateway: trivial tasks sent to the echo agent on a2asrv directly (the baseline) and
// through a gateway in front of it (facade, router, a2aport's adapter, then the agent), a2a-go's
// client sending blocking JSON-RPC messages: one after another for the latency (p50/p99), and
// from 8 clients at once for the throughput. The process's CPU per task in the throughput run is
// the client and the agent for the baseline, and the gateway besides for the run through it: the
// difference is what the gateway costs.
func BenchmarkGateway(b *testing.B) {
	agentCard := ""
	agentHandler := func(base string) http.Handler {
		agentCard = base + facade.CardPath
		return echoAgent(base)
	}
	direct := benchClients(b, agentHandler, 8)
	through := benchClients(b, func(base string) http.Handler {
		port, err := adapter.New(a2aport.Options{AgentCardURL: agentCard})
		if err != nil {
			b.Fatal(err)
		}
		g, err := gateway.New(gateway.Options{Facade: facade.Options{BaseURL: base, Name: "gateway"},
			Backends: []gateway.Backend{{Name: "echo", Port: port}}, Default: "echo"})
		if err != nil {
			b.Fatal(err)
		}
		g.Start(context.Background())
		b.Cleanup(func() { _ = g.Close() })
		return g
	}, 8)
	for _, tc := range []struct {
		name    string
		clients []*a2aclient.Client
	}{{"a2asrv directly (baseline)", direct}, {"through the gateway", through}} {
		b.Run(tc.name, func(b *testing.B) {
			ctx := context.Background()
			send := func(c *a2aclient.Client) {
				res, err := c.SendMessage(ctx, &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("hello"))})
				if task, ok := res.(*a2a.Task); err != nil || !ok || task.Status.State != a2a.TaskStateCompleted {
					b.Fatalf("SendMessage() = %+v, %v", res, err)
				}
			}
			lat := make([]time.Duration, 0, b.N)
			for range b.N {
				t0 := time.Now()
				send(tc.clients[0])
				lat = append(lat, time.Since(t0))
			}
			slices.Sort(lat)
			start, cpu0 := time.Now(), cpuTime()
			var wg sync.WaitGroup
			for _, c := range tc.clients {
				wg.Go(func() {
					for range b.N {
						send(c)
					}
				})
			}
			wg.Wait()
			tasks := b.N * len(tc.clients)
			b.ReportMetric(float64(tasks)/time.Since(start).Seconds(), "tasks/s-8-clients")
			b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/float64(tasks), "µs-cpu/task")
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "ms-p50")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "ms-p99")
		})
	}
}

// benchClients serves handler on loopback and returns n of a2a-go's clients on its card.
func benchClients(b *testing.B, handler func(base string) http.Handler, n int) []*a2aclient.Client {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	h := handler("http://" + ln.Addr().String())
	serve(b, ln, h)
	out := make([]*a2aclient.Client, n)
	for i := range out {
		out[i] = benchClient(b, func(string) http.Handler { return h })
	}
	return out
}
