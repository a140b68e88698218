package facade

import (
	"context"
	"encoding/json"
	"iter"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
)

// scriptExecutor makes a new task and yields script's events after it, one a2asrv event each or
// folded into the first task (emitter).
type scriptExecutor struct {
	script func(ec *a2asrv.ExecutorContext) []a2a.Event
	fold   bool
}

func (x scriptExecutor) Execute(_ context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		task := a2a.NewSubmittedTask(ec, ec.Message)
		if !x.fold {
			if !yield(task, nil) {
				return
			}
			for _, ev := range x.script(ec) {
				if !yield(ev, nil) {
					return
				}
			}
			return
		}
		em := &emitter{yield: yield, first: task}
		for _, ev := range x.script(ec) {
			if !em.emit(ev, nil) {
				return
			}
		}
		em.flush()
	}
}

func (scriptExecutor) Cancel(context.Context, *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(func(a2a.Event, error) bool) {}
}

// TestFoldedTaskIsTheStoredTask: a task whose events are folded into its first event is the task
// a2asrv stores from the same events yielded one by one (with the facade's task store), for
// statuses with and without messages, new, appended and replaced artifacts, and each way a task
// ends or stops.
func TestFoldedTaskIsTheStoredTask(t *testing.T) {
	say := func(ec *a2asrv.ExecutorContext, id, text string) *a2a.Message {
		m := a2a.NewMessageForTask(a2a.MessageRoleAgent, ec, a2a.NewTextPart(text))
		m.ID = id
		return m
	}
	status := func(ec *a2asrv.ExecutorContext, state a2a.TaskState, m *a2a.Message) a2a.Event {
		ev := a2a.NewStatusUpdateEvent(ec, state, m)
		ev.Status.Timestamp = nil
		return ev
	}
	artifact := func(ec *a2asrv.ExecutorContext, id string, parts ...*a2a.Part) a2a.Event {
		ev := a2a.NewArtifactEvent(ec, parts...)
		ev.Artifact.ID, ev.Artifact.Name = a2a.ArtifactID(id), id+".md"
		return ev
	}
	appendTo := func(ec *a2asrv.ExecutorContext, id string, parts ...*a2a.Part) a2a.Event {
		return a2a.NewArtifactUpdateEvent(ec, a2a.ArtifactID(id), parts...)
	}
	text := a2a.NewTextPart
	for name, script := range map[string]func(ec *a2asrv.ExecutorContext) []a2a.Event{
		"nothing but the end": func(ec *a2asrv.ExecutorContext) []a2a.Event {
			return []a2a.Event{status(ec, a2a.TaskStateCompleted, nil)}
		},
		"streamed answer": func(ec *a2asrv.ExecutorContext) []a2a.Event {
			return []a2a.Event{
				status(ec, a2a.TaskStateWorking, say(ec, "m1", "thinking")),
				artifact(ec, "answer", text("Hel")), appendTo(ec, "answer", text("lo, ")),
				artifact(ec, "figures", a2a.NewDataPart(map[string]any{"n": float64(3)})),
				appendTo(ec, "answer", text("world"), a2a.NewRawPart([]byte{1, 2})),
				appendTo(ec, "answer", a2a.NewRawPart([]byte{3})),
				status(ec, a2a.TaskStateWorking, nil),
				status(ec, a2a.TaskStateWorking, say(ec, "m2", "nearly")),
				status(ec, a2a.TaskStateCompleted, say(ec, "m3", "done")),
			}
		},
		"artifact replaced": func(ec *a2asrv.ExecutorContext) []a2a.Event {
			return []a2a.Event{artifact(ec, "a", text("draft")), artifact(ec, "a", text("final")),
				status(ec, a2a.TaskStateCompleted, nil)}
		},
		"a question": func(ec *a2asrv.ExecutorContext) []a2a.Event {
			return []a2a.Event{artifact(ec, "a", text("so far")), status(ec, a2a.TaskStateInputRequired, say(ec, "q", "which one?"))}
		},
		"failed": func(ec *a2asrv.ExecutorContext) []a2a.Event {
			return []a2a.Event{status(ec, a2a.TaskStateWorking, say(ec, "m1", "trying")), status(ec, a2a.TaskStateFailed, say(ec, "f", "no"))}
		},
	} {
		t.Run(name, func(t *testing.T) {
			var got [2]string
			for i, fold := range []bool{false, true} {
				h := a2asrv.NewHandler(scriptExecutor{script: script, fold: fold}, a2asrv.WithTaskStore(newMemStore(Limits{}.withDefaults())))
				ctx := asUser("alice")
				msg := a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("go"))
				msg.ID = "request"
				res, err := h.SendMessage(ctx, &a2a.SendMessageRequest{Message: msg})
				if err != nil {
					t.Fatal(err)
				}
				task, ok := res.(*a2a.Task)
				if !ok {
					t.Fatalf("SendMessage() = %T, want a task", res)
				}
				stored, err := h.GetTask(ctx, &a2a.GetTaskRequest{ID: task.ID})
				if err != nil {
					t.Fatal(err)
				}
				got[i] = anonymous(t, stored)
			}
			if got[0] != got[1] {
				t.Errorf("the task of events one by one:\n%s\nfolded:\n%s", got[0], got[1])
			}
		})
	}
}

// anonymous is task as JSON without what differs between two runs of the same script: its ids.
func anonymous(t *testing.T, task *a2a.Task) string {
	t.Helper()
	out, err := json.Marshal(task)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{string(task.ID), task.ContextID} {
		out = []byte(strings.ReplaceAll(string(out), id, "ID"))
	}
	return string(out)
}
