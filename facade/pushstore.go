package facade

import (
	"context"
	"fmt"
	"sync"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv/push"
	"github.com/google/uuid"
)

// pushStore keeps the tasks' webhook configurations, in memory (one process: the facade refuses
// push with Cluster). a2a-go's InMemoryPushConfigStore would do but for what a long-running
// service needs: its configurations stay after their task is gone (nothing calls DeleteAll), a
// task may have any number, and it keeps nothing of who registered one. Here a task has at most
// MaxConfigsPerTask, the store forgets them when the task store drops the task, and each keeps
// the caller and the protocol version it came with (pushqueue.go sends a 0.3 caller 0.3's body).
// Whose task it is was checked before a2asrv calls the store (callers, isolation.go), and the
// configurations of a task are reached only by its id.
type pushStore struct {
	guard    *webhookGuard
	maxCount int

	mu    sync.Mutex
	tasks map[a2a.TaskID]map[string]*pushRecord
}

// pushRecord is one configuration as registered.
type pushRecord struct {
	config *a2a.PushConfig
	caller string // who registered it: the task's owner
	legacy bool   // registered over A2A 0.3
}

var _ push.ConfigStore = (*pushStore)(nil)

func newPushStore(guard *webhookGuard, maxCount int) *pushStore {
	return &pushStore{guard: guard, maxCount: maxCount, tasks: map[a2a.TaskID]map[string]*pushRecord{}}
}

// Save implements push.ConfigStore. The URL is checked again (pushChecks checked it first): a
// configuration a2a-go saves by another path is held to the same.
func (s *pushStore) Save(ctx context.Context, taskID a2a.TaskID, config *a2a.PushConfig) (*a2a.PushConfig, error) {
	if config == nil {
		return nil, fmt.Errorf("%w: no push notification configuration", a2a.ErrInvalidParams)
	}
	if err := s.guard.checkURL(config.URL); err != nil {
		return nil, fmt.Errorf("%w: %w", a2a.ErrInvalidParams, err)
	}
	saved := copyPushConfig(config)
	saved.TaskID = taskID
	if saved.ID == "" {
		saved.ID = uuid.NewString()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	configs := s.tasks[taskID]
	if configs == nil {
		configs = map[string]*pushRecord{}
		s.tasks[taskID] = configs
	}
	if _, replaces := configs[saved.ID]; !replaces && len(configs) >= s.maxCount {
		return nil, fmt.Errorf("%w: a task has at most %d push notification configurations (MaxConfigsPerTask)", a2a.ErrInvalidParams, s.maxCount)
	}
	configs[saved.ID] = &pushRecord{config: saved, caller: callerFrom(ctx), legacy: isLegacyCall(ctx)}
	return copyPushConfig(saved), nil
}

// Get implements push.ConfigStore: a configuration the task does not have is TaskNotFoundError,
// as A2A 1.0 §3.1.8 answers it.
func (s *pushStore) Get(_ context.Context, taskID a2a.TaskID, configID string) (*a2a.PushConfig, error) {
	if r, ok := s.record(taskID, configID); ok {
		return copyPushConfig(r.config), nil
	}
	return nil, fmt.Errorf("%w: the task has no push notification configuration %q", a2a.ErrTaskNotFound, printable(configID))
}

// List implements push.ConfigStore (a2a-go calls it for every event of every task).
func (s *pushStore) List(_ context.Context, taskID a2a.TaskID) ([]*a2a.PushConfig, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	list := make([]*a2a.PushConfig, 0, len(s.tasks[taskID]))
	for _, r := range s.tasks[taskID] {
		list = append(list, copyPushConfig(r.config))
	}
	return list, nil
}

// Delete implements push.ConfigStore. Events of the configuration still queued are not sent
// (pushqueue.go reads the configuration again before each attempt).
func (s *pushStore) Delete(_ context.Context, taskID a2a.TaskID, configID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if configs := s.tasks[taskID]; configs != nil {
		delete(configs, configID)
		if len(configs) == 0 {
			delete(s.tasks, taskID)
		}
	}
	return nil
}

// DeleteAll implements push.ConfigStore.
func (s *pushStore) DeleteAll(_ context.Context, taskID a2a.TaskID) error {
	s.forget(taskID)
	return nil
}

// forget drops a task's configurations: the task store dropped the task (memStore.forgotten).
func (s *pushStore) forget(taskID a2a.TaskID) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.tasks, taskID)
}

// record is the configuration as it is now, for one delivery attempt.
func (s *pushStore) record(taskID a2a.TaskID, configID string) (pushRecord, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.tasks[taskID][configID]
	if !ok {
		return pushRecord{}, false
	}
	return *r, true
}

// copyPushConfig is c for one reader: a2a-go and its callers may change what they are given.
func copyPushConfig(c *a2a.PushConfig) *a2a.PushConfig {
	cp := *c
	if c.Auth != nil {
		auth := *c.Auth
		cp.Auth = &auth
	}
	return &cp
}
