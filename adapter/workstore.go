package adapter

import (
	"context"
	"sync"
)

// WorkStore keeps, per Work, what it takes to re-attach to it after the frontend restarts
// (Options.WorkStore, Adapter.Resume): a page's localStorage, a file, a database. The adapter
// writes a Work's record when its message leaves (RemoteTaskID still empty), again once the agent
// named its task and at each change of state, and deletes it when the Work ends. A record without
// a RemoteTaskID is a Work whose process stopped while its message was on its way: Resume ends it
// with A2A_OUTCOME_UNKNOWN. Implementations must be safe for concurrent use.
type WorkStore interface {
	Get(ctx context.Context, workID string) (WorkRecord, bool, error)
	Set(ctx context.Context, record WorkRecord) error
	Delete(ctx context.Context, workID string) error
}

// WorkRecord is one active Work as a WorkStore keeps it. The remote ids are the agent's: the
// store is the frontend's own, but events never show them.
type WorkRecord struct {
	WorkID          string    `json:"workId"`
	OwnerID         string    `json:"ownerId"`
	RemoteTaskID    string    `json:"remoteTaskId"`
	RemoteContextID string    `json:"remoteContextId,omitempty"`
	State           WorkState `json:"state"`
}

// MemoryWorkStore is a WorkStore in memory: it outlives an Adapter, not the process (a host that
// restarts its module, a test). The zero value is ready to use.
type MemoryWorkStore struct {
	mu      sync.Mutex
	records map[string]WorkRecord
}

// Get implements WorkStore.
func (s *MemoryWorkStore) Get(_ context.Context, workID string) (WorkRecord, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rec, ok := s.records[workID]
	return rec, ok, nil
}

// Set implements WorkStore.
func (s *MemoryWorkStore) Set(_ context.Context, rec WorkRecord) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.records == nil {
		s.records = map[string]WorkRecord{}
	}
	s.records[rec.WorkID] = rec
	return nil
}

// Delete implements WorkStore.
func (s *MemoryWorkStore) Delete(_ context.Context, workID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.records, workID)
	return nil
}

// record writes the Work's record when it changed (the remote task became known, or the state
// moved). A store that fails costs the Work its durability, not its outcome: the Work goes on.
func (r *run) record() {
	store := r.a.s.WorkStore
	if store == nil {
		return
	}
	r.mu.Lock()
	rec := WorkRecord{WorkID: r.work.ID, OwnerID: r.work.OwnerID, RemoteTaskID: string(r.remoteTask), RemoteContextID: r.contextID, State: r.state}
	r.mu.Unlock()
	if !r.sentMessage() || rec == r.recorded {
		return
	}
	r.recorded = rec
	_ = store.Set(context.WithoutCancel(r.ctx), rec) // best-effort: see above
}

// forget deletes the Work's record once it ended.
func (r *run) forget() {
	if r.a.s.WorkStore == nil || r.recorded.WorkID == "" {
		return
	}
	_ = r.a.s.WorkStore.Delete(context.WithoutCancel(r.ctx), r.work.ID) // best-effort, as record
}
