package facade

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// TestPushQueueDropsOldest: past MaxQueuedPerWebhook the oldest waiting event of that webhook is
// dropped, past MaxQueued the oldest waiting of any; the event being delivered is never dropped,
// and what is left is delivered in order.
func TestPushQueueDropsOldest(t *testing.T) {
	t.Parallel()
	hold := make(chan struct{})
	arrived := make(chan string, 100)
	var mu sync.Mutex
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		arrived <- string(b)
		<-hold
		mu.Lock()
		got = append(got, r.URL.Path+" "+string(b))
		mu.Unlock()
	}))
	defer srv.Close()
	release := sync.OnceFunc(func() { close(hold) })
	defer release() // before srv.Close, which waits for the handlers
	guard, err := newWebhookGuard([]string{srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	var drops, delivered sync.WaitGroup
	opts := PushOptions{MaxQueuedPerWebhook: 3, MaxQueued: 6, Observe: func(o PushOutcome) {
		switch o {
		case PushDropped:
			drops.Done()
		case PushDelivered:
			delivered.Done()
		}
	}}.withDefaults()
	configs := newPushStore(guard, 10, nil)
	ctx := context.Background()
	for _, hook := range []string{"a", "b"} {
		if _, err := configs.Save(ctx, "task", &a2a.PushConfig{ID: hook, URL: srv.URL + "/" + hook}); err != nil {
			t.Fatal(err)
		}
	}
	q := newPushQueue(opts, guard, configs, nil, slog.New(slog.DiscardHandler))
	put := func(hook, body string) {
		q.enqueue(&pushItem{id: body, key: webhookKey{task: "task", config: hook}, body: []byte(body), contentType: "application/json"})
	}

	put("a", "a1")
	if b := <-arrived; b != "a1" {
		t.Fatalf("in flight: %s", b)
	}
	drops.Add(2)
	for _, b := range []string{"a2", "a3", "a4", "a5", "a6"} { // a1 in flight, 3 wait: a2 and a3 dropped
		put("a", b)
	}
	drops.Wait()
	put("b", "b1") // in flight too: 1 + 3 + 1 = 5 of 6
	if b := <-arrived; b != "b1" {
		t.Fatalf("in flight: %s", b)
	}
	drops.Add(1)
	put("b", "b2")
	put("b", "b3") // 7 > 6: the oldest waiting of any, a4, goes
	drops.Wait()
	q.mu.Lock()
	count := q.count
	q.mu.Unlock()
	if count != opts.MaxQueued {
		t.Errorf("%d events held, want the bound, %d", count, opts.MaxQueued)
	}
	delivered.Add(6)
	release()
	waitDone(t, &delivered)
	mu.Lock()
	defer mu.Unlock()
	var a, b []string
	for _, g := range got {
		if g[1] == 'a' {
			a = append(a, g[3:])
		} else {
			b = append(b, g[3:])
		}
	}
	if !slices.Equal(a, []string{"a1", "a5", "a6"}) || !slices.Equal(b, []string{"b1", "b2", "b3"}) {
		t.Errorf("delivered %v and %v", a, b)
	}
}

func waitDone(t *testing.T, wg *sync.WaitGroup) {
	t.Helper()
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("not delivered within 5 s")
	}
}
