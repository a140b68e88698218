// Package filestore keeps a2aport's Work records in a folder, one JSON file per Work, for
// frontends that restart as processes (the terminal client, tests that kill a process in the
// middle of a send): an a2aport.WorkStore that outlives the process.
//
//	store, err := filestore.NewWorkStore(filepath.Join(cacheDir, "works"))
//	a, err := adapter.New(a2aport.Options{AgentCardURL: card, WorkStore: store})
package filestore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/a2aport/a2aport"
)

// WorkStore is an a2aport.WorkStore in a folder. A record is written to a temporary file and
// renamed into place, so a process killed in the middle of a write leaves the previous record.
type WorkStore struct{ dir string }

var _ a2aport.WorkStore = (*WorkStore)(nil)

// NewWorkStore keeps records in dir, creating it (owner-only) if needed.
func NewWorkStore(dir string) (*WorkStore, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	return &WorkStore{dir: dir}, nil
}

// Path is the file of a Work: its id, escaped so that no id leaves the folder. (Its time of
// change is when the Work's record last changed.)
func (s *WorkStore) Path(workID string) string {
	return filepath.Join(s.dir, fmt.Sprintf("%x.json", workID))
}

// Get implements a2aport.WorkStore.
func (s *WorkStore) Get(_ context.Context, workID string) (a2aport.WorkRecord, bool, error) {
	data, err := os.ReadFile(s.Path(workID))
	if errors.Is(err, fs.ErrNotExist) {
		return a2aport.WorkRecord{}, false, nil
	}
	if err != nil {
		return a2aport.WorkRecord{}, false, err
	}
	var rec a2aport.WorkRecord
	if err := json.Unmarshal(data, &rec); err != nil {
		return a2aport.WorkRecord{}, false, fmt.Errorf("filestore: %s: %w", s.Path(workID), err)
	}
	return rec, true, nil
}

// Set implements a2aport.WorkStore.
func (s *WorkStore) Set(_ context.Context, rec a2aport.WorkRecord) error {
	data, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(s.dir, ".record-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), s.Path(rec.WorkID))
	}
	if werr != nil {
		_ = os.Remove(tmp.Name()) // the write failed already; the temporary file must not stay
	}
	return werr
}

// Delete implements a2aport.WorkStore.
func (s *WorkStore) Delete(_ context.Context, workID string) error {
	err := os.Remove(s.Path(workID))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// List returns every Work recorded, in no particular order.
func (s *WorkStore) List(context.Context) ([]a2aport.WorkRecord, error) {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return nil, err
	}
	var out []a2aport.WorkRecord
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".json") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(s.dir, name))
		if err != nil {
			continue // deleted meanwhile
		}
		var rec a2aport.WorkRecord
		if json.Unmarshal(data, &rec) == nil {
			out = append(out, rec)
		}
	}
	return out, nil
}
