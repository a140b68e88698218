package host

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/internal/abi"
	"github.com/a2aport/a2aport/internal/testkit/fakeclock"
)

func TestHundredConcurrentStreamingWorks(t *testing.T) {
	t.Parallel()
	h := newAdapter(t, streaming, a2aport.Options{})
	ctx := testContext(t)
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for i := range 100 {
		wg.Go(func() {
			out, err := h.Submit(ctx, a2aport.Work{ID: fmt.Sprintf("w%d", i), OwnerID: "o", Instruction: "chunks 10"})
			if err == nil && (len(out.Artifacts) != 1 || !strings.HasSuffix(out.Artifacts[0].Parts[0].Text, "part-10 ")) {
				err = fmt.Errorf("work %d: outcome %+v", i, out)
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	assertQuiet(t, h)
}

func TestOneMegabyteEventArrivesInChunks(t *testing.T) {
	t.Parallel()
	h := newAdapter(t, streaming, a2aport.Options{})
	out, err := h.Submit(testContext(t), a2aport.Work{ID: "big", OwnerID: "o", Instruction: "big 1048576"})
	if err != nil {
		t.Fatal(err)
	}
	if got := len(out.Artifacts[0].Parts[0].Text); got != 1<<20 {
		t.Fatalf("artifact of %d bytes, want 1 MiB", got)
	}
	// The module pulled the body in host chunks of at most 16 KB, never all at once.
	if reads := h.reads.Load(); reads < (1<<20)/chunkSize {
		t.Errorf("the host read the body %d times, want at least %d chunks of %d bytes", reads, (1<<20)/chunkSize, chunkSize)
	}
	assertQuiet(t, h)
}

func TestCancelWhileABodyReadIsPending(t *testing.T) {
	t.Parallel()
	h := newAdapter(t, streaming, a2aport.Options{})
	ctx := testContext(t)
	w := a2aport.Work{ID: "held", OwnerID: "o", Instruction: "hold " + t.Name()}
	done := submitHeld(ctx, h, w) // the stream is open and the module waits for its next chunk
	if st, err := h.Stats(ctx); err != nil || st.HostFetches != 1 {
		t.Fatalf("Stats() = %+v, %v; want the stream's fetch open", st, err)
	}
	if _, err := h.Cancel(ctx, w.ID, w.OwnerID); err != nil {
		t.Fatal(err)
	}
	if err := <-done; !errors.Is(err, a2aport.ErrWorkCancelled) {
		t.Fatalf("Submit() = %v, want WORK_CANCELLED", err)
	}
	if !server.Cancelled(w.Instruction) {
		t.Error("the remote task was not cancelled")
	}
	assertQuiet(t, h)
}

func TestTimerFiresWhileFetchesAreInFlight(t *testing.T) {
	t.Parallel()
	clock := fakeclock.New()
	h := newAdapter(t, streaming, a2aport.Options{Timeout: time.Minute, Clock: clock})
	ctx := testContext(t)
	w := a2aport.Work{ID: "t", OwnerID: "o", Instruction: "hold " + t.Name()}
	done := submitHeld(ctx, h, w) // the stream's fetch is in flight, the Work's timer armed
	clock.Advance(time.Minute)
	if err := <-done; !errors.Is(err, a2aport.ErrTimeout) {
		t.Fatalf("Submit() = %v, want A2A_TIMEOUT", err)
	}
	if !server.Cancelled(w.Instruction) {
		t.Error("the timed-out task was not cancelled remotely")
	}
	assertQuiet(t, h)
}

func TestPanicInACallIsThatCallsError(t *testing.T) {
	t.Parallel()
	h := newAdapter(t, streaming, a2aport.Options{})
	ctx := testContext(t)
	_, err := h.call(ctx, abi.Envelope{Method: abi.MethodPanic}, nil)
	if !errors.Is(err, a2aport.ErrInternal) || !strings.Contains(err.Error(), "deliberate panic") {
		t.Fatalf("panicking call = %v, want INTERNAL naming the panic", err)
	}
	if _, err := h.Submit(ctx, a2aport.Work{ID: "after", OwnerID: "o", Instruction: "complete after a panic"}); err != nil {
		t.Fatalf("Submit after a panic = %v; the module must stay usable", err)
	}
}

func TestTrapRejectsPendingCallsAndTheNextCallStartsAFreshInstance(t *testing.T) {
	t.Parallel()
	h := newAdapter(t, streaming, a2aport.Options{})
	ctx := testContext(t)
	w := a2aport.Work{ID: "held", OwnerID: "o", Instruction: "hold " + t.Name()}
	held := submitHeld(ctx, h, w)
	if _, err := h.call(ctx, abi.Envelope{Method: abi.MethodTrap}, nil); !errors.Is(err, a2aport.ErrModuleTrapped) {
		t.Fatalf("trapping call = %v, want MODULE_TRAPPED", err)
	}
	if err := <-held; !errors.Is(err, a2aport.ErrModuleTrapped) || !strings.Contains(err.Error(), "deliberate trap") {
		t.Fatalf("pending Submit = %v, want MODULE_TRAPPED with the module's panic", err)
	}
	out, err := h.Submit(ctx, a2aport.Work{ID: "fresh", OwnerID: "o", Instruction: "complete on a fresh instance"})
	if err != nil || out.Content == "" {
		t.Fatalf("Submit after a trap = %+v, %v", out, err)
	}
	if st, err := h.Stats(ctx); err != nil || st.Traps != 1 {
		t.Errorf("Stats() = %+v, %v; want one trap counted", st, err)
	}
}

func TestThousandSequentialWorksLeaveNothingBehind(t *testing.T) {
	t.Parallel()
	h := newAdapter(t, streaming, a2aport.Options{})
	ctx := testContext(t)
	run := func(from, n int) {
		for i := from; i < from+n; i++ {
			if _, err := h.Submit(ctx, a2aport.Work{ID: fmt.Sprintf("seq-%d", i), OwnerID: "o", Instruction: "complete seq"}); err != nil {
				t.Fatalf("work %d: %v", i, err)
			}
		}
	}
	run(0, 100) // warm up: the Go heap inside the module grows to its working size
	base, err := h.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	run(100, 900)
	after, err := h.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if after.Module.Goroutines != base.Module.Goroutines || after.Module.Fetches != 0 || after.Module.Timers != 0 ||
		after.Module.Sleeping != 0 || after.HostFetches != 0 || after.HostTimers != 0 {
		t.Errorf("after 1,000 Works: %+v\nbaseline: %+v", after, base)
	}
	// Linear memory never shrinks; it must not keep growing either.
	if after.MemoryBytes > base.MemoryBytes+(8<<20) {
		t.Errorf("module memory grew from %d to %d bytes over 900 Works", base.MemoryBytes, after.MemoryBytes)
	}
	t.Logf("module memory %d → %d bytes, heap %d → %d bytes, goroutines %d", base.MemoryBytes, after.MemoryBytes,
		base.Module.HeapBytes, after.Module.HeapBytes, after.Module.Goroutines)
}

// assertQuiet checks that nothing is left running once every Work has ended.
func assertQuiet(t *testing.T, h *Adapter) {
	t.Helper()
	st, err := h.Stats(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if st.Module.Fetches != 0 || st.Module.Timers != 0 || st.Module.Sleeping != 0 || st.HostFetches != 0 || st.HostTimers != 0 ||
		st.Module.Panics != 0 || st.RuntimeSleeps != 0 {
		t.Errorf("after the Works ended: %+v", st)
	}
}

// submitHeld submits a held Work and returns once the agent reported it working; the channel
// receives the Submit's error.
func submitHeld(ctx context.Context, h *Adapter, w a2aport.Work) <-chan error {
	working := make(chan struct{})
	var once sync.Once
	done := make(chan error, 1)
	go func() {
		_, err := h.Submit(ctx, w, a2aport.OnEvent(func(ev a2aport.Event) {
			if ev.State == a2aport.StateWorking {
				once.Do(func() { close(working) })
			}
		}))
		done <- err
	}()
	select {
	case <-working:
	case <-ctx.Done():
	}
	return done
}
