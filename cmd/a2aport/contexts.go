package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sync"

	"github.com/a2aport/a2aport"
)

// fileContexts keeps owner → remote context ids in one JSON file, per agent card, so that
// `--reuse-context` continues a conversation across invocations. One process at a time writes it;
// a concurrent writer's update may be lost, which only starts a fresh conversation.
type fileContexts struct {
	path string
	card string
	mu   sync.Mutex
}

var _ a2aport.ContextStore = (*fileContexts)(nil)

func newFileContexts(card string) (*fileContexts, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return nil, err
	}
	return &fileContexts{path: filepath.Join(dir, "a2aport", "contexts.json"), card: card}, nil
}

func (f *fileContexts) load() (map[string]map[string]string, error) {
	all := map[string]map[string]string{}
	data, err := os.ReadFile(f.path)
	if errors.Is(err, os.ErrNotExist) {
		return all, nil
	}
	if err != nil {
		return nil, err
	}
	if json.Unmarshal(data, &all) != nil {
		return map[string]map[string]string{}, nil // unreadable: start afresh rather than fail the Work
	}
	return all, nil
}

func (f *fileContexts) save(all map[string]map[string]string) error {
	if err := os.MkdirAll(filepath.Dir(f.path), 0o700); err != nil {
		return err
	}
	data, err := json.Marshal(all)
	if err != nil {
		return err
	}
	tmp := f.path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, f.path)
}

// Get implements a2aport.ContextStore.
func (f *fileContexts) Get(_ context.Context, owner string) (string, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	all, err := f.load()
	if err != nil {
		return "", false, err
	}
	id, ok := all[f.card][owner]
	return id, ok, nil
}

// Set implements a2aport.ContextStore.
func (f *fileContexts) Set(_ context.Context, owner, contextID string) error {
	return f.update(func(owners map[string]string) { owners[owner] = contextID })
}

// Delete implements a2aport.ContextStore.
func (f *fileContexts) Delete(_ context.Context, owner string) error {
	return f.update(func(owners map[string]string) { delete(owners, owner) })
}

func (f *fileContexts) update(change func(map[string]string)) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	all, err := f.load()
	if err != nil {
		return err
	}
	if all[f.card] == nil {
		all[f.card] = map[string]string{}
	}
	change(all[f.card])
	return f.save(all)
}
