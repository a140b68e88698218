package tests

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2aport/a2aport"

	"github.com/a2aport/a2aport/adapter"
	"github.com/a2aport/a2aport/facade"
	"github.com/a2aport/a2aport/facade/pgcluster"
	"github.com/a2aport/a2aport/internal/testkit/agent"
	"github.com/a2aport/a2aport/internal/testkit/pgtest"
)

// facadeNodes serves the test agent, through a2aport's adapter, behind n facades authenticating
// callers by bearer token. In memory there is one node (n must be 1); in cluster mode every node
// shares one PostgreSQL database (tasks, events, work and the adapter's Work records). It returns
// each node's card URL.
func facadeNodes(t *testing.T, cluster bool, n int) []string {
	t.Helper()
	return facadeNodesOf(t, cluster, n, func(_ int, p a2aport.Port) a2aport.Port { return p })
}

// facadeNodesOf is facadeNodes with the Port of node i made by wrap from its adapter.
func facadeNodesOf(t *testing.T, cluster bool, n int, wrap func(i int, p a2aport.Port) a2aport.Port) []string {
	t.Helper()
	dsn := ""
	if cluster {
		dsn = pgtest.Start(t)
	}
	cards := make([]string, n)
	for i := range cards {
		opts := a2aport.Options{AgentCardURL: server.CardURL(agent.Variants()[0])}
		fo := facade.Options{Name: "facade", Authenticate: bearerCaller}
		if cluster {
			c := clusterNode(t, dsn, fmt.Sprintf("node-%d", i+1))
			cfg := c.Config()
			fo.Cluster = &cfg
			opts.WorkStore = c.WorkStore()
		} else {
			// Push notifications need tasks in memory: there the push-config calls are served, so
			// what the isolation test sees of them is the caller check, not "not supported".
			fo.Push = &facade.PushOptions{}
		}
		inner, err := adapter.New(opts)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = inner.Close() })
		cards[i] = serveFacade(t, wrap(i, inner), fo)
	}
	return cards
}

// clusterNode is one node of a cluster on the database at dsn, named name, with a pool of its
// own, as in a process of its own (each node's listeners hold connections); closed when the test ends.
func clusterNode(t *testing.T, dsn, name string) *pgcluster.Cluster {
	t.Helper()
	pool, err := pgxpool.New(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	c, err := pgcluster.New(testContext(t), pool, name, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// callerClient is a2a-go's client for the caller of token on the facade's interface of version and
// binding (0.3 through a2a-go's compat transports).
func callerClient(ctx context.Context, t *testing.T, card, version, binding, token string) *a2aclient.Client {
	t.Helper()
	resolved, err := (&agentcard.Resolver{CardParser: a2av0.NewAgentCardParser()}).Resolve(ctx, strings.TrimSuffix(card, facade.CardPath))
	if err != nil {
		t.Fatal(err)
	}
	only := *resolved
	only.SupportedInterfaces = nil
	for _, iface := range resolved.SupportedInterfaces {
		if string(iface.ProtocolBinding) == binding && strings.HasPrefix(string(iface.ProtocolVersion), version) {
			only.SupportedInterfaces = []*a2a.AgentInterface{iface}
		}
	}
	if len(only.SupportedInterfaces) != 1 {
		t.Fatalf("the facade's card has no %s %s interface", binding, version)
	}
	hc := &http.Client{Transport: bearer{token}}
	c, err := a2aclient.NewFactory(a2aclient.WithDefaultsDisabled(),
		a2aclient.WithJSONRPCTransport(hc), a2aclient.WithRESTTransport(hc),
		a2av0.WithJSONRPCTransport(a2av0.JSONRPCTransportConfig{Client: hc}),
		a2av0.WithRESTTransport(a2av0.RESTTransportConfig{Client: hc}),
	).CreateFromCard(ctx, &only)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Destroy() })
	return c
}

// taskCall is one call of a caller that names a task.
type taskCall struct {
	name string
	v03  bool // the call exists in A2A 0.3 too
	call func(ctx context.Context, c *a2aclient.Client, id a2a.TaskID) (events int, err error)
}

// firstError runs a stream and returns how many events it yielded before its first error.
func firstError(stream func(yield func(a2a.Event, error) bool)) (events int, err error) {
	for ev, err := range stream {
		if err != nil {
			return events, err
		}
		if ev != nil {
			events++
		}
	}
	return events, nil
}

func answering(id a2a.TaskID) *a2a.SendMessageRequest {
	m := a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("an answer from a stranger"))
	m.TaskID = id
	return &a2a.SendMessageRequest{Message: m}
}

var taskCalls = []taskCall{
	{"GetTask", true, func(ctx context.Context, c *a2aclient.Client, id a2a.TaskID) (int, error) {
		_, err := c.GetTask(ctx, &a2a.GetTaskRequest{ID: id})
		return 0, err
	}},
	{"CancelTask", true, func(ctx context.Context, c *a2aclient.Client, id a2a.TaskID) (int, error) {
		_, err := c.CancelTask(ctx, &a2a.CancelTaskRequest{ID: id})
		return 0, err
	}},
	{"SubscribeToTask", true, func(ctx context.Context, c *a2aclient.Client, id a2a.TaskID) (int, error) {
		return firstError(c.SubscribeToTask(ctx, &a2a.SubscribeToTaskRequest{ID: id}))
	}},
	{"SendMessage", true, func(ctx context.Context, c *a2aclient.Client, id a2a.TaskID) (int, error) {
		_, err := c.SendMessage(ctx, answering(id))
		return 0, err
	}},
	{"SendStreamingMessage", true, func(ctx context.Context, c *a2aclient.Client, id a2a.TaskID) (int, error) {
		return firstError(c.SendStreamingMessage(ctx, answering(id)))
	}},
	{"GetTaskPushConfig", true, func(ctx context.Context, c *a2aclient.Client, id a2a.TaskID) (int, error) {
		_, err := c.GetTaskPushConfig(ctx, &a2a.GetTaskPushConfigRequest{TaskID: id, ID: "config"})
		return 0, err
	}},
	{"ListTaskPushConfigs", true, func(ctx context.Context, c *a2aclient.Client, id a2a.TaskID) (int, error) {
		_, err := c.ListTaskPushConfigs(ctx, &a2a.ListTaskPushConfigRequest{TaskID: id})
		return 0, err
	}},
	{"CreateTaskPushConfig", true, func(ctx context.Context, c *a2aclient.Client, id a2a.TaskID) (int, error) {
		_, err := c.CreateTaskPushConfig(ctx, &a2a.PushConfig{TaskID: id, ID: "config", URL: "http://127.0.0.1:1/hook"})
		return 0, err
	}},
	{"DeleteTaskPushConfig", true, func(ctx context.Context, c *a2aclient.Client, id a2a.TaskID) (int, error) {
		return 0, c.DeleteTaskPushConfig(ctx, &a2a.DeleteTaskPushConfigRequest{TaskID: id, ID: "config"})
	}},
}

// TestFacadeIsolation: caller bob names a running task of caller alice in every call that names a
// task, over each of the facade's interfaces, in memory and in cluster mode (two nodes on one
// PostgreSQL: alice on one, bob on the other). Each call is answered as for an id nobody used
// (the same error, in the same words), nothing of alice's task reaches bob, and alice's task runs
// on untouched until alice cancels it.
func TestFacadeIsolation(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"memory", "cluster"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			cluster := mode == "cluster"
			nodes := 1
			if cluster {
				nodes = 2
			}
			cards := facadeNodes(t, cluster, nodes)
			for _, b := range facadeBindings {
				t.Run(b.version+" "+b.binding, func(t *testing.T) {
					ctx := testContext(t)
					alice := callerClient(ctx, t, cards[0], b.version, b.binding, "alice-token")
					bob := callerClient(ctx, t, cards[len(cards)-1], b.version, b.binding, "bob-token")
					instruction := fmt.Sprintf("hold for alice (isolation %s %s %s)", mode, b.version, b.binding)
					res, err := alice.SendMessage(ctx, &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart(instruction)),
						Config: &a2a.SendMessageConfig{ReturnImmediately: true}})
					if err != nil {
						t.Fatal(err)
					}
					task, ok := res.(*a2a.Task)
					if !ok {
						t.Fatalf("SendMessage() = %T, want a task", res)
					}
					if err := server.WaitStarted(ctx, instruction); err != nil {
						t.Fatal(err)
					}
					const unknown = a2a.TaskID("no-such-task-0000")
					for _, c := range taskCalls {
						if b.version == "0.3" && !c.v03 {
							continue
						}
						foreignEvents, foreign := c.call(ctx, bob, task.ID)
						_, none := c.call(ctx, bob, unknown)
						switch {
						case foreignEvents != 0:
							t.Errorf("%s: bob received %d events of alice's task", c.name, foreignEvents)
						case foreign == nil:
							t.Errorf("%s: bob's call on alice's task succeeded", c.name)
						case none == nil:
							t.Errorf("%s: a call on an unknown task succeeded", c.name)
						case errorText(foreign, task.ID) != errorText(none, unknown):
							t.Errorf("%s: alice's task is answered %q, an unknown one %q: an existence oracle", c.name, errorText(foreign, task.ID), errorText(none, unknown))
						case c.name == "GetTask" && !errors.Is(foreign, a2a.ErrTaskNotFound) && b.binding+b.version != "HTTP+JSON0.3":
							// (a2a-go's 0.3 REST client reads errors as 1.0 ones: "server error" for any.)
							t.Errorf("%s: %v, want task not found", c.name, foreign)
						}
					}
					if b.version == "1.0" {
						list, err := bob.ListTasks(ctx, &a2a.ListTasksRequest{})
						if err == nil && slices.ContainsFunc(list.Tasks, func(x *a2a.Task) bool { return x.ID == task.ID }) {
							t.Error("ListTasks: bob's list shows alice's task")
						}
					}
					got, err := alice.GetTask(ctx, &a2a.GetTaskRequest{ID: task.ID})
					if err != nil || got.Status.State.Terminal() || server.Cancelled(instruction) {
						t.Fatalf("after bob's calls alice's task is %+v, %v (cancelled at the agent: %v)", got, err, server.Cancelled(instruction))
					}
					if n, err := firstError(func(yield func(a2a.Event, error) bool) {
						for ev, err := range alice.SubscribeToTask(ctx, &a2a.SubscribeToTaskRequest{ID: task.ID}) {
							if !yield(ev, err) || err == nil { // the first event (the task) is enough
								return
							}
						}
					}); n != 1 || err != nil {
						t.Errorf("alice's SubscribeToTask(): %d events, %v", n, err)
					}
					if got, err := alice.CancelTask(ctx, &a2a.CancelTaskRequest{ID: task.ID}); err != nil || got.Status.State != a2a.TaskStateCanceled {
						t.Errorf("alice's CancelTask() = %+v, %v", got, err)
					}
				})
			}
		})
	}
}

// errorText is err's message with id taken out, so that two answers compare as words.
func errorText(err error, id a2a.TaskID) string {
	return strings.ReplaceAll(err.Error(), string(id), "<id>")
}
