package a2aport

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
