package host

import (
	"context"

	"github.com/a2aport/a2aport/internal/a2aclient"
	"github.com/a2aport/a2aport/internal/sleepcount"

	"github.com/a2aport/a2aport/internal/abi"
)

// Stats are live counters of one adapter's module and of this process's host side, for leak
// tests and benchmarks.
type Stats struct {
	Module        ModuleStats // inside the module
	MemoryBytes   uint32      // the instance's linear memory (it never shrinks)
	HostFetches   int         // fetches the host holds for the module
	HostTimers    int         // timers the host holds for the module
	Reads         int64       // body chunks the module asked for, over the adapter's life
	Traps         int         // instances of this adapter that trapped
	RuntimeSleeps int64       // Go-runtime sleep requests (this instance and ended ones): must stay 0
}

// ModuleStats are counters inside one module instance.
type ModuleStats struct {
	Goroutines int    // alive
	Busy       int    // of them, running or runnable: 0 when the module is quiescent
	Sleeping   int    // parked on a module timer
	Fetches    int    // requests in flight
	Timers     int    // module timers pending
	HeapBytes  uint64 // the Go heap in use
	Panics     int    // recovered outside any call (timer callbacks)
}

// Stats returns the counters; it fails when the adapter is closed.
func (h *Adapter) Stats(ctx context.Context) (Stats, error) {
	if h.isClosed() {
		return Stats{}, a2aclient.ClosedError()
	}
	res, err := h.call(ctx, abi.Envelope{Method: abi.MethodStats}, nil)
	if err != nil {
		return Stats{}, err
	}
	h.mu.Lock()
	d, traps := h.drv, h.traps
	h.mu.Unlock()
	m := res.Stats
	st := Stats{Module: ModuleStats{Goroutines: m.Goroutines, Busy: m.Busy, Sleeping: m.Sleeping, Fetches: m.Fetches, Timers: m.Timers, HeapBytes: m.HeapBytes, Panics: m.Panics},
		Traps: traps, Reads: h.reads.Load(), RuntimeSleeps: sleepcount.Ended.Load()}
	if d != nil {
		st.HostFetches, st.HostTimers, st.MemoryBytes = d.counts()
		st.RuntimeSleeps += d.inst.sleeps.Load()
	}
	return st, nil
}

// counts reads the loop-owned tables through the loop, which owns them.
func (d *driver) counts() (fetches, timers int, memory uint32) {
	done := make(chan struct{})
	d.push(input{probe: func() {
		fetches, timers, memory = len(d.fetches), len(d.timers), d.inst.memorySize()
		close(done)
	}})
	select {
	case <-done:
	case <-d.stopped:
	}
	return fetches, timers, memory
}
