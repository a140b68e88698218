package a2aclient

import (
	"context"
	"strings"
	"testing"

	"github.com/a2aport/a2aport"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/a2aport/a2aport/internal/credentials"
)

// FuzzApply projects arbitrary sequences of A2A events (tasks, status and artifact updates,
// messages, over two remote tasks and contexts) the way a turn does, and checks the projection's
// invariants: the turn ends at most once, no event or outcome shows a remote id, every event names
// the Work, an artifact event never repeats the previous one of its artifact, and a delta takes
// that previous content exactly to the new one.
func FuzzApply(f *testing.F) {
	f.Add([]byte{0, 2, 2, 6, 1, 3})                   // task, two chunks, a status, a message
	f.Add([]byte{2, 2, 2, 2, 0, 2, 1})                // chunks, a snapshot, more chunks, done
	f.Add([]byte{1, 9, 2, 10, 2, 14, 0, 1, 1, 5})     // input states, other tasks and contexts
	f.Add([]byte{3, 3, 0, 4, 2, 2, 2, 2, 2, 2, 1, 1}) // messages first, then a long stream
	f.Fuzz(func(t *testing.T, script []byte) {
		var events []a2aport.Event
		r := fuzzRun(func(ev a2aport.Event) { events = append(events, ev) })
		var out a2aport.Outcome
		var err error
		for i := 0; i < len(script); i++ {
			var next turnNext
			if next, out, err = r.apply(scriptEvent(script, &i)); next != turnContinue {
				break
			}
		}
		for _, text := range append(eventTexts(events), out.Content, errText(err)) {
			if strings.Contains(text, "remote-") {
				t.Fatalf("a remote id reached the frontend: %q", text)
			}
		}
		shown := map[string]string{}
		for _, ev := range events {
			if ev.WorkID != "work" || ev.OwnerID != "owner" {
				t.Fatalf("event %+v does not name the Work", ev)
			}
			if ev.Type != a2aport.EventArtifact {
				continue
			}
			text := joinedText(ev.Artifact.Parts)
			before, seen := shown[ev.Artifact.ID]
			if seen && text == before {
				t.Fatalf("artifact %s: an event repeats %q", ev.Artifact.ID, text)
			}
			if ev.Delta != nil {
				want := before + ev.Delta.Text + joinedText(ev.Delta.Parts)
				if text != want {
					t.Fatalf("artifact %s: delta %+v takes %q to %q, the event shows %q", ev.Artifact.ID, ev.Delta, before, want, text)
				}
			}
			shown[ev.Artifact.ID] = text
		}
	})
}

// fuzzRun is a run of a Work "work" of owner "owner" whose events go to onEvent.
func fuzzRun(onEvent func(a2aport.Event)) *run {
	s, err := validate(a2aport.Options{AgentCardURL: "http://127.0.0.1:1/card"}, nil)
	if err != nil {
		panic(err)
	}
	a := &Adapter{s: s, creds: &credentials.Transport{}, runs: map[string]*run{}, listeners: map[int]func(a2aport.Event){}}
	r := &run{a: a, work: a2aport.Work{ID: "work", OwnerID: "owner"}, onEvent: onEvent, state: a2aport.StateSubmitted,
		answeredIDs: map[string]bool{}, done: make(chan struct{}), taskKnown: make(chan struct{}), out: newOutcomeBuilder(nil)}
	r.ctx, r.cancel = context.WithCancelCause(context.Background())
	return r
}

var (
	fuzzStates = []a2a.TaskState{a2a.TaskStateSubmitted, a2a.TaskStateWorking, a2a.TaskStateCompleted, a2a.TaskStateFailed,
		a2a.TaskStateInputRequired, a2a.TaskStateAuthRequired, a2a.TaskStateCanceled, a2a.TaskStateRejected}
	fuzzTexts = []string{"", "a", "bc", "hello ", "wörld", "x\ny"}
)

// scriptEvent decodes the A2A event at script[*i], moving *i past the bytes it used.
func scriptEvent(script []byte, i *int) a2a.Event {
	arg := func() int {
		if *i+1 < len(script) {
			*i++
			return int(script[*i])
		}
		return 0
	}
	op := int(script[*i])
	info := a2a.TaskInfo{TaskID: a2a.TaskID("remote-task-" + string(rune('1'+op>>4&1))), ContextID: "remote-ctx-" + string(rune('1'+op>>5&1))}
	status := func() a2a.TaskStatus {
		st := a2a.TaskStatus{State: fuzzStates[arg()%len(fuzzStates)]}
		if text := fuzzTexts[arg()%len(fuzzTexts)]; text != "" {
			st.Message = a2a.NewMessage(a2a.MessageRoleAgent, a2a.NewTextPart(text))
		}
		return st
	}
	artifact := func() *a2a.Artifact {
		n := arg()
		parts := a2a.ContentParts{a2a.NewTextPart(fuzzTexts[n%len(fuzzTexts)])}
		if n&0x40 != 0 {
			parts = append(parts, a2a.NewTextPart(fuzzTexts[(n>>3)%len(fuzzTexts)]))
		}
		return &a2a.Artifact{ID: a2a.ArtifactID("art-" + string(rune('a'+n>>7))), Parts: parts}
	}
	switch op % 4 {
	case 0:
		task := &a2a.Task{ID: info.TaskID, ContextID: info.ContextID, Status: status()}
		for range arg() % 3 {
			task.Artifacts = append(task.Artifacts, artifact())
		}
		return task
	case 1:
		return &a2a.TaskStatusUpdateEvent{TaskID: info.TaskID, ContextID: info.ContextID, Status: status()}
	case 2:
		ev := &a2a.TaskArtifactUpdateEvent{TaskID: info.TaskID, ContextID: info.ContextID, Artifact: artifact()}
		ev.Append = op&0x8 != 0
		return ev
	default:
		m := a2a.NewMessage(a2a.MessageRoleAgent, a2a.NewTextPart(fuzzTexts[arg()%len(fuzzTexts)]))
		if op&0x8 != 0 {
			m.TaskID, m.ContextID = info.TaskID, info.ContextID
		}
		return m
	}
}

func eventTexts(events []a2aport.Event) []string {
	var out []string
	for _, ev := range events {
		out = append(out, ev.Text)
		if ev.Artifact != nil {
			out = append(out, ev.Artifact.ID, joinedText(ev.Artifact.Parts))
		}
		if ev.Input != nil {
			out = append(out, ev.Input.InputRequestID, ev.Input.Prompt)
		}
	}
	return out
}

func joinedText(parts []a2aport.Part) string {
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
