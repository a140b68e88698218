package bench

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/a2aport/a2aport"

	"github.com/a2aport/a2aport/adapter"
	"github.com/a2aport/a2aport/host"
	"github.com/a2aport/a2aport/internal/testkit/replay"
)

// artifactMiB is the size of the one artifact BenchmarkArtifactMemory streams.
const artifactMiB = 64

// BenchmarkArtifactMemory streams one artifact of artifactMiB MiB (chunks of ~300 bytes) and
// reports, per byte of the artifact, the peak of what holding it cost: natively the Go heap in
// use beyond what it was before (this process also runs the replaying agent, whose stream is built
// beforehand), in the module the linear memory it grew to plus the host's heap beyond its start.
// The goal is about 2: the merged text once in the adapter, once in what the caller keeps.
func BenchmarkArtifactMemory(b *testing.B) {
	n := artifactMiB << 20 / replay.ChunkBytes
	agent.Prepare(n)
	want := n * replay.ChunkBytes
	for _, module := range []bool{false, true} {
		name := map[bool]string{false: "native", true: "module"}[module]
		b.Run(fmt.Sprintf("%s/%dMiB", name, artifactMiB), func(b *testing.B) {
			for b.Loop() {
				opts := a2aport.Options{AgentCardURL: agent.CardURL(n)}
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
				runtime.GC()
				base := heapInUse()
				peak := watchPeak(base)
				out, err := p.Submit(context.Background(), a2aport.Work{ID: "m", OwnerID: "bench", Instruction: "answer at length"})
				heap := peak()
				if err != nil || len(out.Artifacts) != 1 || len(out.Artifacts[0].Parts[0].Text) != want {
					b.Fatalf("Submit() = %v", err)
				}
				grown := uint64(0)
				if h, ok := p.(*host.Adapter); ok {
					st, err := h.Stats(context.Background())
					if err != nil {
						b.Fatal(err)
					}
					grown = uint64(st.MemoryBytes)
				}
				b.ReportMetric(float64(heap)/float64(want), "host-heap/artifact")
				b.ReportMetric(float64(grown)/float64(want), "module-memory/artifact")
				b.ReportMetric(float64(heap+grown)/float64(want), "total/artifact")
				_ = p.Close()
			}
		})
	}
}

func heapInUse() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

// watchPeak samples the heap in use every 5 ms until the returned function is called, which
// returns the peak beyond base.
func watchPeak(base uint64) func() uint64 {
	var mu sync.Mutex
	var peak uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			if h := heapInUse(); h > base {
				mu.Lock()
				peak = max(peak, h-base)
				mu.Unlock()
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	return func() uint64 {
		close(stop)
		<-done
		mu.Lock()
		defer mu.Unlock()
		return peak
	}
}
