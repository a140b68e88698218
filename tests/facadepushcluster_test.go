package tests

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/adapter"
	"github.com/a2aport/a2aport/facade"
	"github.com/a2aport/a2aport/internal/testkit/agent"
	"github.com/a2aport/a2aport/internal/testkit/pgtest"
)

// TestFacadeClusterPushes: two facade nodes on one PostgreSQL with push on and their webhooks in
// the database: a webhook registered through the second node for a task the first started
// receives the task's events to its completion, with its token; the configuration is read and
// listed through either node, and another caller's calls on it are "task not found".
func TestFacadeClusterPushes(t *testing.T) {
	t.Parallel()
	deliveries := make(chan string, 100)
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		deliveries <- r.Header.Get("X-A2A-Notification-Token") + " " + string(body)
	}))
	t.Cleanup(hook.Close)
	dsn := pgtest.Start(t)
	var bases [2]string
	for i := range bases {
		c := clusterNode(t, dsn, fmt.Sprintf("push-node-%d", i+1))
		cfg := c.Config()
		inner, err := adapter.New(a2aport.Options{AgentCardURL: server.CardURL(agent.Variants()[0]), WorkStore: c.WorkStore()})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = inner.Close() })
		card := serveFacade(t, inner, facade.Options{Name: "pushing", Authenticate: bearerCaller, Cluster: &cfg,
			Push: &facade.PushOptions{AllowedWebhooks: []string{hook.URL}, Store: c.PushConfigs()}})
		bases[i] = strings.TrimSuffix(card, facade.CardPath)
	}
	instruction := "hold for a webhook across nodes"
	_, body := rpcCall(t, bases[0], "alice-token", "SendMessage", `{"message":{"messageId":"cp1","role":"ROLE_USER","parts":[{"text":"`+instruction+`"}]},"configuration":{"returnImmediately":true}}`)
	var started struct {
		Result struct{ Task struct{ ID string } }
	}
	_ = json.Unmarshal([]byte(body), &started)
	task := started.Result.Task.ID
	if task == "" {
		t.Fatalf("the message: %s", body)
	}
	if err := server.WaitStarted(testContext(t), instruction); err != nil {
		t.Fatal(err)
	}
	_, body = rpcCall(t, bases[1], "alice-token", "CreateTaskPushNotificationConfig", `{"taskId":"`+task+`","id":"hook","url":"`+hook.URL+`/hook","token":"tok-cluster"}`)
	if !strings.Contains(body, `"hook"`) || strings.Contains(body, "error") {
		t.Fatalf("the webhook registered through the other node: %s", body)
	}
	for i, base := range bases {
		if _, body := rpcCall(t, base, "alice-token", "ListTaskPushNotificationConfigs", `{"taskId":"`+task+`"}`); !strings.Contains(body, hook.URL+"/hook") {
			t.Errorf("node %d lists %s", i+1, body)
		}
		if _, body := rpcCall(t, base, "bob-token", "GetTaskPushNotificationConfig", `{"taskId":"`+task+`","id":"hook"}`); !strings.Contains(body, "-32001") {
			t.Errorf("node %d gives bob alice's webhook: %s", i+1, body)
		}
	}
	_, body = rpcCall(t, bases[1], "alice-token", "CancelTask", `{"id":"`+task+`"}`) // the task ends: its last event is pushed
	if !strings.Contains(body, "CANCELED") {
		t.Fatalf("the cancel: %s", body)
	}
	for {
		select {
		case d := <-deliveries:
			if !strings.HasPrefix(d, "tok-cluster ") || !strings.Contains(d, task) {
				t.Errorf("a delivery: %s", d)
			}
			if strings.Contains(d, "TASK_STATE_CANCELED") {
				return
			}
		case <-time.After(15 * time.Second):
			t.Fatal("the webhook got no event of the task's end")
		}
	}
}
