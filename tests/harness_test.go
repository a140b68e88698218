package tests

import (
	"context"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/a2aport/a2aport"

	"github.com/a2aport/a2aport/adapter"
	"github.com/a2aport/a2aport/host"
	"github.com/a2aport/a2aport/internal/sleepcount"
	"github.com/a2aport/a2aport/internal/testkit/agent"
	"github.com/a2aport/a2aport/internal/testkit/hosttest"
)

// server is the one test agent of this test binary; every variant is mounted on it.
var server *agent.Server

func TestMain(m *testing.M) {
	if spec := os.Getenv(crashHelperEnv); spec != "" {
		runCrashHelper(spec) // this process is a frontend that a test kills (crash_test.go)
	}
	hosttest.Main(m, hosttest.Host{
		Prepare: func(moduleDir, cacheDir string) error {
			if err := host.Configure(host.Config{ModuleDir: moduleDir, CompilationCacheDir: cacheDir}); err != nil {
				return err
			}
			return host.Prepare(context.Background())
		},
		Sleeps: sleepcount.Ended.Load,
	}, &server)
}

// implementation is one way to build an a2aport.Port. Every scenario runs against each of them
// with identical expectations: a behaviour that differs between them is a bug.
type implementation struct {
	name string
	new  func(a2aport.Options) (a2aport.Port, error)
}

var implementations = []implementation{
	{"native", func(o a2aport.Options) (a2aport.Port, error) { return adapter.New(o) }},
	{"module", func(o a2aport.Options) (a2aport.Port, error) { return host.New(context.Background(), o) }},
}

// testTimeout bounds every wait of a test so that a hang fails instead of blocking.
const testTimeout = 20 * time.Second

func newPort(t *testing.T, impl implementation, opts a2aport.Options) a2aport.Port {
	t.Helper()
	p, err := impl.new(opts)
	if err != nil {
		t.Fatalf("%s: new adapter: %v", impl.name, err)
	}
	t.Cleanup(func() {
		if err := p.Close(); err != nil {
			t.Errorf("Close() = %v", err)
		}
	})
	return p
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	t.Cleanup(cancel)
	return ctx
}

var workSeq atomic.Int64

// newWork returns a Work with a unique id.
func newWork(owner, instruction string) a2aport.Work {
	return a2aport.Work{ID: fmt.Sprintf("work-%d", workSeq.Add(1)), OwnerID: owner, Instruction: instruction}
}

// recorder collects one Work's events and lets a test wait for one of them.
type recorder struct {
	mu      sync.Mutex
	events  []a2aport.Event
	changed chan struct{}
}

func newRecorder() *recorder { return &recorder{changed: make(chan struct{})} }

func (r *recorder) record(ev a2aport.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, ev)
	close(r.changed)
	r.changed = make(chan struct{})
}

func (r *recorder) all() []a2aport.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]a2aport.Event(nil), r.events...)
}

// waitFor returns the first event (from index from on) that matches, waiting up to the test bound.
func (r *recorder) waitFor(ctx context.Context, t *testing.T, from int, match func(a2aport.Event) bool) (a2aport.Event, int) {
	t.Helper()
	for {
		r.mu.Lock()
		for i := from; i < len(r.events); i++ {
			if match(r.events[i]) {
				ev := r.events[i]
				r.mu.Unlock()
				return ev, i
			}
		}
		changed := r.changed
		r.mu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
			t.Fatalf("no matching event; got %+v", r.all())
			return a2aport.Event{}, -1
		}
	}
}

func isType(typ string) func(a2aport.Event) bool {
	return func(ev a2aport.Event) bool { return ev.Type == typ }
}

// result is what one Submit returned.
type result struct {
	out a2aport.Outcome
	err error
}

// submitAsync starts a Submit and returns its result channel.
func submitAsync(ctx context.Context, p a2aport.Port, w a2aport.Work, rec *recorder) <-chan result {
	done := make(chan result, 1)
	go func() {
		out, err := p.Submit(ctx, w, a2aport.OnEvent(rec.record))
		done <- result{out, err}
	}()
	return done
}

// resumeAsync resumes owner's Work workID on p in the background.
func resumeAsync(ctx context.Context, p a2aport.Port, workID, owner string, rec *recorder) <-chan result {
	done := make(chan result, 1)
	go func() {
		out, err := p.Resume(ctx, workID, owner, a2aport.OnEvent(rec.record))
		done <- result{out, err}
	}()
	return done
}

func await(ctx context.Context, t *testing.T, done <-chan result) result {
	t.Helper()
	select {
	case r := <-done:
		return r
	case <-ctx.Done():
		t.Fatal("submit did not return")
		return result{}
	}
}

// onMatrixEnds runs test, in parallel, for every implementation on the two ends of the variant
// matrix: 1.0 JSON-RPC streaming and 0.3 HTTP+JSON polling.
func onMatrixEnds(t *testing.T, test func(t *testing.T, ctx context.Context, impl implementation, v agent.Variant)) {
	variants := agent.Variants()
	for _, impl := range implementations {
		for _, v := range []agent.Variant{variants[0], variants[len(variants)-1]} {
			t.Run(impl.name+"/"+v.Name(), func(t *testing.T) {
				t.Parallel()
				test(t, testContext(t), impl, v)
			})
		}
	}
}
