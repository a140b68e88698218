package gateway

import (
	"context"
	"fmt"
	"testing"

	"github.com/a2aport/a2aport/internal/owner"
)

// TestOneCallerCannotEndAnothersConversation: caller B starting 120 conversations evicts B's own
// oldest, never caller A's (the adapter's one store of 100 owners was shared: A's next message
// started a new conversation).
func TestOneCallerCannotEndAnothersConversation(t *testing.T) {
	ctx := context.Background()
	s := newCallerContexts()
	a := owner.Of("alice", "conversation")
	if err := s.Set(ctx, a, "remote-a"); err != nil {
		t.Fatal(err)
	}
	for i := range 120 {
		if err := s.Set(ctx, owner.Of("bob", fmt.Sprintf("c%d", i)), "remote"); err != nil {
			t.Fatal(err)
		}
	}
	if got, ok, err := s.Get(ctx, a); err != nil || !ok || got != "remote-a" {
		t.Errorf("alice's conversation after bob's 120: %q, %v, %v", got, ok, err)
	}
	if _, ok, _ := s.Get(ctx, owner.Of("bob", "c0")); ok {
		t.Error("bob's oldest of 120 conversations is kept: his own store has no bound")
	}
	s.callers = 2
	s.of(owner.Of("carol", "x")) // a third caller: the least recently seen one's go
	if _, ok, _ := s.Get(ctx, a); ok {
		t.Error("a caller's conversations kept beyond the bound on callers")
	}
}
