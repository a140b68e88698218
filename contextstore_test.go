package a2aport_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/internal/testkit/fakeclock"
)

func TestMemoryContextStoreEvictsLeastRecentlyUsedButNeverHeld(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := a2aport.NewMemoryContextStore(a2aport.MemoryContextStoreOptions{})
	s.Hold("owner-0") // an owner with an active Work
	for i := range 105 {
		if err := s.Set(ctx, fmt.Sprintf("owner-%d", i), fmt.Sprintf("ctx-%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if got := s.Len(); got != a2aport.DefaultContextCapacity {
		t.Errorf("Len() = %d, want %d", got, a2aport.DefaultContextCapacity)
	}
	if id, ok, _ := s.Get(ctx, "owner-0"); !ok || id != "ctx-0" {
		t.Errorf("Get(held owner-0) = %q, %v; want ctx-0, true", id, ok)
	}
	for i := 1; i <= 5; i++ {
		if _, ok, _ := s.Get(ctx, fmt.Sprintf("owner-%d", i)); ok {
			t.Errorf("owner-%d still stored; the least recently used should be evicted", i)
		}
	}
	if _, ok, _ := s.Get(ctx, "owner-104"); !ok {
		t.Error("newest owner evicted")
	}
}

func TestMemoryContextStoreTTL(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clock := fakeclock.New()
	s := a2aport.NewMemoryContextStore(a2aport.MemoryContextStoreOptions{TTL: time.Minute, Clock: clock})
	_ = s.Set(ctx, "o", "c")
	clock.Advance(59 * time.Second)
	if _, ok, _ := s.Get(ctx, "o"); !ok {
		t.Fatal("context forgotten before its TTL")
	}
	clock.Advance(time.Minute)
	if _, ok, _ := s.Get(ctx, "o"); ok {
		t.Error("context kept after its TTL")
	}
}
