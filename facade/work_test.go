package facade

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"

	"github.com/a2aport/a2aport"
)

// workOf turns a task's first message into a Work: the texts join into the instruction, data
// objects merge into Input (an "instruction" field stands in for missing text), files go through
// as data: URLs or links when the input modes take them, and a message with nothing, a data part
// that is not an object or a file of another type is refused with the A2A error that says so.
func TestWorkOfMessage(t *testing.T) {
	t.Parallel()
	part := func(c a2a.PartContent, mediaType, filename string) *a2a.Part {
		return &a2a.Part{Content: c, MediaType: mediaType, Filename: filename}
	}
	for _, c := range []struct {
		name    string
		parts   []*a2a.Part
		modes   []string
		want    a2aport.Work
		wantErr error
	}{
		{name: "texts join", parts: []*a2a.Part{a2a.NewTextPart("first"), a2a.NewTextPart("second")},
			want: a2aport.Work{Instruction: "first\nsecond"}},
		{name: "data objects merge, later fields win", parts: []*a2a.Part{a2a.NewDataPart(map[string]any{"a": 1.0, "b": 1.0}), a2a.NewDataPart(map[string]any{"b": 2.0})},
			want: a2aport.Work{Input: map[string]any{"a": 1.0, "b": 2.0}}},
		{name: "an instruction field stands in for missing text", parts: []*a2a.Part{a2a.NewDataPart(map[string]any{"instruction": "from data", "k": "v"})},
			want: a2aport.Work{Instruction: "from data", Input: map[string]any{"k": "v"}}},
		{name: "text wins over an instruction field", parts: []*a2a.Part{a2a.NewTextPart("said"), a2a.NewDataPart(map[string]any{"instruction": "ignored"})},
			want: a2aport.Work{Instruction: "said"}},
		{name: "raw bytes as a data URL", parts: []*a2a.Part{a2a.NewTextPart("see"), part(a2a.Raw("hi"), "text/plain", "a.txt")}, modes: []string{"text/*"},
			want: a2aport.Work{Instruction: "see", InputParts: []a2aport.InputPart{{Type: "file", MIME: "text/plain", Filename: "a.txt", URL: "data:text/plain;base64,aGk="}}}},
		{name: "a link as it is", parts: []*a2a.Part{part(a2a.URL("https://files.example/x.png"), "image/png", "")}, modes: []string{"*/*"},
			want: a2aport.Work{InputParts: []a2aport.InputPart{{Type: "file", MIME: "image/png", URL: "https://files.example/x.png"}}}},
		{name: "nothing to do", parts: nil, wantErr: a2a.ErrInvalidParams},
		{name: "data that is not an object", parts: []*a2a.Part{a2a.NewDataPart([]any{1.0})}, wantErr: a2a.ErrInvalidParams},
		{name: "a file the Port does not take", parts: []*a2a.Part{part(a2a.Raw("x"), "image/png", "p.png")}, modes: []string{"text/plain"},
			wantErr: a2a.ErrUnsupportedContentType},
	} {
		t.Run(c.name, func(t *testing.T) {
			msg := a2a.NewMessage(a2a.MessageRoleUser, c.parts...)
			ec := &a2asrv.ExecutorContext{Message: msg, TaskID: "task-1", ContextID: "ctx-1"}
			got, err := workOf(ec, c.modes)
			if c.wantErr != nil {
				if !errors.Is(err, c.wantErr) {
					t.Fatalf("workOf() error = %v, want %v", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			c.want.ID, c.want.OwnerID = "task-1", ownerOf(ec)
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("workOf() = %+v\nwant %+v", got, c.want)
			}
		})
	}
}

// coalesce merges a run of working statuses and text appends into one append per artifact, in
// the order the artifacts came, and the last status after them; anything else ends the run.
func TestCoalesce(t *testing.T) {
	t.Parallel()
	working := a2aport.Event{Type: a2aport.EventActivity, State: a2aport.StateWorking, Text: "w"}
	appendTo := func(id, text, whole string) a2aport.Event {
		return a2aport.Event{Type: a2aport.EventArtifact, Artifact: &a2aport.Artifact{ID: id, Parts: []a2aport.Part{{Type: a2aport.PartText, Text: whole}}},
			Delta: &a2aport.ArtifactDelta{Text: text}}
	}
	message := a2aport.Event{Type: a2aport.EventMessage, Text: "hello"}
	queue := []a2aport.Event{
		working, appendTo("a", "1", "1"), appendTo("b", "x", "x"), working, appendTo("a", "2", "12"), appendTo("a", "3", "123"),
		message, appendTo("a", "4", "1234"),
	}
	merged, n := coalesce(queue)
	if n != 6 {
		t.Fatalf("coalesce took %d events, want the 6 before the message", n)
	}
	var got []string
	for _, ev := range merged {
		switch ev.Type {
		case a2aport.EventArtifact:
			got = append(got, ev.Artifact.ID+"+"+ev.Delta.Text+"="+ev.Artifact.Parts[0].Text)
		default:
			got = append(got, string(ev.State))
		}
	}
	if want := "a+123=123 b+x=x working"; strings.Join(got, " ") != want {
		t.Errorf("coalesce = %q, want %q", strings.Join(got, " "), want)
	}
	if one, n := coalesce(queue[6:]); n != 1 || one[0].Type != a2aport.EventMessage {
		t.Errorf("a message first: coalesce = %+v (%d), want it alone", one, n)
	}
}
