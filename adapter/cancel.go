package adapter

import "context"

// Cancel implements Port.
func (a *Adapter) Cancel(ctx context.Context, workID, ownerID string) (CancelResult, error) {
	a.mu.Lock()
	r, ok := a.runs[workID]
	a.mu.Unlock()
	if !ok {
		return CancelResult{State: StateNotFound}, nil
	}
	if r.work.OwnerID != ownerID {
		return CancelResult{}, newError(CodeWorkNotFound, "work %q is not active for this owner", workID)
	}
	return a.cancelRun(ctx, r)
}

// cancelRun aborts the run locally at once, then asks the agent to cancel the remote task if
// its id is known (before that, the local abort is all there is to do).
func (a *Adapter) cancelRun(ctx context.Context, r *run) (CancelResult, error) {
	if !r.stop(errCancelled) {
		return CancelResult{State: StateNotFound}, nil
	}
	r.cancelRemote(ctx)
	return CancelResult{TaskID: r.work.ID, State: StateCancelled}, nil
}
