package host

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/tetratelabs/wazero"

	"github.com/a2aport/a2aport"

	"github.com/a2aport/a2aport/adapter"
	"github.com/a2aport/a2aport/internal/testkit/agent"
)

// BenchmarkModuleSize reports the size of the module, raw and gzipped (what a page downloads).
func BenchmarkModuleSize(b *testing.B) {
	wasm, err := moduleBytes(config())
	if err != nil {
		b.Fatal(err)
	}
	var gz bytes.Buffer
	for b.Loop() {
		gz.Reset()
		w, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
		if _, err := w.Write(wasm); err != nil {
			b.Fatal(err)
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(wasm))/1e6, "MB-raw")
	b.ReportMetric(float64(gz.Len())/1e6, "MB-gzip")
}

// BenchmarkCompile compiles the module with a fresh runtime: cold (no cache) and from a
// warm on-disk cache.
func BenchmarkCompile(b *testing.B) {
	wasm, err := moduleBytes(config())
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	dir := b.TempDir()
	for _, mode := range []string{"cold", "cached"} {
		b.Run(mode, func(b *testing.B) {
			for b.Loop() {
				cfg := wazero.NewRuntimeConfig()
				if mode == "cached" {
					cache, err := wazero.NewCompilationCacheWithDir(dir)
					if err != nil {
						b.Fatal(err)
					}
					cfg = cfg.WithCompilationCache(cache)
				}
				rt := wazero.NewRuntimeWithConfig(ctx, cfg)
				if _, err := rt.CompileModule(ctx, wasm); err != nil {
					b.Fatal(err)
				}
				if err := rt.Close(ctx); err != nil {
					b.Fatal(err)
				}
				if mode == "cold" {
					b.StopTimer()
					_ = os.RemoveAll(dir) // warm the cache for "cached" once, outside the timing
					warm(b, ctx, dir, wasm)
					b.StartTimer()
				}
			}
		})
	}
}

func warm(b *testing.B, ctx context.Context, dir string, wasm []byte) {
	cache, err := wazero.NewCompilationCacheWithDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().WithCompilationCache(cache))
	if _, err := rt.CompileModule(ctx, wasm); err != nil {
		b.Fatal(err)
	}
	_ = rt.Close(ctx)
}

// BenchmarkInstantiate measures one adapter's instance: instantiate, _initialize, init, close.
func BenchmarkInstantiate(b *testing.B) {
	for b.Loop() {
		h, err := New(context.Background(), a2aport.Options{AgentCardURL: server.CardURL(streaming)})
		if err != nil {
			b.Fatal(err)
		}
		if err := h.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTrivialWork submits the same trivial Work natively and through the module, against
// the same loopback agent, and reports both and their ratio (baseline: native); once against a
// 1.0 agent and once against a 0.3 one (a2a-go's compat server), which a2aport speaks itself.
func BenchmarkTrivialWork(b *testing.B) {
	for _, v := range []agent.Variant{streaming, agent.Variants()[4]} { // 1.0 and 0.3 JSON-RPC, streaming
		b.Run(v.Name(), func(b *testing.B) { trivialWorks(b, v) })
	}
}

func trivialWorks(b *testing.B, v agent.Variant) {
	ctx := context.Background()
	opts := a2aport.Options{AgentCardURL: server.CardURL(v)}
	native, err := adapter.New(opts)
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = native.Close() }()
	module, err := New(ctx, opts)
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = module.Close() }()
	var spent [2]time.Duration
	i := 0
	for b.Loop() {
		for k, p := range []a2aport.Port{native, module} {
			start := time.Now()
			if _, err := p.Submit(ctx, a2aport.Work{ID: fmt.Sprintf("b%d", i), OwnerID: "o", Instruction: "complete bench"}); err != nil {
				b.Fatal(err)
			}
			spent[k] += time.Since(start)
		}
		i++
	}
	n := float64(b.N)
	b.ReportMetric(float64(spent[0].Microseconds())/n, "µs-native/work")
	b.ReportMetric(float64(spent[1].Microseconds())/n, "µs-module/work")
	b.ReportMetric(float64(spent[1])/float64(spent[0]), "module/native")
}
