package a2aclient

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/a2aport/a2aport"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

func TestProjectWork(t *testing.T) {
	t.Parallel()
	ok := a2aport.Work{ID: "w", OwnerID: "o", Instruction: "do"}
	tests := []struct {
		name string
		work a2aport.Work
		want error
	}{
		{"complete", ok, nil},
		{"empty", a2aport.Work{}, a2aport.ErrInvalidWork},
		{"no owner", a2aport.Work{ID: "w", Instruction: "do"}, a2aport.ErrInvalidWork},
		{"no input", a2aport.Work{ID: "w", OwnerID: "o", Instruction: "  "}, a2aport.ErrInvalidWork},
		{"files only", a2aport.Work{ID: "w", OwnerID: "o", InputParts: []a2aport.InputPart{{Type: "file", URL: "https://x.test/a"}}}, nil},
		{"bad continuity", a2aport.Work{ID: "w", OwnerID: "o", Instruction: "do", Continuity: "shared"}, a2aport.ErrInvalidWork},
		{"bad part type", a2aport.Work{ID: "w", OwnerID: "o", Instruction: "do", InputParts: []a2aport.InputPart{{Type: "image", URL: "https://x.test/a"}}}, a2aport.ErrInvalidWork},
		{"file scheme", a2aport.Work{ID: "w", OwnerID: "o", Instruction: "do", InputParts: []a2aport.InputPart{{URL: "file:///etc/passwd"}}}, a2aport.ErrInvalidWork},
		{"bad base64", a2aport.Work{ID: "w", OwnerID: "o", Instruction: "do", InputParts: []a2aport.InputPart{{URL: "data:text/plain;base64,@@@"}}}, a2aport.ErrInvalidWork},
	}
	for _, tc := range tests {
		_, err := projectWork(tc.work)
		if (tc.want == nil) != (err == nil) || (tc.want != nil && !errors.Is(err, tc.want)) {
			t.Errorf("%s: projectWork() = %v, want %v", tc.name, err, tc.want)
		}
	}
	if _, err := projectWork(a2aport.Work{}); err == nil || !strings.Contains(err.Error(), "requires task id, owner and input") {
		t.Errorf("projectWork({}) = %v, want the contract's message", err)
	}
}

func TestOutgoingMessage(t *testing.T) {
	t.Parallel()
	w := a2aport.Work{ID: "w", OwnerID: "o", Instruction: "describe", InputParts: []a2aport.InputPart{
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
	want := []a2aport.Part{
		{Type: a2aport.PartText, Text: "describe"},
		{Type: a2aport.PartRaw, Raw: []byte("hello"), MediaType: "text/plain", Filename: "a.txt"},
		{Type: a2aport.PartRaw, Raw: []byte("hi there"), MediaType: "text/markdown"},
		{Type: a2aport.PartURL, URL: "https://files.test/r.pdf", MediaType: defaultMIME, Filename: "r.pdf"},
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
	tests := map[a2a.TaskState]a2aport.WorkState{
		a2a.TaskStateSubmitted:     a2aport.StateSubmitted,
		a2a.TaskStateWorking:       a2aport.StateWorking,
		a2a.TaskStateUnspecified:   a2aport.StateWorking,
		"TASK_STATE_SOMETHING_NEW": a2aport.StateWorking,
		a2a.TaskStateCompleted:     a2aport.StateCompleted,
		a2a.TaskStateFailed:        a2aport.StateFailed,
		a2a.TaskStateRejected:      a2aport.StateRejected,
		a2a.TaskStateCanceled:      a2aport.StateCancelled,
		a2a.TaskStateInputRequired: a2aport.StateInputRequired,
		a2a.TaskStateAuthRequired:  a2aport.StateAuthRequired,
	}
	for in, want := range tests {
		if got := workState(in); got != want {
			t.Errorf("workState(%q) = %q, want %q", in, got, want)
		}
	}
}
