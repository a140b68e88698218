package binding

import (
	"strings"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// BenchmarkDecodeChunk decodes one streamed text chunk (an artifact update of one ~300-byte text
// part, as long answers arrive) in A2A 1.0 and 0.3, with the fast decoder and with the full one
// (the baseline: encoding/json and a2a-go's types), and reports fast/full.
func BenchmarkDecodeChunk(b *testing.B) {
	text := strings.Repeat("lorem ipsum ", 25)
	for _, v := range []struct {
		name       string
		data       string
		fast, full func([]byte) (a2a.Event, bool)
	}{
		{"1.0", `{"jsonrpc":"2.0","id":"r","result":{"artifactUpdate":{"taskId":"t","contextId":"c","append":true,"artifact":{"artifactId":"a","parts":[{"text":"` + text + `"}]}}}}`,
			decodeFast, orFull(decodeRPCEvent)},
		{"0.3", `{"jsonrpc":"2.0","id":"r","result":{"kind":"artifact-update","taskId":"t","contextId":"c","append":true,"artifact":{"artifactId":"a","parts":[{"kind":"text","text":"` + text + `"}]}}}`,
			decodeFast03, orFull(decodeRPCEvent03)},
	} {
		b.Run(v.name, func(b *testing.B) {
			data := []byte(v.data)
			var spent [2]time.Duration
			for b.Loop() {
				for i, decode := range []func([]byte) (a2a.Event, bool){v.full, v.fast} {
					start := time.Now()
					for range 100 {
						if _, ok := decode(data); !ok {
							b.Fatal("not decoded")
						}
					}
					spent[i] += time.Since(start)
				}
			}
			n := float64(b.N * 100)
			b.ReportMetric(float64(spent[0].Nanoseconds())/n, "ns-full/chunk")
			b.ReportMetric(float64(spent[1].Nanoseconds())/n, "ns-fast/chunk")
			b.ReportMetric(float64(spent[1])/float64(spent[0]), "fast/full")
		})
	}
}

func orFull(decode func([]byte) (a2a.Event, error)) func([]byte) (a2a.Event, bool) {
	return func(data []byte) (a2a.Event, bool) {
		ev, err := decode(data)
		return ev, err == nil
	}
}
