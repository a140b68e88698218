package demoagent

import (
	"context"
	"errors"
	"sync"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
	"github.com/a2aproject/a2a-go/v2/a2asrv/taskstore"
)

// recentStore keeps the tasks of a long-running demo from piling up: it holds two generations of
// a2asrv's in-memory store and starts a new generation once the current one has created perTier
// tasks, dropping the oldest. So between perTier and 2×perTier of the most recent tasks are kept;
// an older task answers "task not found", as it would after a restart.
type recentStore struct {
	perTier int

	mu       sync.Mutex
	current  *taskstore.InMemory
	previous *taskstore.InMemory
	created  int // in current
}

var _ taskstore.Store = (*recentStore)(nil)

func newRecentStore(perTier int) *recentStore {
	return &recentStore{perTier: perTier, current: newTier()}
}

func newTier() *taskstore.InMemory {
	return taskstore.NewInMemory(&taskstore.InMemoryStoreConfig{Authenticator: a2asrv.NewTaskStoreAuthenticator()})
}

// tiers returns the generations, newest first.
func (s *recentStore) tiers() []*taskstore.InMemory {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.previous == nil {
		return []*taskstore.InMemory{s.current}
	}
	return []*taskstore.InMemory{s.current, s.previous}
}

// Create implements [taskstore.Store].
func (s *recentStore) Create(ctx context.Context, task *a2a.Task) (taskstore.TaskVersion, error) {
	s.mu.Lock()
	if s.created >= s.perTier {
		s.previous, s.current, s.created = s.current, newTier(), 0
	}
	s.created++
	tier := s.current
	s.mu.Unlock()
	return tier.Create(ctx, task)
}

// Update implements [taskstore.Store]: the task is updated in the generation that holds it.
func (s *recentStore) Update(ctx context.Context, req *taskstore.UpdateRequest) (taskstore.TaskVersion, error) {
	var err error
	for _, tier := range s.tiers() {
		var v taskstore.TaskVersion
		if v, err = tier.Update(ctx, req); !errors.Is(err, a2a.ErrTaskNotFound) {
			return v, err
		}
	}
	return taskstore.TaskVersionMissing, err
}

// Get implements [taskstore.Store].
func (s *recentStore) Get(ctx context.Context, id a2a.TaskID) (*taskstore.StoredTask, error) {
	var err error
	for _, tier := range s.tiers() {
		var t *taskstore.StoredTask
		if t, err = tier.Get(ctx, id); !errors.Is(err, a2a.ErrTaskNotFound) {
			return t, err
		}
	}
	return nil, err
}

// List implements [taskstore.Store] over the newest generation; the demo page never lists tasks.
func (s *recentStore) List(ctx context.Context, req *a2a.ListTasksRequest) (*a2a.ListTasksResponse, error) {
	return s.tiers()[0].List(ctx, req)
}
