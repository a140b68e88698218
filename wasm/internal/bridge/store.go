package bridge

import (
	"context"
	"errors"
	"sync"

	"github.com/a2aport/a2aport"
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
	record    *a2aport.WorkRecord
	err       error
}

func (s hostStore) do(ctx context.Context, method, owner, contextID string) (*storeRequest, error) {
	return s.b.storeCall(ctx, abi.Envelope{Kind: abi.KindStore, Method: method, OwnerID: owner, ContextID: contextID})
}

// storeCall sends a store effect and waits for the host's answer or ctx's end.
func (b *Bridge) storeCall(ctx context.Context, e abi.Envelope) (*storeRequest, error) {
	req := &storeRequest{}
	e.ID = b.newID()
	b.mu.Lock()
	b.stores[e.ID] = req
	b.out.Add(e)
	b.mu.Unlock()
	b.sched.Wait(func() bool { return req.isDone() || ctx.Err() != nil })
	if !req.isDone() {
		b.mu.Lock()
		delete(b.stores, e.ID)
		b.mu.Unlock()
		return nil, context.Cause(ctx)
	}
	return req, req.err
}

func (r *storeRequest) isDone() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.done
}

// Get implements a2aport.ContextStore.
func (s hostStore) Get(ctx context.Context, owner string) (string, bool, error) {
	req, err := s.do(ctx, abi.StoreGet, owner, "")
	if err != nil {
		return "", false, err
	}
	return req.contextID, req.found, nil
}

// Set implements a2aport.ContextStore.
func (s hostStore) Set(ctx context.Context, owner, contextID string) error {
	_, err := s.do(ctx, abi.StoreSet, owner, contextID)
	return err
}

// Delete implements a2aport.ContextStore.
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
	req.done, req.contextID, req.found, req.record = true, e.ContextID, e.Found, e.Record
	if e.Error != nil {
		req.err = errors.New(e.Error.Message)
	}
}

// hostWorkStore is the adapter's WorkStore when the host keeps the Works (Options.WorkStore of
// the Go host, workStore of the JS package): each operation is a store effect.
type hostWorkStore struct{ b *Bridge }

// Get implements a2aport.WorkStore.
func (s hostWorkStore) Get(ctx context.Context, workID string) (a2aport.WorkRecord, bool, error) {
	req, err := s.b.storeCall(ctx, abi.Envelope{Kind: abi.KindStore, Method: abi.StoreWorkGet, WorkID: workID})
	if err != nil || !req.found || req.record == nil {
		return a2aport.WorkRecord{}, false, err
	}
	return *req.record, true, nil
}

// Set implements a2aport.WorkStore.
func (s hostWorkStore) Set(ctx context.Context, rec a2aport.WorkRecord) error {
	_, err := s.b.storeCall(ctx, abi.Envelope{Kind: abi.KindStore, Method: abi.StoreWorkSet, WorkID: rec.WorkID, Record: &rec})
	return err
}

// Delete implements a2aport.WorkStore.
func (s hostWorkStore) Delete(ctx context.Context, workID string) error {
	_, err := s.b.storeCall(ctx, abi.Envelope{Kind: abi.KindStore, Method: abi.StoreWorkDelete, WorkID: workID})
	return err
}
