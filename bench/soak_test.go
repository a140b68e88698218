package bench

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/a2aport/a2aport"

	"github.com/a2aport/a2aport/adapter"
	"github.com/a2aport/a2aport/host"
	testagent "github.com/a2aport/a2aport/internal/testkit/agent"
)

var (
	soakSequential = flag.Int("soak.sequential", 2_000, "Works one after the other in BenchmarkSoak")
	soakConcurrent = flag.Int("soak.concurrent", 200, "Works at once in BenchmarkSoak")
)

// soakMix is the Works of the soak, by weight: an instruction for the test agent and what its
// outcome must be (js/bench/soak.bench.js draws from the same mix).
var soakMix = []struct {
	weight      int
	instruction string
	code        a2aport.Code   // the error, or "" for success
	text        string         // the one artifact's text, if any
	content     *regexp.Regexp // else what the content shows
}{
	{40, "complete soak", "", "", regexp.MustCompile(`echo: complete soak`)},
	{30, "chunks 20", "", soakReport(20), nil},
	{3, "breakstream please", "", soakReport(12), nil},
	{1, "stallstream please", "", soakReport(12), nil},
	{3, "cutstream please", "", "", regexp.MustCompile(`after cut`)},
	{3, "dropsend please", a2aport.CodeOutcomeUnknown, "", nil},
	{3, "status500 please", a2aport.CodeHTTPError, "", nil},
	{3, "status429 please", a2aport.CodeHTTPError, "", nil},
	{3, "badjson please", a2aport.CodeInvalidResponse, "", nil},
	{3, "rpcerror please", a2aport.CodeProtocolError, "", nil},
	{3, "fail please", a2aport.CodeTaskFailed, "", nil},
}

func soakReport(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "part-%d ", i)
	}
	return b.String()
}

// soakCounts are what must stay 0, and the Works run.
type soakCounts struct {
	works, lost, wrong, repeated, late atomic.Int64
	mu                                 sync.Mutex
	samples                            []string
}

// BenchmarkSoak runs the soak mix through the module under wazero (and natively, for comparison)
// against the Go test agent: Works one after the other, then many at once, on one adapter. It
// prints what must stay 0 and the module's memory and live counts at start and end; it asserts
// nothing. Run with `make soak`.
func BenchmarkSoak(b *testing.B) {
	server, err := testagent.Start()
	if err != nil {
		b.Fatal(err)
	}
	defer server.Close()
	card := server.CardURL(testagent.Variant{Version: "1.0", Binding: "JSONRPC", Streaming: true})
	for _, impl := range []string{"module", "native"} {
		b.Run(impl, func(b *testing.B) {
			for range b.N {
				soak(b, impl, card)
			}
		})
	}
}

func soak(b *testing.B, impl, card string) {
	ctx := context.Background()
	opts := a2aport.Options{AgentCardURL: card, StreamIdleTimeout: 200 * time.Millisecond}
	var p a2aport.Port
	var err error
	if impl == "module" {
		p, err = host.New(ctx, opts)
	} else {
		p, err = adapter.New(opts)
	}
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = p.Close() }() // the soak is over either way
	var c soakCounts
	stats := func() string {
		h, ok := p.(*host.Adapter)
		if !ok {
			return fmt.Sprintf("goroutines %d (the process's, the test agent's included)", runtime.NumGoroutine())
		}
		st, err := h.Stats(ctx)
		if err != nil {
			return err.Error()
		}
		return fmt.Sprintf("memory %d MB, heap %d MB, goroutines %d, fetches %d, timers %d, runtime sleeps %d",
			st.MemoryBytes>>20, st.Module.HeapBytes>>20, st.Module.Goroutines, st.Module.Fetches+st.HostFetches, st.Module.Timers+st.HostTimers, st.RuntimeSleeps)
	}
	soakOne(ctx, p, &c, 0)
	start := stats()
	t0 := time.Now()
	for i := range *soakSequential {
		soakOne(ctx, p, &c, i+1)
	}
	t1 := time.Now()
	afterSequential := stats()
	var wg sync.WaitGroup
	for i := range *soakConcurrent {
		wg.Go(func() { soakOne(ctx, p, &c, *soakSequential+1+i) })
	}
	wg.Wait()
	t2 := time.Now()
	fmt.Printf("soak, %s: %d sequential Works in %.1f s, then %d at once in %.1f s\n", impl, *soakSequential, t1.Sub(t0).Seconds(), *soakConcurrent, t2.Sub(t1).Seconds())
	fmt.Printf("  must be 0: lost %d, wrong outcome %d, repeated artifact events %d, events after the outcome %d\n",
		c.lost.Load(), c.wrong.Load(), c.repeated.Load(), c.late.Load())
	for _, s := range c.samples {
		fmt.Printf("    %s\n", s)
	}
	fmt.Printf("  start:             %s\n  after sequential:  %s\n  after concurrent:  %s\n", start, afterSequential, stats())
}

// soakOne runs one Work drawn from the mix and checks its events and outcome.
func soakOne(ctx context.Context, p a2aport.Port, c *soakCounts, i int) {
	total := 0
	for _, m := range soakMix {
		total += m.weight
	}
	r := rand.N(total)
	m := soakMix[0]
	for _, e := range soakMix {
		if r -= e.weight; r < 0 {
			m = e
			break
		}
	}
	var mu sync.Mutex
	settled := false
	shown := map[string]string{}
	onEvent := func(ev a2aport.Event) {
		mu.Lock()
		defer mu.Unlock()
		if settled {
			c.late.Add(1)
		}
		if ev.Type != a2aport.EventArtifact {
			return
		}
		var text strings.Builder
		for _, part := range ev.Artifact.Parts {
			text.WriteString(part.Text)
		}
		if last, ok := shown[ev.Artifact.ID]; ok && last == text.String() {
			c.repeated.Add(1)
		}
		shown[ev.Artifact.ID] = text.String()
	}
	wctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	out, err := p.Submit(wctx, a2aport.Work{ID: fmt.Sprintf("soak-%d", i), OwnerID: "soak", Instruction: m.instruction}, a2aport.OnEvent(onEvent))
	mu.Lock()
	settled = true
	mu.Unlock()
	c.works.Add(1)
	if wctx.Err() != nil {
		c.lost.Add(1)
		return
	}
	var ok bool
	switch {
	case m.code != "":
		ok = a2aport.CodeOf(err) == m.code
	case err != nil:
	case m.text != "":
		ok = len(out.Artifacts) == 1 && len(out.Artifacts[0].Parts) == 1 && out.Artifacts[0].Parts[0].Text == m.text
	default:
		ok = m.content.MatchString(out.Content)
	}
	if !ok {
		c.wrong.Add(1)
		c.mu.Lock()
		if len(c.samples) < 5 {
			c.samples = append(c.samples, fmt.Sprintf("%s: %v %.200v", m.instruction, err, out))
		}
		c.mu.Unlock()
	}
}
