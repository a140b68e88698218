package facade

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
	"github.com/a2aproject/a2a-go/v2/a2asrv/taskstore"
	"github.com/a2aproject/a2a-go/v2/errordetails"
)

// checkTask answers, before a2asrv does, for a call that names task id, as the caller of ctx sees
// the task: another caller's task or none is TaskNotFoundError in the same words; a message or a
// subscription to a task that has ended is UnsupportedOperationError (A2A §3.1.1, §3.1.6: there
// is nothing left to add to it or to follow), where a2a-go answers invalid params and "not found".
func checkTask(ctx context.Context, tasks taskstore.Store, id a2a.TaskID, continues bool) error {
	stored, err := tasks.Get(ctx, id)
	switch {
	case errors.Is(err, a2a.ErrTaskNotFound):
		return errTaskNotFound
	case err != nil:
		return fmt.Errorf("%w: the task could not be read", a2a.ErrInternalError)
	case continues && stored.Task.Status.State.Terminal():
		return fmt.Errorf("%w: the task is %s: it takes no more messages and has nothing more to stream", a2a.ErrUnsupportedOperation, stored.Task.Status.State)
	}
	return nil
}

// asCaller is ctx as a2asrv's call context carries the caller to the task store, for a store read
// before a2asrv has made one.
func asCaller(ctx context.Context) context.Context {
	ctx, callCtx := a2asrv.NewCallContext(ctx, nil)
	callCtx.User = a2asrv.NewAuthenticatedUser(callerFrom(ctx), nil)
	return ctx
}

// a2aErrors are the errors the facade answers itself, with their JSON-RPC code (§9.5) and their
// HTTP+JSON status and google.rpc status (§11.6).
var a2aErrors = []struct {
	err        error
	code, http int
	status     string
}{
	{a2a.ErrTaskNotFound, -32001, http.StatusNotFound, "NOT_FOUND"},
	{a2a.ErrUnsupportedOperation, -32004, http.StatusBadRequest, "FAILED_PRECONDITION"},
	{a2a.ErrUnauthorized, -31403, http.StatusForbidden, "PERMISSION_DENIED"},
	{a2a.ErrInvalidParams, -32602, http.StatusBadRequest, "INVALID_ARGUMENT"},
	{a2a.ErrInternalError, -32603, http.StatusInternalServerError, "INTERNAL"},
}

// writeA2AError answers err as the binding has A2A errors, before any stream started: a JSON-RPC
// error with the request's id (HTTP 200), or the HTTP status with google.rpc.Status.
func writeA2AError(w http.ResponseWriter, rpc bool, id json.RawMessage, err error) {
	kind := a2aErrors[len(a2aErrors)-1]
	for _, k := range a2aErrors {
		if errors.Is(err, k.err) {
			kind = k
			break
		}
	}
	info := errordetails.NewErrorInfo(a2a.ErrorReason(kind.err), a2a.ProtocolDomain, nil)
	status := kind.http
	var body any
	if rpc {
		if len(id) == 0 {
			id = json.RawMessage("null")
		}
		status = http.StatusOK
		body = map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": kind.code, "message": err.Error(), "data": []any{info}}}
	} else {
		body = map[string]any{"error": map[string]any{"code": status, "status": kind.status, "message": err.Error(), "details": []any{info}}}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body) // the client may be gone; nothing more to do
}
