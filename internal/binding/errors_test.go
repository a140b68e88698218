package binding

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// TestErrorDataAnyShape: a JSON-RPC error keeps its code and message whatever its data holds,
// and an HTTP+JSON error its message whatever its details are; an object's members are the
// error's details.
func TestErrorDataAnyShape(t *testing.T) {
	t.Parallel()
	for name, data := range map[string]string{
		"object": `{"taskId":"t-1"}`, "string": `"gone"`, "number": `7`, "null": `null`, "bool": `true`,
		"array of typed": `[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","domain":"a2a-protocol.org","metadata":{"k":"v"}}]`,
		"array of junk":  `[1, "two", {"no":"type"}]`,
	} {
		var resp rpcResponse
		if err := json.Unmarshal([]byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"Task not found","data":`+data+`}}`), &resp); err != nil {
			t.Errorf("%s: the answer is not read: %v", name, err)
			continue
		}
		err := resp.Error.a2aError()
		var a2aErr *a2a.Error
		if !errors.Is(err, a2a.ErrTaskNotFound) || !errors.As(err, &a2aErr) || a2aErr.Message != "Task not found" {
			t.Errorf("%s: %v, want task not found in the agent's words", name, err)
		}
		if name == "object" && a2aErr != nil && a2aErr.Details["taskId"] != "t-1" {
			t.Errorf("object: details %v, want the object's members", a2aErr.Details)
		}
	}
	var body struct {
		Error statusBody `json:"error"`
	}
	if err := json.Unmarshal([]byte(`{"error":{"code":404,"status":"NOT_FOUND","message":"Task not found","details":{"taskId":"t-1"}}}`), &body); err != nil {
		t.Fatalf("an HTTP+JSON error with an object of details is not read: %v", err)
	}
	var a2aErr *a2a.Error
	if err := body.Error.a2aError(); !errors.As(err, &a2aErr) || a2aErr.Message != "Task not found" || a2aErr.Details["taskId"] != "t-1" {
		t.Errorf("HTTP+JSON: %v, want the message and the object's members as details", err)
	}
}
