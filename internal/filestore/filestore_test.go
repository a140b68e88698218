package filestore

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/a2aport/a2aport"
)

func TestWorkStore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "works")
	s, err := NewWorkStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	rec := a2aport.WorkRecord{WorkID: "../../etc/passwd", OwnerID: "alice", RemoteTaskID: "t1", State: a2aport.StateWorking}
	if err := s.Set(ctx, rec); err != nil {
		t.Fatal(err)
	}
	// A second store on the folder (the next process) reads it back; the id never became a path.
	again, _ := NewWorkStore(dir)
	got, ok, err := again.Get(ctx, rec.WorkID)
	if err != nil || !ok || got != rec {
		t.Fatalf("Get() = %+v, %v, %v; want %+v", got, ok, err, rec)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("the folder holds %d files, want 1", len(entries))
	}
	if list, err := again.List(ctx); err != nil || len(list) != 1 || list[0] != rec {
		t.Errorf("List() = %+v, %v", list, err)
	}
	if err := again.Delete(ctx, rec.WorkID); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.Get(ctx, rec.WorkID); ok {
		t.Error("a deleted record is still there")
	}
	if err := s.Delete(ctx, "never-there"); err != nil {
		t.Errorf("Delete() of nothing = %v", err)
	}
}
