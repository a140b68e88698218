package bridge

import (
	"context"
	"errors"
	"sync"

	"github.com/a2aport/a2aport/internal/abi"
)

// hostStore is the adapter's ContextStore when the host keeps the context ids (a persistent store
// of the page or the Go program): each operation is a store effect answered by a storeDone input.
type hostStore struct{ b *Bridge }

type storeRequest struct {
	mu        sync.Mutex
	done      bool
	contextID string
	found     bool
	err       error
}

func (s hostStore) do(ctx context.Context, method, owner, contextID string) (*storeRequest, error) {
	req := &storeRequest{}
	id := s.b.newID()
	s.b.mu.Lock()
	s.b.stores[id] = req
	s.b.out.Add(abi.Envelope{Kind: abi.KindStore, ID: id, Method: method, OwnerID: owner, ContextID: contextID})
	s.b.mu.Unlock()
	s.b.sched.Wait(func() bool { return req.isDone() || ctx.Err() != nil })
	if !req.isDone() {
		s.b.mu.Lock()
		delete(s.b.stores, id)
		s.b.mu.Unlock()
		return nil, context.Cause(ctx)
	}
	return req, req.err
}

func (r *storeRequest) isDone() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.done
}

// Get implements adapter.ContextStore.
func (s hostStore) Get(ctx context.Context, owner string) (string, bool, error) {
	req, err := s.do(ctx, abi.StoreGet, owner, "")
	if err != nil {
		return "", false, err
	}
	return req.contextID, req.found, nil
}

// Set implements adapter.ContextStore.
func (s hostStore) Set(ctx context.Context, owner, contextID string) error {
	_, err := s.do(ctx, abi.StoreSet, owner, contextID)
	return err
}

// Delete implements adapter.ContextStore.
func (s hostStore) Delete(ctx context.Context, owner string) error {
	_, err := s.do(ctx, abi.StoreDelete, owner, "")
	return err
}

// Hold and Release tell a host store which owners are active; they need no answer.
func (s hostStore) Hold(owner string)    { s.notify(abi.StoreHold, owner) }
func (s hostStore) Release(owner string) { s.notify(abi.StoreRelease, owner) }

func (s hostStore) notify(method, owner string) {
	s.b.emit(abi.Envelope{Kind: abi.KindStore, Method: method, OwnerID: owner})
}

func (b *Bridge) deliverStore(e abi.Envelope) {
	b.mu.Lock()
	req := b.stores[e.ID]
	delete(b.stores, e.ID)
	b.mu.Unlock()
	if req == nil {
		return
	}
	req.mu.Lock()
	defer req.mu.Unlock()
	req.done, req.contextID, req.found = true, e.ContextID, e.Found
	if e.Error != nil {
		req.err = errors.New(e.Error.Message)
	}
}
