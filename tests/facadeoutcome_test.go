package tests

import (
	"context"
	"reflect"
	"slices"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/facade"
)

// outcomePort is a Port whose Works end with a fixed outcome, after the events of emit (none by
// default). Everything else is the wrapped Port's.
type outcomePort struct {
	a2aport.Port
	out  a2aport.Outcome
	emit []a2aport.Event
}

func (p outcomePort) Submit(_ context.Context, w a2aport.Work, opts ...a2aport.SubmitOption) (a2aport.Outcome, error) {
	on := a2aport.ApplySubmitOptions(opts...).OnEvent
	for _, ev := range p.emit {
		ev.WorkID, ev.OwnerID = w.ID, w.OwnerID
		if on != nil {
			on(ev)
		}
	}
	return p.out, nil
}

// TestFacadeOutcome: what a Port's Work returns is the task's result, whether the Port emitted
// nothing on the way or only part of it: the content becomes the final status's message, every
// artifact is on the task. Read with a2a-go's client and with a2aport's adapter.
func TestFacadeOutcome(t *testing.T) {
	t.Parallel()
	report := a2aport.Artifact{ID: "report", Name: "report.md", Parts: []a2aport.Part{{Type: a2aport.PartText, Text: "# Report\nall good"}}}
	data := a2aport.Artifact{ID: "figures", Name: "figures", Parts: []a2aport.Part{{Type: a2aport.PartData, Data: map[string]any{"n": float64(3)}}}}
	out := a2aport.Outcome{Content: "Finished the report.\n\n# Report\nall good", Artifacts: []a2aport.Artifact{report, data}}
	early := report
	early.Parts = []a2aport.Part{{Type: a2aport.PartText, Text: "# Report\n"}}
	for _, tc := range []struct {
		name string
		emit []a2aport.Event
	}{
		{"no events", nil},
		{"part of it", []a2aport.Event{{Type: a2aport.EventActivity, State: a2aport.StateWorking, Text: "writing"}, {Type: a2aport.EventArtifact, Artifact: &early}}},
		{"all of it", []a2aport.Event{{Type: a2aport.EventArtifact, Artifact: &report}, {Type: a2aport.EventArtifact, Artifact: &data}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := testContext(t)
			card := serveFacade(t, outcomePort{Port: innerPort(t), out: out, emit: tc.emit}, facade.Options{Name: "facade"})

			client := a2aClient(ctx, t, card)
			defer func() { _ = client.Destroy() }()
			res, err := client.SendMessage(ctx, &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("write it"))})
			if err != nil {
				t.Fatal(err)
			}
			task, ok := res.(*a2a.Task)
			if !ok || task.Status.State != a2a.TaskStateCompleted {
				t.Fatalf("SendMessage() = %+v, want a completed task", res)
			}
			if task.Status.Message == nil || len(task.Status.Message.Parts) != 1 || task.Status.Message.Parts[0].Text() != "Finished the report." {
				t.Errorf("final status message = %+v, want the content without the artifact's text", task.Status.Message)
			}
			names := map[string]string{}
			for _, a := range task.Artifacts {
				names[string(a.ID)] = a.Name
			}
			if !reflect.DeepEqual(names, map[string]string{"report": "report.md", "figures": "figures"}) {
				t.Errorf("the task's artifacts are %v, want report.md and figures", names)
			}

			p := newPort(t, implementations[0], a2aport.Options{AgentCardURL: card})
			got, err := p.Submit(ctx, newWork("alice", "write it"))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, out) {
				t.Errorf("through the facade: %+v\nwant %+v", got, out)
			}
		})
	}
}

// TestFacadeQuickWork: a Work that ended before its task was first shown (here a Port whose agent
// may answer with a message, so the task waits for the Work's first sign of one). A blocking caller
// gets the task as it ended (its events folded into one update: facade/firsttask_test.go); a
// streaming caller gets every event, the task first and the artifact as an update, as clients that
// read a stream's updates alone expect. Both are what a2aport's adapter reads.
func TestFacadeQuickWork(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	report := a2aport.Artifact{ID: "report", Name: "report.md", Parts: []a2aport.Part{{Type: a2aport.PartText, Text: "# Report\nall good"}}}
	out := a2aport.Outcome{Content: "Finished.\n\n# Report\nall good", Artifacts: []a2aport.Artifact{report}}
	inner := innerPort(t)
	if !inner.Describe().Capabilities.MessageReplies {
		t.Fatal("the inner Port does not say its Works may end with a message reply")
	}
	card := serveFacade(t, outcomePort{Port: inner, out: out,
		emit: []a2aport.Event{{Type: a2aport.EventMessage, Text: "on it"}}}, facade.Options{Name: "facade"})
	client := a2aClient(ctx, t, card)
	defer func() { _ = client.Destroy() }()
	send := func() *a2a.SendMessageRequest {
		return &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("write it"))}
	}
	res, err := client.SendMessage(ctx, send())
	if err != nil {
		t.Fatal(err)
	}
	task, ok := res.(*a2a.Task)
	if !ok || task.Status.State != a2a.TaskStateCompleted || len(task.Artifacts) != 1 || task.Artifacts[0].Name != "report.md" {
		t.Fatalf("SendMessage() = %+v, want the completed task with its report", res)
	}
	if len(task.History) != 2 || task.History[1].Parts[0].Text() != "on it" {
		t.Errorf("history = %+v, want the request and the agent's message", task.History)
	}
	var events []a2a.Event
	for ev, err := range client.SendStreamingMessage(ctx, send()) {
		if err != nil {
			t.Fatal(err)
		}
		events = append(events, ev)
	}
	first, isTask := events[0].(*a2a.Task)
	updated := slices.ContainsFunc(events, func(ev a2a.Event) bool {
		up, ok := ev.(*a2a.TaskArtifactUpdateEvent)
		return ok && up.Artifact.Name == "report.md"
	})
	if !isTask || first.Status.State != a2a.TaskStateSubmitted || len(first.Artifacts) != 0 || !updated {
		t.Errorf("streamed %+v, want the submitted task, then the report as an update", events)
	}
	for _, impl := range implementations {
		got, err := newPort(t, impl, a2aport.Options{AgentCardURL: card}).Submit(ctx, newWork("alice", "write it"))
		if err != nil || !reflect.DeepEqual(got, out) {
			t.Errorf("%s through the facade: %+v, %v\nwant %+v", impl.name, got, err, out)
		}
	}
}
