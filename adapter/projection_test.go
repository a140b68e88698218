package adapter

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

func TestProjectWork(t *testing.T) {
	t.Parallel()
	ok := Work{ID: "w", OwnerID: "o", Instruction: "do"}
	tests := []struct {
		name string
		work Work
		want error
	}{
		{"complete", ok, nil},
		{"empty", Work{}, ErrInvalidWork},
		{"no owner", Work{ID: "w", Instruction: "do"}, ErrInvalidWork},
		{"no input", Work{ID: "w", OwnerID: "o", Instruction: "  "}, ErrInvalidWork},
		{"files only", Work{ID: "w", OwnerID: "o", InputParts: []InputPart{{Type: "file", URL: "https://x.test/a"}}}, nil},
		{"bad continuity", Work{ID: "w", OwnerID: "o", Instruction: "do", Continuity: "shared"}, ErrInvalidWork},
		{"bad part type", Work{ID: "w", OwnerID: "o", Instruction: "do", InputParts: []InputPart{{Type: "image", URL: "https://x.test/a"}}}, ErrInvalidWork},
		{"file scheme", Work{ID: "w", OwnerID: "o", Instruction: "do", InputParts: []InputPart{{URL: "file:///etc/passwd"}}}, ErrInvalidWork},
		{"bad base64", Work{ID: "w", OwnerID: "o", Instruction: "do", InputParts: []InputPart{{URL: "data:text/plain;base64,@@@"}}}, ErrInvalidWork},
	}
	for _, tc := range tests {
		_, err := projectWork(tc.work)
		if (tc.want == nil) != (err == nil) || (tc.want != nil && !errors.Is(err, tc.want)) {
			t.Errorf("%s: projectWork() = %v, want %v", tc.name, err, tc.want)
		}
	}
	if _, err := projectWork(Work{}); err == nil || !strings.Contains(err.Error(), "requires task id, owner and input") {
		t.Errorf("projectWork({}) = %v, want the contract's message", err)
	}
}

func TestOutgoingMessage(t *testing.T) {
	t.Parallel()
	w := Work{ID: "w", OwnerID: "o", Instruction: "describe", InputParts: []InputPart{
		{Type: "file", URL: "data:text/plain;base64,aGVsbG8=", Filename: "a.txt"},
		{Type: "file", URL: "data:,hi%20there", MIME: "text/markdown"},
		{Type: "file", URL: "https://files.test/r.pdf", Filename: "r.pdf"},
	}}
	parts, err := projectWork(w)
	if err != nil {
		t.Fatal(err)
	}
	msg := outgoingMessage(parts, "ctx-1")
	if msg.Role != a2a.MessageRoleUser || msg.ID == "" || msg.ContextID != "ctx-1" || msg.TaskID != "" {
		t.Fatalf("outgoingMessage() header = role %q id %q ctx %q task %q", msg.Role, msg.ID, msg.ContextID, msg.TaskID)
	}
	got := convertParts(msg.Parts)
	want := []Part{
		{Type: PartText, Text: "describe"},
		{Type: PartRaw, Raw: []byte("hello"), MediaType: "text/plain", Filename: "a.txt"},
		{Type: PartRaw, Raw: []byte("hi there"), MediaType: "text/markdown"},
		{Type: PartURL, URL: "https://files.test/r.pdf", MediaType: defaultMIME, Filename: "r.pdf"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("outgoingMessage() parts = %+v, want %+v", got, want)
	}
	if other := outgoingMessage(parts, ""); other.ID == msg.ID {
		t.Errorf("two messages share id %q; every message needs a fresh id", msg.ID)
	}
}

func TestWorkState(t *testing.T) {
	t.Parallel()
	tests := map[a2a.TaskState]WorkState{
		a2a.TaskStateSubmitted:     StateSubmitted,
		a2a.TaskStateWorking:       StateWorking,
		a2a.TaskStateUnspecified:   StateWorking,
		"TASK_STATE_SOMETHING_NEW": StateWorking,
		a2a.TaskStateCompleted:     StateCompleted,
		a2a.TaskStateFailed:        StateFailed,
		a2a.TaskStateRejected:      StateRejected,
		a2a.TaskStateCanceled:      StateCancelled,
		a2a.TaskStateInputRequired: StateInputRequired,
		a2a.TaskStateAuthRequired:  StateAuthRequired,
	}
	for in, want := range tests {
		if got := workState(in); got != want {
			t.Errorf("workState(%q) = %q, want %q", in, got, want)
		}
	}
}
