package facade

import (
	"context"
	"encoding/json"
	"iter"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
	"github.com/a2aproject/a2a-go/v2/a2asrv/eventqueue"
	"github.com/a2aproject/a2a-go/v2/a2asrv/taskstore"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/funcport"
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

// quietPort's Works end at once with an artifact and emit nothing, and its Description says they
// may end with a message reply: a new task waits for the Work's end, so what is folded is known.
type quietPort struct{ a2aport.Port }

func (p quietPort) Describe() a2aport.Description {
	d := p.Port.Describe()
	d.Capabilities.MessageReplies = true
	return d
}

func (quietPort) Submit(context.Context, a2aport.Work, ...a2aport.SubmitOption) (a2aport.Outcome, error) {
	return a2aport.Outcome{Content: "done", Artifacts: []a2aport.Artifact{{ID: "a", Parts: []a2aport.Part{{Type: a2aport.PartText, Text: "the answer"}}}}}, nil
}

// countingStore counts the task updates a2asrv stores.
type countingStore struct {
	*memStore
	updates atomic.Int32
}

func (s *countingStore) Update(ctx context.Context, req *taskstore.UpdateRequest) (taskstore.TaskVersion, error) {
	s.updates.Add(1)
	return s.memStore.Update(ctx, req)
}

// TestOnlyBlockingSendsFold: the task of a blocking send is stored once, its events folded; a
// streaming caller gets every event (the task, its artifact, its end), as does a send that returns
// at once and any send in a cluster, and a caller cannot ask for folding by setting the mark itself.
func TestOnlyBlockingSendsFold(t *testing.T) {
	port := funcport.New(func(context.Context, a2aport.Work, *funcport.Turn) (a2aport.Outcome, error) {
		return a2aport.Outcome{}, nil
	}, funcport.Options{Label: "quiet"})
	t.Cleanup(func() { _ = port.Close() })
	message := func(meta map[string]any) *a2a.SendMessageRequest {
		return &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("go")), Metadata: meta}
	}
	blocking := func(ctx context.Context, h a2asrv.RequestHandler) (int, error) {
		_, err := h.SendMessage(ctx, message(nil))
		return 1, err
	}
	for _, c := range []struct {
		name    string
		cluster bool
		send    func(ctx context.Context, h a2asrv.RequestHandler) (events int, err error)
		updates bool
	}{
		{"blocking", false, blocking, false},
		{"blocking, in a cluster", true, blocking, true},
		{"returning at once", false, func(ctx context.Context, h a2asrv.RequestHandler) (int, error) {
			req := message(nil)
			req.Config = &a2a.SendMessageConfig{ReturnImmediately: true}
			_, err := h.SendMessage(ctx, req)
			return 1, err
		}, true},
		{"streaming", false, func(ctx context.Context, h a2asrv.RequestHandler) (n int, err error) {
			for _, err := range h.SendStreamingMessage(ctx, message(nil)) {
				if err != nil {
					return n, err
				}
				n++
			}
			return n, nil
		}, true},
		{"streaming, marked by the caller", false, func(ctx context.Context, h a2asrv.RequestHandler) (n int, err error) {
			for _, err := range h.SendStreamingMessage(ctx, message(map[string]any{foldKey: true})) {
				if err != nil {
					return n, err
				}
				n++
			}
			return n, nil
		}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			store := &countingStore{memStore: newMemStore(Limits{}.withDefaults())}
			exec := newExecutor(quietPort{port})
			if c.cluster { // the cluster's event queues, in memory here
				exec.events = eventqueue.NewInMemoryManager()
			}
			h := a2asrv.NewHandler(exec, a2asrv.WithTaskStore(store), a2asrv.WithCallInterceptors(blockingSends{}))
			ctx := asUser("alice")
			events, err := c.send(ctx, h)
			if err != nil {
				t.Fatal(err)
			}
			deadline := time.Now().Add(10 * time.Second)
			for store.updates.Load() < 2 && c.updates && time.Now().Before(deadline) { // a task that returned at once goes on
				time.Sleep(5 * time.Millisecond)
			}
			if got := store.updates.Load() > 0; got != c.updates {
				t.Errorf("%d task updates after the task was created; want some: %v", store.updates.Load(), c.updates)
			}
			if strings.HasPrefix(c.name, "streaming") && events < 3 {
				t.Errorf("streamed %d events, want the task, its artifact and its end", events)
			}
		})
	}
}
