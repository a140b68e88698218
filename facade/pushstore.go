package facade

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv/push"
	"github.com/google/uuid"
)

// pushStore keeps the tasks' webhook configurations for a2a-go (push.ConfigStore). a2a-go's
// InMemoryPushConfigStore would do but for what a long-running service needs: its configurations
// stay after their task is gone (nothing calls DeleteAll), a task may have any number, and it keeps
// nothing of who registered one. Here a task has at most MaxConfigsPerTask, the configurations of a
// task kept in memory go with it (memStore.forgotten), and each keeps the caller and the protocol
// version it came with (pushqueue.go sends a 0.3 caller 0.3's body). Where they are kept is a
// PushStore: this process's memory, or PushOptions.Store for a cluster, whose nodes all find them.
// Whose task it is was checked before a2asrv calls the store (callers, isolation.go), and the
// configurations of a task are reached only by its id.
type pushStore struct {
	guard    *webhookGuard
	maxCount int
	kept     PushStore
}

// PushStore keeps push configurations, as the facade encodes them, by task and configuration id:
// in memory by default, in PostgreSQL for a cluster (pgcluster.Cluster.PushConfigs), so that the
// node that runs a task's events finds the webhooks a caller registered through another node.
type PushStore interface {
	// PutPush stores record as the task's configuration configID, replacing one of that id; it
	// stores nothing and says false when the task has maxPerTask others already.
	PutPush(ctx context.Context, taskID a2a.TaskID, configID string, record []byte, maxPerTask int) (bool, error)
	// GetPush is the record of the configuration, or nil when the task has none of that id.
	GetPush(ctx context.Context, taskID a2a.TaskID, configID string) ([]byte, error)
	// ListPush is the task's records, oldest first.
	ListPush(ctx context.Context, taskID a2a.TaskID) ([][]byte, error)
	// DeletePush removes the configuration configID of the task, or every one for "".
	DeletePush(ctx context.Context, taskID a2a.TaskID, configID string) error
}

// pushRecord is one configuration as registered.
type pushRecord struct {
	config *a2a.PushConfig
	caller string // who registered it: the task's owner
	legacy bool   // registered over A2A 0.3
}

// storedPush is a pushRecord as a PushStore keeps it.
type storedPush struct {
	Config *a2a.PushConfig `json:"config"`
	Caller string          `json:"caller"`
	Legacy bool            `json:"legacy,omitempty"`
}

func decodePush(b []byte) (pushRecord, error) {
	var s storedPush
	if err := json.Unmarshal(b, &s); err != nil || s.Config == nil {
		return pushRecord{}, fmt.Errorf("a stored push notification configuration does not read: %v", err)
	}
	return pushRecord{config: s.Config, caller: s.Caller, legacy: s.Legacy}, nil
}

var _ push.ConfigStore = (*pushStore)(nil)

func newPushStore(guard *webhookGuard, maxCount int, kept PushStore) *pushStore {
	if kept == nil {
		kept = &memPushes{tasks: map[a2a.TaskID][]memPush{}}
	}
	return &pushStore{guard: guard, maxCount: maxCount, kept: kept}
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
	record, err := json.Marshal(storedPush{Config: saved, Caller: callerFrom(ctx), Legacy: isLegacyCall(ctx)})
	if err != nil {
		return nil, err
	}
	stored, err := s.kept.PutPush(ctx, taskID, saved.ID, record, s.maxCount)
	switch {
	case err != nil:
		return nil, fmt.Errorf("%w: the push notification configuration could not be kept", a2a.ErrInternalError)
	case !stored:
		return nil, fmt.Errorf("%w: a task has at most %d push notification configurations (MaxConfigsPerTask)", a2a.ErrInvalidParams, s.maxCount)
	}
	return copyPushConfig(saved), nil
}

// Get implements push.ConfigStore: a configuration the task does not have is TaskNotFoundError,
// as A2A 1.0 §3.1.8 answers it.
func (s *pushStore) Get(ctx context.Context, taskID a2a.TaskID, configID string) (*a2a.PushConfig, error) {
	if r, ok := s.recordCtx(ctx, taskID, configID); ok {
		return copyPushConfig(r.config), nil
	}
	return nil, fmt.Errorf("%w: the task has no push notification configuration %q", a2a.ErrTaskNotFound, printable(configID))
}

// List implements push.ConfigStore (a2a-go calls it for every event of every task).
func (s *pushStore) List(ctx context.Context, taskID a2a.TaskID) ([]*a2a.PushConfig, error) {
	records, err := s.kept.ListPush(ctx, taskID)
	if err != nil {
		return nil, err
	}
	list := make([]*a2a.PushConfig, 0, len(records))
	for _, b := range records {
		if r, err := decodePush(b); err == nil {
			list = append(list, copyPushConfig(r.config))
		}
	}
	return list, nil
}

// Delete implements push.ConfigStore. Events of the configuration still queued are not sent
// (pushqueue.go reads the configuration again before each attempt).
func (s *pushStore) Delete(ctx context.Context, taskID a2a.TaskID, configID string) error {
	if configID == "" {
		return nil // "" is every configuration to the PushStore, never to a caller
	}
	return s.kept.DeletePush(ctx, taskID, configID)
}

// DeleteAll implements push.ConfigStore.
func (s *pushStore) DeleteAll(ctx context.Context, taskID a2a.TaskID) error {
	return s.kept.DeletePush(ctx, taskID, "")
}

// forget drops a task's configurations kept in memory: the task store dropped the task
// (memStore.forgotten, under its lock: memory only, never a database's round trip).
func (s *pushStore) forget(taskID a2a.TaskID) {
	if m, ok := s.kept.(*memPushes); ok {
		_ = m.DeletePush(context.Background(), taskID, "")
	}
}

// pushStoreTimeout bounds a read of a configuration for a delivery.
const pushStoreTimeout = 10 * time.Second

// record is the configuration as it is now, for one delivery attempt.
func (s *pushStore) record(taskID a2a.TaskID, configID string) (pushRecord, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), pushStoreTimeout)
	defer cancel()
	return s.recordCtx(ctx, taskID, configID)
}

func (s *pushStore) recordCtx(ctx context.Context, taskID a2a.TaskID, configID string) (pushRecord, bool) {
	b, err := s.kept.GetPush(ctx, taskID, configID)
	if err != nil || b == nil {
		return pushRecord{}, false
	}
	r, err := decodePush(b)
	return r, err == nil
}

// memPushes is a PushStore in this process's memory.
type memPushes struct {
	mu    sync.Mutex
	tasks map[a2a.TaskID][]memPush // oldest first
}

type memPush struct {
	id     string
	record []byte
}

func (m *memPushes) PutPush(_ context.Context, taskID a2a.TaskID, configID string, record []byte, maxPerTask int) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	list := m.tasks[taskID]
	for i := range list {
		if list[i].id == configID {
			list[i].record = record
			return true, nil
		}
	}
	if len(list) >= maxPerTask {
		return false, nil
	}
	m.tasks[taskID] = append(list, memPush{configID, record})
	return true, nil
}

func (m *memPushes) GetPush(_ context.Context, taskID a2a.TaskID, configID string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, p := range m.tasks[taskID] {
		if p.id == configID {
			return p.record, nil
		}
	}
	return nil, nil
}

func (m *memPushes) ListPush(_ context.Context, taskID a2a.TaskID) ([][]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([][]byte, 0, len(m.tasks[taskID]))
	for _, p := range m.tasks[taskID] {
		out = append(out, p.record)
	}
	return out, nil
}

func (m *memPushes) DeletePush(_ context.Context, taskID a2a.TaskID, configID string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if configID == "" {
		delete(m.tasks, taskID)
		return nil
	}
	list := m.tasks[taskID]
	for i, p := range list {
		if p.id == configID {
			list = append(list[:i:i], list[i+1:]...)
			break
		}
	}
	if len(list) == 0 {
		delete(m.tasks, taskID)
	} else {
		m.tasks[taskID] = list
	}
	return nil
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
