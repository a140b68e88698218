package a2aclient

import (
	"context"

	"github.com/a2aport/a2aport"
)

// record writes the Work's record when it changed (the remote task became known, or the state
// moved). A store that fails costs the Work its durability, not its outcome: the Work goes on.
func (r *run) record() {
	store := r.a.s.WorkStore
	if store == nil {
		return
	}
	r.mu.Lock()
	rec := a2aport.WorkRecord{WorkID: r.work.ID, OwnerID: r.work.OwnerID, RemoteTaskID: string(r.remoteTask), RemoteContextID: r.contextID, State: r.state}
	r.mu.Unlock()
	if !r.sentMessage() || rec == r.recorded {
		return
	}
	r.recorded = rec
	_ = store.Set(context.WithoutCancel(r.ctx), rec) // best-effort: see above
}

// forget deletes the Work's record once it ended.
func (r *run) forget() {
	if r.a.s.WorkStore == nil || r.recorded.WorkID == "" {
		return
	}
	_ = r.a.s.WorkStore.Delete(context.WithoutCancel(r.ctx), r.work.ID) // best-effort, as record
}
