package tests

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/internal/testkit/agent"
	"github.com/a2aport/a2aport/internal/testkit/faultproxy"
)

// TestLongStreamThroughCuts: a 2,000-chunk answer crosses a TCP proxy that cuts its connections
// after a random number of bytes, resets some before their answer, stalls some and slows others.
// The Work recovers every time: the final text is exact, every chunk arrives once, no activity
// repeats, the message was sent once. Natively and in the module, over 1.0 JSON-RPC and HTTP+JSON.
func TestLongStreamThroughCuts(t *testing.T) {
	if raceDetector {
		// a2asrv deep-copies the task on every event (O(n²) for a 2,000-part artifact), which -race
		// makes ten times slower: make test.go runs this test once more without it.
		t.Skip("runs without -race (make test.go)")
	}
	t.Parallel()
	const chunks = 2000
	want := pacedReport(chunks)
	agentAddr := strings.TrimPrefix(server.URL(), "http://")
	for _, impl := range implementations {
		for _, v := range []agent.Variant{{Version: "1.0", Binding: "JSONRPC", Streaming: true}, {Version: "1.0", Binding: "HTTP+JSON", Streaming: true}} {
			t.Run(impl.name+"/"+v.Name(), func(t *testing.T) {
				t.Parallel()
				seed := uint64(time.Now().UnixNano())
				t.Logf("seed %d", seed)
				var mu sync.Mutex
				rnd := rand.New(rand.NewPCG(seed, 19))
				proxy := faultproxy.Start(t, agentAddr)
				// Cuts fall past the task's snapshot (the agent keeps the 2,000 chunks as parts: up to
				// about 60 kB), so that every connection brings some of the stream.
				cut := func() int { return 66_000 + rnd.IntN(64_000) }
				cuts := 0
				proxy.Plan(func(n int) faultproxy.Fault {
					mu.Lock()
					defer mu.Unlock()
					if n <= 2 { // the card, then the message: cut, never reset (a reset send is of unknown fate)
						return faultproxy.Fault{CutAfter: cut()}
					}
					cuts++
					switch p := rnd.IntN(10); {
					case p == 0:
						return faultproxy.Fault{Reset: true}
					case p == 1:
						return faultproxy.Fault{Stall: true, StallAfter: cut()}
					case p == 2:
						return faultproxy.Fault{CutAfter: cut(), Latency: time.Millisecond}
					default:
						return faultproxy.Fault{CutAfter: cut()}
					}
				})
				p := newPort(t, impl, a2aport.Options{AgentCardURL: server.CardURL(v), Transport: viaProxy{proxy.Addr()},
					RecoveryBackoff: 5 * time.Millisecond, StreamProbeInterval: 300 * time.Millisecond, StreamIdleTimeout: 3 * time.Second,
					RequestTimeout: 2 * time.Second}) // a stalled GetTask is given up and made again
				tp := fmt.Sprintf("00-%032x-%016x-01", 0xc0700000+workSeq.Add(1), 5)
				rec := newRecorder()
				// Its own bound: many cuts, stalls found by the probe, on a loaded 2-core machine.
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				defer cancel()
				start := time.Now()
				out, err := p.Submit(ctx, newWork("alice", fmt.Sprintf("long %d %s", chunks, t.Name())), a2aport.OnEvent(rec.record), a2aport.Traceparent(tp))
				if err != nil || len(out.Artifacts) != 1 || out.Artifacts[0].Parts[0].Text != want {
					t.Fatalf("Submit() = %d artifacts, %v; want the whole report", len(out.Artifacts), err)
				}
				checkStreamedOnce(t, rec.all(), want)
				sends := 0
				for _, r := range server.Requests() {
					if r.Header.Get("traceparent") == tp && (r.A2AMethod == "SendMessage" || r.A2AMethod == "SendStreamingMessage") {
						sends++
					}
				}
				if sends != 1 {
					t.Errorf("the agent received the message %d times, want once", sends)
				}
				t.Logf("%d connections after the send, each with its fault; %v", cuts, time.Since(start).Round(time.Millisecond))
			})
		}
	}
}
