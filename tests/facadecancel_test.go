package tests

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"

	"github.com/a2aport/a2aport"

	"github.com/a2aport/a2aport/adapter"
	"github.com/a2aport/a2aport/facade"
	"github.com/a2aport/a2aport/internal/testkit/agent"
	"github.com/a2aport/a2aport/internal/testkit/tasktest"
)

// TestFacadeRefusedCancel: the facade serves a Port whose Work does not notice by itself that its
// agent completed the task (a polling agent, PollInterval an hour). A CancelTask through the
// facade reaches the agent, which refuses it: the caller gets TaskNotCancelableError, never a
// cancelled task, and the task ends as it did at the agent, completed with its answer. A caller on
// a2aport's own adapter is told completed by Cancel, and its Work gets the answer.
func TestFacadeRefusedCancel(t *testing.T) {
	t.Parallel()
	inner, err := adapter.New(a2aport.Options{AgentCardURL: server.CardURL(agent.Variants()[1]), PollInterval: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = inner.Close() })
	card := serveFacade(t, inner, facade.Options{Name: "facade"})
	ctx := testContext(t)
	client := a2aClient(ctx, t, card)
	res, err := client.SendMessage(ctx, &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("slow 200 cancelled too late")),
		Config: &a2a.SendMessageConfig{ReturnImmediately: true}})
	if err != nil {
		t.Fatal(err)
	}
	task := res.(*a2a.Task)
	time.Sleep(600 * time.Millisecond) // the agent completes it meanwhile
	got, err := client.CancelTask(ctx, &a2a.CancelTaskRequest{ID: task.ID})
	if !errors.Is(err, a2a.ErrTaskNotCancelable) || !strings.Contains(err.Error(), "completed before it could be cancelled") {
		t.Errorf("CancelTask of a task the agent completed = %+v, %v; want TaskNotCancelableError", got, err)
	}
	final := tasktest.Final(ctx, t, client, task.ID)
	if final.Status.State != a2a.TaskStateCompleted || len(final.Artifacts) == 0 || final.Artifacts[0].Parts[0].Text() != "slow done" {
		t.Errorf("the task after the refused cancel: %s %+v, want completed with its answer", final.Status.State, final.Artifacts)
	}

	outer := newPort(t, implementations[0], a2aport.Options{AgentCardURL: card, PollInterval: a2aport.MinPollInterval})
	w := newWork("olga", "slow 200 cancelled too late, twice removed")
	done := submitAsync(ctx, outer, w, newRecorder())
	for st := outer.Status(w.ID, w.OwnerID).State; st != a2aport.StateSubmitted && st != a2aport.StateWorking; st = outer.Status(w.ID, w.OwnerID).State {
		select { // the agent's task is made: the inner Work never looks at it again, so submitted it stays
		case <-ctx.Done():
			t.Fatalf("the Work never became active (%s)", st)
		case <-time.After(5 * time.Millisecond):
		}
	}
	time.Sleep(600 * time.Millisecond)
	if res, err := outer.Cancel(ctx, w.ID, w.OwnerID); err != nil || res.State != a2aport.StateCompleted {
		t.Errorf("Cancel() through the facade of a Work its agent completed = %+v, %v; want completed", res, err)
	}
	if r := await(ctx, t, done); r.err != nil || !strings.Contains(r.out.Content, "slow done") {
		t.Errorf("the Work = %+v, %v; want its answer", r.out, r.err)
	}
}

// a2aClient is a2a-go's client of the agent whose card is at card.
func a2aClient(ctx context.Context, t *testing.T, card string) *a2aclient.Client {
	t.Helper()
	resolved, err := agentcard.DefaultResolver.Resolve(ctx, strings.TrimSuffix(card, facade.CardPath))
	if err != nil {
		t.Fatal(err)
	}
	client, err := a2aclient.NewFromCard(ctx, resolved)
	if err != nil {
		t.Fatal(err)
	}
	return client
}
