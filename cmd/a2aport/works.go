package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/a2aport/a2aport/adapter"
)

// fileWorks is the command's WorkStore: a file per active Work under the user cache directory
// (a2aport/works/ID.json) with the adapter's record and the agent's card URL: what another shell,
// or a run after this process was killed, needs to find the agent's task (`status|cancel|resume`
// commands are not built yet). The adapter deletes a Work's file when the Work ends.
type fileWorks struct {
	dir  string
	card string // the agent of the Works this process records
	// onTask is told once when the agent named the Work's task (the record's first RemoteTaskID).
	onTask func(savedWork)
	told   sync.Map // work id → struct{}
}

var _ adapter.WorkStore = (*fileWorks)(nil)

// savedWork is one file of fileWorks.
type savedWork struct {
	adapter.WorkRecord
	Card string `json:"card"`
}

func newFileWorks(card string, onTask func(savedWork)) (*fileWorks, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return nil, err
	}
	return &fileWorks{dir: filepath.Join(dir, "a2aport", "works"), card: card, onTask: onTask}, nil
}

// path is the file of a Work; ids the command did not make are refused, never joined into a path.
func (f *fileWorks) path(workID string) (string, error) {
	if !validWorkID(workID) {
		return "", fmt.Errorf("%q is not a work id of a2aport (cli-…)", workID)
	}
	return filepath.Join(f.dir, workID+".json"), nil
}

func validWorkID(id string) bool {
	hex, ok := strings.CutPrefix(id, "cli-")
	return ok && len(hex) > 0 && len(hex) <= 64 && strings.Trim(hex, "0123456789abcdef") == ""
}

// Get implements adapter.WorkStore.
func (f *fileWorks) Get(_ context.Context, workID string) (adapter.WorkRecord, bool, error) {
	w, ok, err := f.load(workID)
	return w.WorkRecord, ok, err
}

func (f *fileWorks) load(workID string) (savedWork, bool, error) {
	path, err := f.path(workID)
	if err != nil {
		return savedWork{}, false, nil
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return savedWork{}, false, nil
	}
	if err != nil {
		return savedWork{}, false, err
	}
	var w savedWork
	if err := json.Unmarshal(data, &w); err != nil {
		return savedWork{}, false, fmt.Errorf("%s: %w", path, err)
	}
	return w, w.WorkID == workID, nil
}

// Set implements adapter.WorkStore.
func (f *fileWorks) Set(_ context.Context, rec adapter.WorkRecord) error {
	path, err := f.path(rec.WorkID)
	if err != nil {
		return err
	}
	w := savedWork{WorkRecord: rec, Card: f.card}
	data, err := json.Marshal(w)
	if err != nil {
		return err
	}
	if err := writeFileAtomic(path, data); err != nil {
		return err
	}
	if rec.RemoteTaskID != "" && f.onTask != nil {
		if _, told := f.told.LoadOrStore(rec.WorkID, struct{}{}); !told {
			f.onTask(w)
		}
	}
	return nil
}

// Delete implements adapter.WorkStore.
func (f *fileWorks) Delete(_ context.Context, workID string) error {
	path, err := f.path(workID)
	if err != nil {
		return err
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err // gone already: another process following the Work saw it end first
	}
	return nil
}

// writeFileAtomic replaces path's content at once (a reader sees the old file or the new one),
// creating its folder, readable by the user only.
func writeFileAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), path)
	}
	if werr != nil {
		_ = os.Remove(tmp.Name())
	}
	return werr
}
