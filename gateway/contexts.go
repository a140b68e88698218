package gateway

import (
	"container/list"
	"context"
	"sync"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/internal/owner"
)

// callerContexts is a backend's ContextStore (ReuseContext): each caller's conversations in a
// store of their own, of a2aport.DefaultContextCapacity owners, so that one caller who starts many
// conversations evicts its own oldest, never another caller's (the adapter's one store of 100
// owners was shared: 120 fresh conversations of one caller ended another's). The stores of the
// callers least recently seen go beyond maxCallers.
type callerContexts struct {
	mu      sync.Mutex
	stores  map[string]*list.Element // caller → its element in lru
	lru     *list.List               // of *callerStore, front = most recently used
	callers int                      // the most callers kept
}

type callerStore struct {
	caller string
	store  *a2aport.MemoryContextStore
}

// maxContextCallers bounds how many callers' conversations a backend keeps.
const maxContextCallers = 10_000

var _ a2aport.ContextStore = (*callerContexts)(nil)

func newCallerContexts() *callerContexts {
	return &callerContexts{stores: map[string]*list.Element{}, lru: list.New(), callers: maxContextCallers}
}

// of is the store of ownerID's caller (an owner id the facade did not write is a caller of its own).
func (c *callerContexts) of(ownerID string) *a2aport.MemoryContextStore {
	caller, ok := owner.Caller(ownerID)
	if !ok {
		caller = ownerID
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.stores[caller]; ok {
		c.lru.MoveToFront(e)
		return e.Value.(*callerStore).store
	}
	s := &callerStore{caller: caller, store: a2aport.NewMemoryContextStore(a2aport.MemoryContextStoreOptions{})}
	c.stores[caller] = c.lru.PushFront(s)
	for c.lru.Len() > c.callers {
		oldest := c.lru.Back()
		c.lru.Remove(oldest)
		delete(c.stores, oldest.Value.(*callerStore).caller)
	}
	return s.store
}

// Get implements a2aport.ContextStore.
func (c *callerContexts) Get(ctx context.Context, ownerID string) (string, bool, error) {
	return c.of(ownerID).Get(ctx, ownerID)
}

// Set implements a2aport.ContextStore.
func (c *callerContexts) Set(ctx context.Context, ownerID, contextID string) error {
	return c.of(ownerID).Set(ctx, ownerID, contextID)
}

// Delete implements a2aport.ContextStore.
func (c *callerContexts) Delete(ctx context.Context, ownerID string) error {
	return c.of(ownerID).Delete(ctx, ownerID)
}

// Hold and Release pin an owner whose Work runs, as the adapter's own store does.
func (c *callerContexts) Hold(ownerID string)    { c.of(ownerID).Hold(ownerID) }
func (c *callerContexts) Release(ownerID string) { c.of(ownerID).Release(ownerID) }
