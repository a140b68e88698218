package bench

import (
	"context"
	"fmt"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/adapter"
	testagent "github.com/a2aport/a2aport/internal/testkit/agent"
)

// BenchmarkFollow is what each way of following a Work costs, natively, against a2a-go's server
// (the test agent, whose push variants push with a2a-go's own sender to a webhook served here by
// adapter.PushHandler): a stream (the baseline), pushes (each wakes the Work, which reads the
// task), and polling every 10 ms. Two tasks: "chunks 100" (the agent answers at once) and
// "paced 20 10" (20 chunks 10 ms apart: the agent works 200 ms). Reports ms per Work, the reads of
// the task (GetTask) per Work, and the ratio of ms to the stream's in the same run.
func BenchmarkFollow(b *testing.B) {
	agents, err := testagent.Start()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(agents.Close)
	pushVariant := testagent.PushVariants()[0] // 1.0 JSON-RPC
	var streamVariant, pollVariant testagent.Variant
	for _, v := range testagent.Variants() {
		if v.Version == pushVariant.Version && v.Binding == pushVariant.Binding {
			if v.Streaming {
				streamVariant = v
			} else {
				pollVariant = v
			}
		}
	}
	hook := httptest.NewServer(nil)
	b.Cleanup(hook.Close)
	ways := []struct {
		name    string
		variant testagent.Variant
		opts    a2aport.Options
	}{
		{"stream", streamVariant, a2aport.Options{}},
		{"push", pushVariant, a2aport.Options{PushWebhookURL: hook.URL + "/push", PushPollInterval: time.Minute}},
		{"poll-10ms", pollVariant, a2aport.Options{PollInterval: 10 * time.Millisecond}},
	}
	for _, task := range []string{"chunks 100", "paced 20 10"} {
		var streamMs float64
		for _, way := range ways {
			b.Run(fmt.Sprintf("%s/%s", task, way.name), func(b *testing.B) {
				opts := way.opts
				opts.AgentCardURL = agents.CardURL(way.variant)
				port, err := adapter.New(opts)
				if err != nil {
					b.Fatal(err)
				}
				defer func() { _ = port.Close() }()
				hook.Config.Handler = adapter.PushHandler(port)
				ctx := context.Background()
				if _, err := port.Start(ctx); err != nil {
					b.Fatal(err)
				}
				gets := func() int {
					n := 0
					for _, r := range agents.Requests() {
						if r.Variant == way.variant.Name() && r.A2AMethod == "GetTask" {
							n++
						}
					}
					return n
				}
				before := gets()
				b.ResetTimer()
				for i := range b.N {
					w := a2aport.Work{ID: fmt.Sprintf("%s-%s-%d", task, way.name, i), OwnerID: "bench", Instruction: task}
					if _, err := port.Submit(ctx, w); err != nil {
						b.Fatal(err)
					}
				}
				b.StopTimer()
				ms := float64(b.Elapsed().Milliseconds()) / float64(b.N)
				b.ReportMetric(ms, "ms/work")
				b.ReportMetric(float64(gets()-before)/float64(b.N), "gettask/work")
				if way.name == "stream" {
					streamMs = ms
				} else if streamMs > 0 {
					b.ReportMetric(ms/streamMs, "x-stream")
				}
				b.ReportMetric(0, "ns/op")
			})
		}
	}
}
