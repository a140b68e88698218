package a2aclient

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/a2aport/a2aport"
)

// rendezvousStore holds its first n Gets until all n arrived: the interleaving in which
// concurrent first Works of one owner all find the store empty before any claims discovery.
type rendezvousStore struct {
	a2aport.ContextStore
	mu      sync.Mutex
	waiting int
	all     chan struct{}
}

func (s *rendezvousStore) Get(ctx context.Context, owner string) (string, bool, error) {
	s.mu.Lock()
	if s.waiting > 0 {
		s.waiting--
		if s.waiting == 0 {
			close(s.all)
		}
		s.mu.Unlock()
		<-s.all
	} else {
		s.mu.Unlock()
	}
	return s.ContextStore.Get(ctx, owner)
}

func TestConcurrentFirstLeasesOneDiscoverer(t *testing.T) {
	t.Parallel()
	const works = 4
	ctx := context.Background()
	store := &rendezvousStore{ContextStore: a2aport.NewMemoryContextStore(a2aport.MemoryContextStoreOptions{}), waiting: works, all: make(chan struct{})}
	c := &continuity{store: store, discovering: map[string]chan struct{}{}}
	leases := make(chan *lease, works)
	for range works {
		go func() {
			l, err := c.acquire(ctx, "owner")
			if err != nil {
				t.Error(err)
			}
			leases <- l
		}()
	}
	discoverer := <-leases
	if discoverer.first == nil || discoverer.sent != "" {
		t.Fatalf("the first lease out sent %q and discovers=%v; want a fresh discoverer", discoverer.sent, discoverer.first != nil)
	}
	select {
	case l := <-leases:
		t.Fatalf("a second lease came out (sent %q, discovers=%v) before the first learned its context", l.sent, l.first != nil)
	case <-time.After(50 * time.Millisecond):
	}
	if err := discoverer.learn(ctx, "ctx-1"); err != nil {
		t.Fatal(err)
	}
	discoverer.release()
	for range works - 1 {
		l := <-leases
		if l.sent != "ctx-1" || l.first != nil {
			t.Errorf("a waiting lease sent %q (discovers=%v), want ctx-1", l.sent, l.first != nil)
		}
		l.release()
	}
}
