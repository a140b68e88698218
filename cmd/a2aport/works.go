package main

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/internal/filestore"
)

// The running Works of the command are kept under the user cache directory, a folder per agent
// (a2aport/works/<hash of the card URL>, with the card URL in .agent.json, which filestore does not list) holding
// internal/filestore's file per Work, deleted when the Work ends: `status`, `cancel` and `resume`
// find a Work there from another shell by its id or its agent's task id. The process that follows
// a Work holds its lock file, so that no two processes answer the same task's questions.

// worksRoot is a2aport/works under the user cache directory.
func worksRoot() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "a2aport", "works"), nil
}

// agentFile is what a folder of Works says about its agent.
type agentFile struct {
	Card string `json:"card"`
}

// agentWorks opens the folder of the agent at card, creating it.
func agentWorks(card string) (*filestore.WorkStore, error) {
	root, err := worksRoot()
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256([]byte(card))
	dir := filepath.Join(root, fmt.Sprintf("%x", sum[:8]))
	store, err := filestore.NewWorkStore(dir)
	if err != nil {
		return nil, err
	}
	if !exists(filepath.Join(dir, ".agent.json")) {
		data, _ := json.Marshal(agentFile{Card: card})
		if err := os.WriteFile(filepath.Join(dir, ".agent.json"), data, 0o600); err != nil {
			return nil, err
		}
	}
	return store, nil
}

// taskNoticer is the command's WorkStore for one agent, which also tells onTask once when the
// agent names a Work's task (the adapter's events never carry the remote ids). Kept in files, it
// holds the Work's lock from its first record to its deletion; kept in memory (the default of
// send: the specification's CLI stores no task state, SPEC.md §6.3) it needs none.
type taskNoticer struct {
	a2aport.WorkStore
	files  *filestore.WorkStore // nil: in memory
	onTask func(a2aport.WorkRecord)
	told   sync.Map // work id → struct{}
	locks  sync.Map // work id → func() (releases the lock)
}

func newTaskNoticer(card string, onTask func(a2aport.WorkRecord)) (*taskNoticer, error) {
	store, err := agentWorks(card)
	if err != nil {
		return nil, err
	}
	return &taskNoticer{WorkStore: store, files: store, onTask: onTask}, nil
}

// newMemoryNoticer is a taskNoticer that keeps its records in this process only.
func newMemoryNoticer(onTask func(a2aport.WorkRecord)) *taskNoticer {
	return &taskNoticer{WorkStore: &a2aport.MemoryWorkStore{}, onTask: onTask}
}

// follow takes the lock of a Work this process follows: false when another process holds it.
func (s *taskNoticer) follow(workID string) bool {
	if _, held := s.locks.Load(workID); held || s.files == nil {
		return true
	}
	release, ok := lockFile(lockPath(s.files, workID))
	if ok {
		s.locks.Store(workID, release)
	}
	return ok
}

// Set implements a2aport.WorkStore.
func (s *taskNoticer) Set(ctx context.Context, rec a2aport.WorkRecord) error {
	s.follow(rec.WorkID) // a record written by a Work this process runs: it follows it
	if err := s.WorkStore.Set(ctx, rec); err != nil {
		return err
	}
	if rec.RemoteTaskID != "" {
		if _, told := s.told.LoadOrStore(rec.WorkID, struct{}{}); !told {
			s.onTask(rec)
		}
	}
	return nil
}

// Delete implements a2aport.WorkStore.
func (s *taskNoticer) Delete(ctx context.Context, workID string) error {
	err := s.WorkStore.Delete(ctx, workID)
	if release, held := s.locks.LoadAndDelete(workID); held {
		release.(func())()
	}
	return err
}

// release lets go of every lock still held (the Works stay recorded: another process may
// resume them).
func (s *taskNoticer) release() {
	s.locks.Range(func(id, release any) bool {
		s.locks.Delete(id)
		release.(func())()
		return true
	})
}

// lockPath is the lock file of a Work, beside its record (filestore lists only .json files).
func lockPath(store *filestore.WorkStore, workID string) string {
	return strings.TrimSuffix(store.Path(workID), ".json") + ".lock"
}

// savedWork is one recorded Work and its agent.
type savedWork struct {
	a2aport.WorkRecord
	Card     string
	Updated  time.Time
	Followed bool // a process follows it now
}

// savedWorks lists every recorded Work, the most recently updated first.
func savedWorks() ([]savedWork, error) {
	root, err := worksRoot()
	if err != nil {
		return nil, err
	}
	dirs, err := os.ReadDir(root)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []savedWork
	for _, d := range dirs {
		dir := filepath.Join(root, d.Name())
		var agent agentFile
		data, err := os.ReadFile(filepath.Join(dir, ".agent.json"))
		if err != nil || json.Unmarshal(data, &agent) != nil || agent.Card == "" {
			continue // not a folder of ours, or one being created
		}
		store, err := filestore.NewWorkStore(dir)
		if err != nil {
			return nil, err
		}
		recs, err := store.List(context.Background())
		if err != nil {
			return nil, err
		}
		for _, rec := range recs {
			w := savedWork{WorkRecord: rec, Card: agent.Card, Followed: locked(lockPath(store, rec.WorkID))}
			if fi, err := os.Stat(store.Path(rec.WorkID)); err == nil {
				w.Updated = fi.ModTime()
			}
			out = append(out, w)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Updated.After(out[j].Updated) })
	return out, nil
}

// errNoSuchWork: no recorded Work has the id a command was given.
var errNoSuchWork = errors.New("no running Work of a2aport has this id")

// errFollowed: another process follows the Work (it holds its lock).
var errFollowed = errors.New("another a2aport process follows this Work")

// findWork is the recorded Work whose id, or whose agent's task id, is id or starts with it.
func findWork(id string) (savedWork, error) {
	works, err := savedWorks()
	if err != nil {
		return savedWork{}, err
	}
	var found []savedWork
	for _, w := range works {
		if w.WorkID == id || w.RemoteTaskID == id {
			return w, nil
		}
		if strings.HasPrefix(w.WorkID, id) || (w.RemoteTaskID != "" && strings.HasPrefix(w.RemoteTaskID, id)) {
			found = append(found, w)
		}
	}
	switch len(found) {
	case 0:
		return savedWork{}, fmt.Errorf("%q: %w (a2aport status lists them)", id, errNoSuchWork)
	case 1:
		return found[0], nil
	}
	return savedWork{}, fmt.Errorf("%q is the start of %d Works' ids: give more of it", id, len(found))
}
