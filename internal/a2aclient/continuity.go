package a2aclient

import (
	"context"
	"sync"

	"github.com/a2aport/a2aport"

	"github.com/a2aport/a2aport/internal/park"
)

// continuity applies DESIGN.md §3 on top of a ContextStore: the first Work of an owner sends no
// context id and later ones reuse what the server returned; concurrent first Works wait for that
// discovery only, and go ahead fresh if it fails.
type continuity struct {
	store a2aport.ContextStore
	mu    sync.Mutex
	// discovering holds, per owner, a channel closed when its first Work learned a context or gave up.
	discovering map[string]chan struct{}
}

// holder is implemented by stores that can pin active owners (MemoryContextStore).
type holder interface {
	Hold(ownerID string)
	Release(ownerID string)
}

// lease is one Work's use of its owner's context.
type lease struct {
	c       *continuity
	owner   string
	sent    string        // context id sent with the first message ("" = fresh)
	first   chan struct{} // non-nil when this Work discovers the owner's context
	learned bool
}

func (c *continuity) acquire(ctx context.Context, owner string) (*lease, error) {
	waited := false
	for {
		id, ok, err := c.get(ctx, owner)
		if err != nil {
			return nil, err
		}
		if ok || waited {
			return c.lease(owner, id, nil), nil
		}
		c.mu.Lock()
		wait, taken := c.discovering[owner]
		if !taken {
			first := make(chan struct{})
			c.discovering[owner] = first
			c.mu.Unlock()
			// A discovery may have ended between the Get above and the claim: it Set the store
			// before it let go, so a second look finds its context.
			if id, ok, err := c.get(ctx, owner); err != nil || ok {
				c.endDiscovery(owner, first)
				if err != nil {
					return nil, err
				}
				return c.lease(owner, id, nil), nil
			}
			return c.lease(owner, "", first), nil
		}
		c.mu.Unlock()
		if err := park.Wait(ctx, wait); err != nil {
			return nil, err
		}
		waited = true // a failed discovery lets the waiters go ahead fresh
	}
}

func (c *continuity) get(ctx context.Context, owner string) (string, bool, error) {
	id, ok, err := c.store.Get(ctx, owner)
	if err != nil {
		return "", false, &a2aport.Error{Code: a2aport.CodeInternal, Message: "context store: get failed", Err: err}
	}
	return id, ok, nil
}

func (c *continuity) lease(owner, sent string, first chan struct{}) *lease {
	if h, ok := c.store.(holder); ok {
		h.Hold(owner)
	}
	return &lease{c: c, owner: owner, sent: sent, first: first}
}

func (c *continuity) endDiscovery(owner string, first chan struct{}) {
	c.mu.Lock()
	if c.discovering[owner] == first {
		delete(c.discovering, owner)
	}
	c.mu.Unlock()
	close(first)
}

// learn records the context id the server reported. A server that moves an established
// conversation to another context is A2A_CONTEXT_MISMATCH.
func (l *lease) learn(ctx context.Context, contextID string) error {
	if contextID == "" || l.learned {
		return nil
	}
	if l.sent != "" && contextID != l.sent {
		return newError(a2aport.CodeContextMismatch, "the agent answered in another context than the conversation's")
	}
	l.learned = true
	if l.sent == "" {
		if _, ok, err := l.c.store.Get(ctx, l.owner); err == nil && !ok {
			if err := l.c.store.Set(ctx, l.owner, contextID); err != nil {
				return &a2aport.Error{Code: a2aport.CodeInternal, Message: "context store: set failed", Err: err}
			}
		}
	}
	l.endDiscovery()
	return nil
}

// release ends the lease; if this Work was discovering and never learned, waiters go ahead fresh.
func (l *lease) release() {
	l.endDiscovery()
	if h, ok := l.c.store.(holder); ok {
		h.Release(l.owner)
	}
}

func (l *lease) endDiscovery() {
	if l.first == nil {
		return
	}
	l.c.endDiscovery(l.owner, l.first)
	l.first = nil
}
