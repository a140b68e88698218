package main

import (
	"context"
	"os"
	"path/filepath"
	"sync"

	"github.com/a2aport/a2aport/adapter"
	"github.com/a2aport/a2aport/internal/filestore"
)

// taskNoticer is the command's WorkStore: filestore's folder under the user cache directory
// (a2aport/works, a file per running Work, deleted when it ends), which also tells onTask once
// when the agent names a Work's task: the adapter's events never carry the remote ids.
type taskNoticer struct {
	*filestore.WorkStore
	onTask func(adapter.WorkRecord)
	told   sync.Map // work id → struct{}
}

func newTaskNoticer(onTask func(adapter.WorkRecord)) (*taskNoticer, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return nil, err
	}
	store, err := filestore.NewWorkStore(filepath.Join(dir, "a2aport", "works"))
	if err != nil {
		return nil, err
	}
	return &taskNoticer{WorkStore: store, onTask: onTask}, nil
}

// Set implements adapter.WorkStore.
func (s *taskNoticer) Set(ctx context.Context, rec adapter.WorkRecord) error {
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
