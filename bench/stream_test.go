package bench

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"

	"github.com/a2aport/a2aport"

	"github.com/a2aport/a2aport/adapter"
	"github.com/a2aport/a2aport/host"
	"github.com/a2aport/a2aport/internal/testkit/hosttest"
	"github.com/a2aport/a2aport/internal/testkit/replay"
)

var agent *replay.Agent

// streamSizes are the answers measured: throughput must not fall as they grow.
var streamSizes = []int{2_000, 20_000}

func TestMain(m *testing.M) {
	if moduleDir, cacheDir := hosttest.MustDirs(); host.Configure(host.Config{ModuleDir: moduleDir, CompilationCacheDir: cacheDir}) != nil {
		panic("host configured before TestMain")
	}
	var err error
	if agent, err = replay.Start(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	_ = agent.Close() // the process ends either way
	os.Exit(code)
}

// consumer runs one n-chunk Work and returns the merged answer text.
type consumer func(ctx context.Context, n, i int) (string, error)

func portConsumer(p a2aport.Port) consumer {
	return func(ctx context.Context, n, i int) (string, error) {
		out, err := p.Submit(ctx, a2aport.Work{ID: fmt.Sprintf("w%d-%d", n, i), OwnerID: "bench", Instruction: "answer at length"})
		if err != nil {
			return "", err
		}
		if len(out.Artifacts) != 1 || len(out.Artifacts[0].Parts) != 1 {
			return "", fmt.Errorf("want one artifact of one part, got %+v", out.Artifacts)
		}
		return out.Artifacts[0].Parts[0].Text, nil
	}
}

// sdkConsumer is the baseline: a2a-go's own client, merging the chunks as a careful caller would.
func sdkConsumer(ctx context.Context, n, _ int) (string, error) {
	card, err := agentcard.DefaultResolver.Resolve(ctx, strings.TrimSuffix(agent.CardURL(n), "/.well-known/agent-card.json"))
	if err != nil {
		return "", err
	}
	client, err := a2aclient.NewFromCard(ctx, card)
	if err != nil {
		return "", err
	}
	defer func() { _ = client.Destroy() }()
	var text strings.Builder
	msg := a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("answer at length"))
	for ev, err := range client.SendStreamingMessage(ctx, &a2a.SendMessageRequest{Message: msg}) {
		if err != nil {
			return "", err
		}
		if up, ok := ev.(*a2a.TaskArtifactUpdateEvent); ok {
			for _, p := range up.Artifact.Parts {
				if t, ok := p.Content.(a2a.Text); ok {
					text.WriteString(string(t))
				}
			}
		}
	}
	return text.String(), nil
}

// BenchmarkStream streams one long answer of n chunks of ~300 bytes to each consumer and reports
// chunks per second; every answer is checked against the exact expected text first.
func BenchmarkStream(b *testing.B) {
	ctx := context.Background()
	consumers := []struct {
		name string
		run  func(n int) consumer
	}{
		{"a2a-go-client", func(int) consumer { return sdkConsumer }},
		{"native", func(n int) consumer { return portConsumerFor(b, agent.CardURL(n), false) }},
		{"module", func(n int) consumer { return portConsumerFor(b, agent.CardURL(n), true) }},
		// The same answer from an A2A 0.3 agent (a2a-go's 0.3 JSON-RPC server's bytes).
		{"native-0.3", func(n int) consumer { return portConsumerFor(b, agent.CardURL03(n), false) }},
		{"module-0.3", func(n int) consumer { return portConsumerFor(b, agent.CardURL03(n), true) }},
	}
	for _, n := range streamSizes {
		agent.Prepare(n)
		want := replay.Text(n)
		for _, c := range consumers {
			b.Run(fmt.Sprintf("%s/n=%d", c.name, n), func(b *testing.B) {
				run := c.run(n)
				var spent time.Duration
				i := 0
				for b.Loop() {
					start := time.Now()
					got, err := run(ctx, n, i)
					spent += time.Since(start)
					if err != nil {
						b.Fatal(err)
					}
					if got != want {
						b.Fatalf("merged text: %d bytes, want %d (first difference at %d)", len(got), len(want), firstDiff(got, want))
					}
					i++
				}
				b.ReportMetric(float64(n*b.N)/spent.Seconds(), "chunks/s")
			})
		}
	}
}

// portConsumerFor returns a consumer on a fresh port for the card (closed with b).
func portConsumerFor(b *testing.B, card string, module bool) consumer {
	opts := a2aport.Options{AgentCardURL: card}
	var p a2aport.Port
	var err error
	if module {
		p, err = host.New(context.Background(), opts)
	} else {
		p, err = adapter.New(opts)
	}
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = p.Close() })
	return portConsumer(p)
}

func firstDiff(a, b string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
