package bridge

import (
	"runtime"
	"runtime/metrics"
)

// garbageAllowance is how much garbage the module lets pile up before it collects.
const garbageAllowance = 16 << 20

// heapKeeper keeps the module's linear memory close to its live data. That memory never shrinks,
// and Go's default pacing lets the heap reach twice the live data: with a long answer's text
// live (one large, growing buffer) the garbage in between scatters over the pages that the
// text's next, larger buffer would need, and the module reserves fresh memory instead. So at the
// end of a call, once garbage passes a fixed allowance, the keeper collects in full. A soft memory
// limit (debug.SetMemoryLimit) would pace the collector the same way, but it wakes the scavenger,
// whose timed sleeps would block the module on the host (DESIGN.md §4).
type heapKeeper struct {
	samples []metrics.Sample
}

func (k *heapKeeper) collect() {
	if k.samples == nil {
		k.samples = []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/live:bytes"}}
	}
	metrics.Read(k.samples)
	objects, live := k.samples[0].Value.Uint64(), k.samples[1].Value.Uint64()
	if objects > live+garbageAllowance {
		runtime.GC()
	}
}
