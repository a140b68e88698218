package a2aport

import (
	"container/list"
	"context"
	"sync"
	"time"
)

// ContextStore remembers, per owner, the remote context id of the owner's conversation
// (Options.ReuseContext). Implementations may persist it; they must be safe for concurrent use.
type ContextStore interface {
	Get(ctx context.Context, ownerID string) (contextID string, ok bool, err error)
	Set(ctx context.Context, ownerID, contextID string) error
	Delete(ctx context.Context, ownerID string) error
}

// DefaultContextCapacity is the number of owners the in-memory store keeps.
const DefaultContextCapacity = 100

// MemoryContextStoreOptions configure NewMemoryContextStore.
type MemoryContextStoreOptions struct {
	// Capacity is the number of owners kept (default 100). Owners with active Works are never
	// evicted, so the store may briefly hold more.
	Capacity int
	// TTL forgets a context this long after its last use (0 = never).
	TTL   time.Duration
	Clock Clock
}

// MemoryContextStore is the default ContextStore: least recently used owners are evicted first,
// owners held by active Works never.
type MemoryContextStore struct {
	opts MemoryContextStoreOptions

	mu      sync.Mutex
	entries map[string]*list.Element // of *contextEntry
	lru     *list.List               // front = most recently used
	holds   map[string]int
}

type contextEntry struct {
	owner, contextID string
	used             time.Time
}

// NewMemoryContextStore returns an empty store.
func NewMemoryContextStore(opts MemoryContextStoreOptions) *MemoryContextStore {
	if opts.Capacity <= 0 {
		opts.Capacity = DefaultContextCapacity
	}
	if opts.Clock == nil {
		opts.Clock = RealClock()
	}
	return &MemoryContextStore{opts: opts, entries: map[string]*list.Element{}, lru: list.New(), holds: map[string]int{}}
}

// Get implements ContextStore.
func (s *MemoryContextStore) Get(_ context.Context, ownerID string) (string, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	el, ok := s.entries[ownerID]
	if !ok {
		return "", false, nil
	}
	e := el.Value.(*contextEntry)
	now := s.opts.Clock.Now()
	if s.opts.TTL > 0 && now.Sub(e.used) >= s.opts.TTL && s.holds[ownerID] == 0 {
		s.remove(el)
		return "", false, nil
	}
	e.used = now
	s.lru.MoveToFront(el)
	return e.contextID, true, nil
}

// Set implements ContextStore.
func (s *MemoryContextStore) Set(_ context.Context, ownerID, contextID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.opts.Clock.Now()
	if el, ok := s.entries[ownerID]; ok {
		e := el.Value.(*contextEntry)
		e.contextID, e.used = contextID, now
		s.lru.MoveToFront(el)
		return nil
	}
	s.entries[ownerID] = s.lru.PushFront(&contextEntry{owner: ownerID, contextID: contextID, used: now})
	s.evict()
	return nil
}

// Delete implements ContextStore.
func (s *MemoryContextStore) Delete(_ context.Context, ownerID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if el, ok := s.entries[ownerID]; ok {
		s.remove(el)
	}
	return nil
}

// Hold marks an owner as active: its context is not evicted until the matching Release.
func (s *MemoryContextStore) Hold(ownerID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.holds[ownerID]++
}

// Release ends one Hold.
func (s *MemoryContextStore) Release(ownerID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.holds[ownerID]--; s.holds[ownerID] <= 0 {
		delete(s.holds, ownerID)
	}
	s.evict()
}

// Len returns the number of owners stored.
func (s *MemoryContextStore) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.entries)
}

// Clear forgets every context.
func (s *MemoryContextStore) Clear() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.entries = map[string]*list.Element{}
	s.lru.Init()
}

// evict drops least recently used, unheld owners while over capacity. Callers hold mu.
func (s *MemoryContextStore) evict() {
	for el := s.lru.Back(); el != nil && len(s.entries) > s.opts.Capacity; {
		prev := el.Prev()
		if s.holds[el.Value.(*contextEntry).owner] == 0 {
			s.remove(el)
		}
		el = prev
	}
}

func (s *MemoryContextStore) remove(el *list.Element) {
	delete(s.entries, el.Value.(*contextEntry).owner)
	s.lru.Remove(el)
}
