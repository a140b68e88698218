package facade

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
	"github.com/a2aproject/a2a-go/v2/a2asrv/taskstore"

	"github.com/a2aport/a2aport/internal/a2asrvx"
)

// memStore is the facade's task store in one process: a2a-go's in-memory store, but for what a
// long-running service needs. Finished tasks go after their retention, beyond a count and beyond
// what they carry, in all and per caller, so memory stays bounded. Tasks are not deep-copied with encoding/gob on every event (a2a-go's store
// does, at a cost that grows with a task's size and nesting): a2a-go hands Create and Update a
// task it made for the purpose and does not touch again, and every reader gets its own copy of
// the task and of its history and artifact lists (a2a-go's handlers trim and append to those).
type memStore struct {
	retention   time.Duration // < 0: none
	maxFinished int           // < 0: no count
	maxBytes    int           // what the finished tasks carry, in all (< 0: no bound)
	maxPerUser  int           // what one caller's finished tasks carry (< 0: no bound)
	now         func() time.Time
	// forgotten, when set, is told of each task dropped, under the store's lock (push
	// configurations go with their task: pushstore.go).
	forgotten func(a2a.TaskID)

	mu       sync.Mutex
	tasks    map[a2a.TaskID]*memTask
	finished []finishedAt // the finished tasks kept, in the order they finished
	bytes    int          // what the finished tasks kept carry
	perUser  map[string]int
}

type memTask struct {
	task     *a2a.Task
	version  taskstore.TaskVersion
	user     string
	updated  time.Time
	finished time.Time // zero while the task runs
	bytes    int       // what it carries, once finished
}

type finishedAt struct {
	id a2a.TaskID
	at time.Time
}

var _ taskstore.Store = (*memStore)(nil)

func newMemStore(limits Limits) *memStore {
	return &memStore{retention: limits.FinishedTaskRetention, maxFinished: limits.MaxFinishedTasks,
		maxBytes: limits.MaxFinishedBytes, maxPerUser: limits.MaxFinishedBytesPerCaller, now: time.Now,
		tasks: map[a2a.TaskID]*memTask{}, perUser: map[string]int{}}
}

// userOf is the caller a2asrv handed the call (callers isolation.go sets it).
func userOf(ctx context.Context) (string, error) {
	callCtx, ok := a2asrv.CallContextFrom(ctx)
	if !ok || callCtx.User == nil {
		return "", a2a.ErrUnauthenticated
	}
	return callCtx.User.Name, nil
}

// Create implements taskstore.Store.
func (s *memStore) Create(ctx context.Context, task *a2a.Task) (taskstore.TaskVersion, error) {
	if task == nil || task.ID == "" {
		return taskstore.TaskVersionMissing, fmt.Errorf("%w: a task needs an id", a2a.ErrInvalidParams)
	}
	user, err := userOf(ctx)
	if err != nil {
		return taskstore.TaskVersionMissing, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.tasks[task.ID]; ok {
		return taskstore.TaskVersionMissing, taskstore.ErrTaskAlreadyExists
	}
	t := &memTask{task: task, version: 1, user: user, updated: s.now()}
	s.tasks[task.ID] = t
	s.noteFinishLocked(t) // a task may be created finished (a quick Work's, emitter)
	s.sweepLocked()
	return t.version, nil
}

// Update implements taskstore.Store.
func (s *memStore) Update(ctx context.Context, req *taskstore.UpdateRequest) (taskstore.TaskVersion, error) {
	if req == nil || req.Task == nil {
		return taskstore.TaskVersionMissing, fmt.Errorf("%w: no task to update", a2a.ErrInvalidParams)
	}
	user, err := userOf(ctx)
	if err != nil {
		return taskstore.TaskVersionMissing, err
	}
	a2asrvx.Tidy(req)
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.tasks[req.Task.ID]
	if !ok || t.user != user {
		return taskstore.TaskVersionMissing, a2a.ErrTaskNotFound
	}
	if req.PrevVersion != taskstore.TaskVersionMissing && req.PrevVersion != t.version {
		return taskstore.TaskVersionMissing, taskstore.ErrConcurrentModification
	}
	t.task, t.version, t.updated = req.Task, t.version+1, s.now()
	s.noteFinishLocked(t)
	s.sweepLocked()
	return t.version, nil
}

// Get implements taskstore.Store. Another caller's task is not found, as an unknown one.
func (s *memStore) Get(ctx context.Context, id a2a.TaskID) (*taskstore.StoredTask, error) {
	user, err := userOf(ctx)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.tasks[id]
	if !ok || t.user != user {
		return nil, a2a.ErrTaskNotFound
	}
	return &taskstore.StoredTask{Task: readerCopy(t.task), Version: t.version, User: t.user}, nil
}

// List implements taskstore.Store: the caller's tasks, most recently updated first, by pages.
func (s *memStore) List(ctx context.Context, req *a2a.ListTasksRequest) (*a2a.ListTasksResponse, error) {
	user, err := userOf(ctx)
	if err != nil || user == "" {
		return nil, a2a.ErrUnauthenticated
	}
	size := req.PageSize
	switch {
	case size == 0:
		size = 50
	case size < 1 || size > 100:
		return nil, fmt.Errorf("page size must be between 1 and 100, got %d: %w", size, a2a.ErrInvalidRequest)
	}
	var afterAt time.Time
	var afterID a2a.TaskID
	if req.PageToken != "" {
		if afterAt, afterID, err = decodeCursor(req.PageToken); err != nil {
			return nil, err
		}
	}
	s.mu.Lock()
	var mine []*memTask
	for _, t := range s.tasks {
		if t.user == user && matches(t.task, req) {
			mine = append(mine, t)
		}
	}
	s.mu.Unlock()
	slices.SortFunc(mine, func(a, b *memTask) int {
		if c := b.updated.Compare(a.updated); c != 0 {
			return c
		}
		return strings.Compare(string(b.task.ID), string(a.task.ID))
	})
	total := len(mine)
	if req.PageToken != "" {
		start := slices.IndexFunc(mine, func(t *memTask) bool { // the first one past the cursor
			return t.updated.Before(afterAt) || t.updated.Equal(afterAt) && t.task.ID < afterID
		})
		if start < 0 {
			start = len(mine)
		}
		mine = mine[start:]
	}
	resp := &a2a.ListTasksResponse{TotalSize: total, PageSize: size, Tasks: []*a2a.Task{}} // none is [], never null
	if len(mine) > size {
		last := mine[size-1]
		resp.NextPageToken = encodeCursor(last.updated, last.task.ID)
		mine = mine[:size]
	}
	for _, t := range mine {
		task := readerCopy(t.task)
		history := 100
		if req.HistoryLength != nil {
			history = *req.HistoryLength
		}
		if history >= 0 && len(task.History) > history {
			task.History = task.History[len(task.History)-history:]
		}
		if !req.IncludeArtifacts {
			task.Artifacts = nil
		}
		resp.Tasks = append(resp.Tasks, task)
	}
	return resp, nil
}

func matches(task *a2a.Task, req *a2a.ListTasksRequest) bool {
	switch {
	case req.ContextID != "" && task.ContextID != req.ContextID:
		return false
	case req.Status != a2a.TaskStateUnspecified && task.Status.State != req.Status:
		return false
	case req.StatusTimestampAfter != nil && task.Status.Timestamp != nil && task.Status.Timestamp.Before(*req.StatusTimestampAfter):
		return false
	}
	return true
}

// readerCopy is task for one reader: its own Task value, Status and lists, the messages and
// artifacts in them shared (nothing in a2a-go writes into those).
func readerCopy(task *a2a.Task) *a2a.Task {
	c := *task
	c.History = slices.Clone(task.History)
	c.Artifacts = slices.Clone(task.Artifacts)
	return &c
}

// noteFinishLocked records when t's task reached a terminal state (a2a-go changes a finished task
// no more), and what it carries.
func (s *memStore) noteFinishLocked(t *memTask) {
	if t.finished.IsZero() && t.task.Status.State.Terminal() {
		t.finished, t.bytes = s.now(), taskBytes(t.task)
		s.finished = append(s.finished, finishedAt{id: t.task.ID, at: t.finished})
		s.bytes += t.bytes
		s.perUser[t.user] += t.bytes
		if s.maxPerUser >= 0 && s.perUser[t.user] > s.maxPerUser {
			s.dropOwnLocked(t)
		}
	}
}

// sweepLocked drops finished tasks past their retention, the oldest beyond the count and beyond
// the bytes in all: from the front of the list, so each task costs once.
func (s *memStore) sweepLocked() {
	now := s.now()
	drop := 0
	for ; drop < len(s.finished); drop++ {
		f := s.finished[drop]
		t, kept := s.tasks[f.id]
		if !kept || t.finished != f.at { // dropped already (its caller's bound)
			continue
		}
		expired := s.retention >= 0 && now.Sub(f.at) > s.retention
		over := s.maxFinished >= 0 && len(s.finished)-drop > s.maxFinished
		heavy := s.maxBytes >= 0 && s.bytes > s.maxBytes
		if !expired && !over && !heavy {
			break
		}
		s.forgetLocked(t)
	}
	// Dropping from the front by reslicing costs nothing per task (slices.Delete moved the whole
	// list, ~10,000 entries, for every task once the count was reached: 3 % of a gateway's CPU);
	// append copies only the live entries when it grows the array, so the array does not grow
	// forever.
	clear(s.finished[:drop])
	s.finished = s.finished[drop:]
}

// dropOwnLocked drops the oldest finished tasks of newest's caller until what they carry is within
// its bound, newest (the task that just finished) excepted: a caller always finds its last one.
// The list keeps their entries until sweepLocked passes them.
func (s *memStore) dropOwnLocked(newest *memTask) {
	for _, f := range s.finished {
		if s.perUser[newest.user] <= s.maxPerUser {
			return
		}
		if t, kept := s.tasks[f.id]; kept && t != newest && t.user == newest.user && t.finished == f.at {
			s.forgetLocked(t)
		}
	}
}

// forgetLocked drops a finished task.
func (s *memStore) forgetLocked(t *memTask) {
	delete(s.tasks, t.task.ID)
	if s.forgotten != nil {
		s.forgotten(t.task.ID)
	}
	s.bytes -= t.bytes
	if s.perUser[t.user] -= t.bytes; s.perUser[t.user] <= 0 {
		delete(s.perUser, t.user)
	}
}

// taskBytes is what a task carries: the text, bytes and data of its history, status and artifacts.
func taskBytes(t *a2a.Task) int {
	n := 0
	for _, m := range t.History {
		n += messageBytes(m)
	}
	n += messageBytes(t.Status.Message)
	for _, a := range t.Artifacts {
		if a != nil {
			n += partBytes(a.Parts)
		}
	}
	return n
}

func messageBytes(m *a2a.Message) int {
	if m == nil {
		return 0
	}
	return partBytes(m.Parts)
}

func partBytes(parts []*a2a.Part) int {
	n := 0
	for _, p := range parts {
		if p == nil {
			continue
		}
		switch c := p.Content.(type) {
		case a2a.Text:
			n += len(c)
		case a2a.Raw:
			n += len(c)
		case a2a.URL:
			n += len(c)
		case a2a.Data:
			if data, err := json.Marshal(c.Value); err == nil {
				n += len(data)
			}
		}
	}
	return n
}

func encodeCursor(at time.Time, id a2a.TaskID) string {
	return base64.URLEncoding.EncodeToString([]byte(at.Format(time.RFC3339Nano) + "_" + string(id)))
}

func decodeCursor(token string) (time.Time, a2a.TaskID, error) {
	raw, err := base64.URLEncoding.DecodeString(token)
	if err != nil {
		return time.Time{}, "", a2a.ErrParseError
	}
	at, id, ok := strings.Cut(string(raw), "_")
	if !ok {
		return time.Time{}, "", a2a.ErrParseError
	}
	t, err := time.Parse(time.RFC3339Nano, at)
	if err != nil {
		return time.Time{}, "", a2a.ErrParseError
	}
	return t, a2a.TaskID(id), nil
}
