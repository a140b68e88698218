package tests

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/facade"
	"github.com/a2aport/a2aport/funcport"
	"github.com/a2aport/a2aport/internal/testkit/tasktest"
)

// The facade answers as A2A 1.0 says where a2a-go's server, which it runs on, or the official
// suites (the TCK, the draft conformance specification) found it did not: each test names the
// section it holds the facade to.

// TestFacadeCardIsCacheable: the card has Cache-Control with max-age, an ETag and Last-Modified
// (§8.6.1), a client that has it gets 304, and its version is the program's when none is set.
func TestFacadeCardIsCacheable(t *testing.T) {
	t.Parallel()
	card := serveFacade(t, innerPort(t), facade.Options{Name: "cacheable"})
	resp, err := http.Get(card)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	etag, modified := resp.Header.Get("ETag"), resp.Header.Get("Last-Modified")
	if resp.StatusCode != http.StatusOK || etag == "" || modified == "" || !strings.Contains(resp.Header.Get("Cache-Control"), "max-age=") {
		t.Fatalf("card: %d, headers %v", resp.StatusCode, resp.Header)
	}
	var served struct{ Version string }
	if err := json.Unmarshal(body, &served); err != nil || served.Version == "" {
		t.Errorf("the card's version %q (%v)", served.Version, err)
	}
	for _, h := range []http.Header{{"If-None-Match": {etag}}, {"If-Modified-Since": {modified}}} {
		req, _ := http.NewRequest(http.MethodGet, card, nil)
		req.Header = h
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusNotModified {
			t.Errorf("GET with %v: %d, want 304", h, resp.StatusCode)
		}
	}
}

// TestFacadePushNotSupportedFirst: a push-config call on a task that does not exist is
// PushNotificationNotSupportedError when the card offers no push notifications (§3.1.7): what the
// agent cannot do at all comes before what it does not have.
func TestFacadePushNotSupportedFirst(t *testing.T) {
	t.Parallel()
	card := serveFacade(t, innerPort(t), facade.Options{Name: "no push"})
	base := strings.TrimSuffix(card, facade.CardPath)
	status, body := versionedPost(t, base+facade.EndpointPath, "1.0",
		`{"jsonrpc":"2.0","id":1,"method":"CreateTaskPushNotificationConfig","params":{"taskId":"no-such-task","url":"https://example.com/hook"}}`)
	if status != http.StatusOK || !strings.Contains(body, "-32003") {
		t.Errorf("JSON-RPC: %d %s, want -32003 PushNotificationNotSupported", status, body)
	}
	status, body = versionedPost(t, base+facade.RESTPath+"/tasks/no-such-task/pushNotificationConfigs", "1.0", `{"url":"https://example.com/hook"}`)
	if status != http.StatusBadRequest || !strings.Contains(body, "PUSH_NOTIFICATION_NOT_SUPPORTED") {
		t.Errorf("HTTP+JSON: %d %s, want 400 PUSH_NOTIFICATION_NOT_SUPPORTED", status, body)
	}
}

// call sends body to url (POST; GET without a body) as token's caller, with header pairs, and
// returns the status, the Content-Type and the body.
func call(t *testing.T, method, url, token, body string, header ...string) (int, string, string) {
	t.Helper()
	var reader io.Reader
	if body != "" {
		reader = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, reader)
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("A2A-Version", "1.0")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Content-Type"), string(data)
}

// TestFacadeAnswersTaskErrorsBeforeStreams: what is wrong with the task a stream names is answered
// as the binding answers errors, before any stream starts (a2a-go opened an HTTP 200 event stream
// and put the error inside, which @a2a-js/sdk's HTTP+JSON client read as one empty event); a
// JSON-RPC client that takes only an event stream gets the error as its one event. An
// unknown task and another caller's task are TaskNotFoundError; a subscription to a task that has
// ended, and a message to it, streamed or not, are UnsupportedOperationError (§3.1.6, §3.1.1),
// where a2a-go answered "task not found" and invalid params.
func TestFacadeAnswersTaskErrorsBeforeStreams(t *testing.T) {
	t.Parallel()
	card := serveFacade(t, innerPort(t), facade.Options{Name: "errors first", Authenticate: bearerCaller})
	base := strings.TrimSuffix(card, facade.CardPath)
	rpc, rest := base+facade.EndpointPath, base+facade.RESTPath
	_, _, done := call(t, http.MethodPost, rpc, "alice-token", `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"complete, then looked at"}]}}}`)
	var answer struct {
		Result struct {
			Task struct{ ID, ContextID string }
		}
	}
	if err := json.Unmarshal([]byte(done), &answer); err != nil || answer.Result.Task.ID == "" {
		t.Fatalf("the task: %s", done)
	}
	finished := answer.Result.Task.ID
	for _, c := range []struct {
		name, token, task, rpcCode, restStatus string
	}{
		{"unknown", "alice-token", "no-such-task", "-32001", "NOT_FOUND"},
		{"another caller's", "bob-token", finished, "-32001", "NOT_FOUND"},
		{"finished", "alice-token", finished, "-32004", "FAILED_PRECONDITION"},
	} {
		subscribe := `{"jsonrpc":"2.0","id":"sub-7","method":"SubscribeToTask","params":{"id":"` + c.task + `"}}`
		status, ctype, body := call(t, http.MethodPost, rpc, c.token, subscribe, "Accept", "application/json, text/event-stream")
		if status != http.StatusOK || !strings.HasPrefix(ctype, "application/json") || !strings.Contains(body, `"code":`+c.rpcCode) || !strings.Contains(body, `"id":"sub-7"`) {
			t.Errorf("JSON-RPC SubscribeToTask, %s task: %d %s %s; want a JSON-RPC error %s, no stream", c.name, status, ctype, body, c.rpcCode)
		}
		// A client that takes nothing but an event stream (a2a-go's) gets the same error as its one event.
		status, ctype, body = call(t, http.MethodPost, rpc, c.token, subscribe, "Accept", "text/event-stream")
		if status != http.StatusOK || !strings.HasPrefix(ctype, "text/event-stream") || !strings.Contains(body, `"code":`+c.rpcCode) || strings.Count(body, "data:") != 1 {
			t.Errorf("JSON-RPC SubscribeToTask for an event stream, %s task: %d %s %s; want one event, the error %s", c.name, status, ctype, body, c.rpcCode)
		}
		status, ctype, body = call(t, http.MethodPost, rest+"/tasks/"+c.task+":subscribe", c.token, "", "Accept", "text/event-stream")
		if status < 400 || strings.HasPrefix(ctype, "text/event-stream") || !strings.Contains(body, c.restStatus) {
			t.Errorf("HTTP+JSON subscribe, %s task: %d %s %s; want %s, no stream", c.name, status, ctype, body, c.restStatus)
		}
	}
	more := `{"message":{"messageId":"m2","role":"ROLE_USER","taskId":"` + finished + `","parts":[{"text":"one more"}]}}`
	for _, method := range []string{"SendMessage", "SendStreamingMessage"} {
		status, ctype, body := call(t, http.MethodPost, rpc, "alice-token", `{"jsonrpc":"2.0","id":2,"method":"`+method+`","params":`+more+`}`, "Accept", "application/json, text/event-stream")
		if status != http.StatusOK || !strings.HasPrefix(ctype, "application/json") || !strings.Contains(body, `"code":-32004`) {
			t.Errorf("%s to a finished task: %d %s %s; want UnsupportedOperationError", method, status, ctype, body)
		}
	}
	status, _, body := call(t, http.MethodPost, rest+"/message:stream", "alice-token", more, "Accept", "text/event-stream")
	if status != http.StatusBadRequest || !strings.Contains(body, "FAILED_PRECONDITION") {
		t.Errorf("HTTP+JSON streamed message to a finished task: %d %s", status, body)
	}
}

// TestFacadeUnauthenticatedInItsBinding: a call without credentials is 401 with A2A's error in the
// binding's form: a JSON-RPC error object (UNAUTHENTICATED, as a2a-go's clients read it), or
// google.rpc.Status; it was a plain-text body.
func TestFacadeUnauthenticatedInItsBinding(t *testing.T) {
	t.Parallel()
	card := serveFacade(t, innerPort(t), facade.Options{Name: "who", Authenticate: bearerCaller})
	base := strings.TrimSuffix(card, facade.CardPath)
	status, ctype, body := call(t, http.MethodPost, base+facade.EndpointPath, "", `{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"x"}}`)
	if status != http.StatusUnauthorized || !strings.HasPrefix(ctype, "application/json") || !strings.Contains(body, `"code":-31401`) || !strings.Contains(body, `"jsonrpc":"2.0"`) {
		t.Errorf("JSON-RPC without credentials: %d %s %s", status, ctype, body)
	}
	status, ctype, body = call(t, http.MethodGet, base+facade.RESTPath+"/tasks/x", "", "")
	if status != http.StatusUnauthorized || !strings.Contains(ctype, "json") || !strings.Contains(body, `"status":"UNAUTHENTICATED"`) {
		t.Errorf("HTTP+JSON without credentials: %d %s %s", status, ctype, body)
	}
}

// TestFacadeRESTMediaType: HTTP+JSON answers are application/a2a+json (§11.1) unless the client
// asked for application/json alone (a2a-go's client, which types an error only in a body of that
// type: its errors stay typed).
func TestFacadeRESTMediaType(t *testing.T) {
	t.Parallel()
	card := serveFacade(t, innerPort(t), facade.Options{Name: "media"})
	task := base(card) + facade.RESTPath + "/tasks/no-such-task"
	for _, c := range []struct{ accept, want string }{
		{"", "application/a2a+json"}, {"application/a2a+json", "application/a2a+json"}, {"*/*", "application/a2a+json"},
		{"application/json", "application/json"},
	} {
		var header []string
		if c.accept != "" {
			header = []string{"Accept", c.accept}
		}
		if status, ctype, _ := call(t, http.MethodGet, task, "", "", header...); status != http.StatusNotFound || ctype != c.want {
			t.Errorf("Accept %q: %d %s, want 404 %s", c.accept, status, ctype, c.want)
		}
	}
	ctx := testContext(t)
	resolved, err := agentcard.DefaultResolver.Resolve(ctx, base(card))
	if err != nil {
		t.Fatal(err)
	}
	client, err := a2aclient.NewFromCard(ctx, resolved, a2aclient.WithConfig(a2aclient.Config{PreferredTransports: []a2a.TransportProtocol{a2a.TransportProtocolHTTPJSON}}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.GetTask(ctx, &a2a.GetTaskRequest{ID: "no-such-task"}); !errors.Is(err, a2a.ErrTaskNotFound) {
		t.Errorf("a2a-go's HTTP+JSON client: %v, want TaskNotFoundError", err)
	}
}

func base(card string) string { return strings.TrimSuffix(card, facade.CardPath) }

// TestFacadeSubscribesToAWaitingTask: SubscribeToTask on a task waiting for an answer (no
// execution runs it) gives the task as it is, then, once another call answers it, its updates to
// the end; a2a-go answered "task not found: no active execution".
func TestFacadeSubscribesToAWaitingTask(t *testing.T) {
	t.Parallel()
	card := serveFacade(t, innerPort(t), facade.Options{Name: "waiting"})
	ctx := testContext(t)
	client := a2aClient(ctx, t, card)
	res, err := client.SendMessage(ctx, &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("input then a reconnect"))})
	if err != nil {
		t.Fatal(err)
	}
	task, ok := res.(*a2a.Task)
	if !ok || task.Status.State != a2a.TaskStateInputRequired {
		t.Fatalf("the first answer: %#v", res)
	}
	events := make(chan a2a.Event, 64)
	failed := make(chan error, 1)
	go func() {
		defer close(events)
		for ev, err := range client.SubscribeToTask(ctx, &a2a.SubscribeToTaskRequest{ID: task.ID}) {
			if err != nil {
				failed <- err
				return
			}
			events <- ev
		}
	}()
	select {
	case ev := <-events:
		if first, ok := ev.(*a2a.Task); !ok || first.Status.State != a2a.TaskStateInputRequired {
			t.Fatalf("the subscription's first event: %#v, want the waiting task", ev)
		}
	case err := <-failed:
		t.Fatalf("SubscribeToTask on a waiting task: %v", err)
	}
	if _, err := client.SendMessage(ctx, &a2a.SendMessageRequest{Message: a2a.NewMessageForTask(a2a.MessageRoleUser, task, a2a.NewTextPart("Ada"))}); err != nil {
		t.Fatal(err)
	}
	var last a2a.TaskState
	greeted := false
	for ev := range events {
		switch e := ev.(type) {
		case *a2a.Task:
			last = e.Status.State
			for _, art := range e.Artifacts {
				greeted = greeted || (len(art.Parts) > 0 && art.Parts[0].Text() == "Hello, Ada!")
			}
		case *a2a.TaskStatusUpdateEvent:
			last = e.Status.State
		case *a2a.TaskArtifactUpdateEvent:
			greeted = greeted || (len(e.Artifact.Parts) > 0 && e.Artifact.Parts[0].Text() == "Hello, Ada!")
		}
	}
	select {
	case err := <-failed:
		t.Fatalf("the subscription failed: %v", err)
	default:
	}
	if last != a2a.TaskStateCompleted || !greeted {
		t.Errorf("the subscription ended at %s, greeted %v; want the answered task's updates to COMPLETED", last, greeted)
	}
}

// TestFacadeListTasks: without authentication every caller is one anonymous caller, so ListTasks
// is refused with UnsupportedOperationError saying authentication must be configured (a list would
// give anyone every task, where a task's id is all that keeps it to whoever started it); an
// authenticated caller with no tasks gets an empty list, never null (§3.1.4).
func TestFacadeListTasks(t *testing.T) {
	t.Parallel()
	open := base(serveFacade(t, innerPort(t), facade.Options{Name: "anonymous"}))
	status, _, body := call(t, http.MethodPost, open+facade.EndpointPath, "", `{"jsonrpc":"2.0","id":1,"method":"ListTasks","params":{}}`)
	if status != http.StatusOK || !strings.Contains(body, `"code":-32004`) || !strings.Contains(body, "needs authenticated callers") {
		t.Errorf("JSON-RPC ListTasks without authentication: %d %s", status, body)
	}
	status, _, body = call(t, http.MethodGet, open+facade.RESTPath+"/tasks", "", "")
	if status != http.StatusBadRequest || !strings.Contains(body, "needs authenticated callers") {
		t.Errorf("HTTP+JSON ListTasks without authentication: %d %s", status, body)
	}
	secured := base(serveFacade(t, innerPort(t), facade.Options{Name: "secured", Authenticate: bearerCaller}))
	status, _, body = call(t, http.MethodGet, secured+facade.RESTPath+"/tasks", "carol-token", "")
	if status != http.StatusOK || !strings.Contains(body, `"tasks":[]`) {
		t.Errorf("HTTP+JSON ListTasks of a caller without tasks: %d %s, want tasks: []", status, body)
	}
}

// TestFacadeTaskReadsAsExchanged: a streamed answer is one text part in the stored artifact (a
// blocking caller got a part per chunk), a message's historyLength 0 gives no history (§3.2.4;
// a2a-go gave the whole), and a task's history is in the order it was exchanged, each message
// once: the agent's question before the answer to it (a2a-go put it after).
func TestFacadeTaskReadsAsExchanged(t *testing.T) {
	t.Parallel()
	card := serveFacade(t, innerPort(t), facade.Options{Name: "as exchanged"})
	ctx := testContext(t)
	client := a2aClient(ctx, t, card)
	none := 0
	res, err := client.SendMessage(ctx, &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("chunks 4 merged")),
		Config: &a2a.SendMessageConfig{HistoryLength: &none}})
	if err != nil {
		t.Fatal(err)
	}
	task := res.(*a2a.Task)
	if len(task.History) != 0 {
		t.Errorf("historyLength 0: %d messages of history", len(task.History))
	}
	for name, got := range map[string]*a2a.Task{"the blocking answer": task, "GetTask": getTaskOf(ctx, t, client, task.ID)} {
		var report *a2a.Artifact
		for _, art := range got.Artifacts {
			if art.Name == "report" {
				report = art
			}
		}
		if report == nil || len(report.Parts) != 1 || report.Parts[0].Text() != "part-1 part-2 part-3 part-4 " {
			t.Errorf("%s: the streamed artifact %+v, want one part with the whole text", name, report)
		}
	}

	res, err = client.SendMessage(ctx, &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("input in order"))})
	if err != nil {
		t.Fatal(err)
	}
	asked := res.(*a2a.Task)
	if _, err := client.SendMessage(ctx, &a2a.SendMessageRequest{Message: a2a.NewMessageForTask(a2a.MessageRoleUser, asked, a2a.NewTextPart("Ada"))}); err != nil {
		t.Fatal(err)
	}
	var order []string
	seen := map[string]bool{}
	for _, m := range tasktest.Final(ctx, t, client, asked.ID).History {
		if seen[m.ID] {
			t.Errorf("message %s is in the history twice", m.ID)
		}
		seen[m.ID] = true
		order = append(order, string(m.Role)+": "+m.Parts[0].Text())
	}
	question, answer := slices.Index(order, "ROLE_AGENT: What is your name?"), slices.Index(order, "ROLE_USER: Ada")
	if question < 0 || answer < 0 || question > answer || order[0] != "ROLE_USER: input in order" {
		t.Errorf("history %q: want the first message, ..., the question, then its answer", order)
	}
}

func getTaskOf(ctx context.Context, t *testing.T, client *a2aclient.Client, id a2a.TaskID) *a2a.Task {
	t.Helper()
	got, err := client.GetTask(ctx, &a2a.GetTaskRequest{ID: id})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestFacadePassesMessageReplies: an agent that answers with a message and makes no task is
// answered through the facade with a message, blocking and streamed (it became a task); an agent
// that makes a task still gives one, over both bindings.
func TestFacadePassesMessageReplies(t *testing.T) {
	t.Parallel()
	card := serveFacade(t, innerPort(t), facade.Options{Name: "messages"})
	ctx := testContext(t)
	resolved, err := agentcard.DefaultResolver.Resolve(ctx, base(card))
	if err != nil {
		t.Fatal(err)
	}
	for _, binding := range []a2a.TransportProtocol{a2a.TransportProtocolJSONRPC, a2a.TransportProtocolHTTPJSON} {
		client, err := a2aclient.NewFromCard(ctx, resolved, a2aclient.WithConfig(a2aclient.Config{PreferredTransports: []a2a.TransportProtocol{binding}}))
		if err != nil {
			t.Fatal(err)
		}
		res, err := client.SendMessage(ctx, &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("message for a message"))})
		if msg, ok := res.(*a2a.Message); err != nil || !ok || msg.Role != a2a.MessageRoleAgent || msg.TaskID != "" || msg.Parts[0].Text() != "plain reply" {
			t.Errorf("%s: SendMessage to a message-only agent = %#v, %v; want its message", binding, res, err)
		}
		var events []a2a.Event
		for ev, err := range client.SendStreamingMessage(ctx, &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("message streamed"))}) {
			if err != nil {
				t.Fatalf("%s: streamed: %v", binding, err)
			}
			events = append(events, ev)
		}
		if len(events) != 1 {
			t.Errorf("%s: the stream of a message-only answer: %d events, want the message alone", binding, len(events))
		} else if msg, ok := events[0].(*a2a.Message); !ok || msg.Parts[0].Text() != "plain reply" {
			t.Errorf("%s: the streamed answer: %#v", binding, events[0])
		}
		res, err = client.SendMessage(ctx, &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("complete as a task"))})
		if task, ok := res.(*a2a.Task); err != nil || !ok || task.Status.State != a2a.TaskStateCompleted {
			t.Errorf("%s: SendMessage to a task = %#v, %v; want a completed task", binding, res, err)
		}
	}
}

// TestFacadeEndpointWithSlash: the JSON-RPC endpoint answers at its URL with a trailing slash too,
// where clients that join a base URL and "/" post (Python's httpx: the TCK's client).
func TestFacadeEndpointWithSlash(t *testing.T) {
	t.Parallel()
	card := serveFacade(t, innerPort(t), facade.Options{Name: "slash"})
	status, _, body := call(t, http.MethodPost, base(card)+facade.EndpointPath+"/", "", `{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"nope"}}`)
	if status != http.StatusOK || !strings.Contains(body, `"code":-32001`) {
		t.Errorf("POST /a2a/: %d %s", status, body)
	}
	if status, _, _ := call(t, http.MethodPost, base(card)+facade.EndpointPath+"/elsewhere", "", `{}`); status != http.StatusNotFound {
		t.Errorf("POST /a2a/elsewhere: %d, want 404", status)
	}
}

// TestFacadeMergesABurstOfEvents: a Work that sends 3,000 appended chunks and 3,000 status texts
// faster than the task can take them is streamed merged (text appended to one artifact in a row is
// one append, statuses in a row the last), yet every chunk reaches the caller once, in order, in
// the stream and in the stored task; fewer events than the Work sent carry it.
func TestFacadeMergesABurstOfEvents(t *testing.T) {
	t.Parallel()
	const n = 3000
	var want strings.Builder
	for i := range n {
		fmt.Fprintf(&want, "%05d ", i)
	}
	port := funcport.New(func(ctx context.Context, w a2aport.Work, turn *funcport.Turn) (a2aport.Outcome, error) {
		for i := range n {
			turn.AppendText("report", "report", fmt.Sprintf("%05d ", i))
			turn.Working(fmt.Sprint("step ", i))
		}
		return a2aport.Outcome{Content: "done"}, nil
	}, funcport.Options{})
	card := serveFacade(t, port, facade.Options{Name: "bursty"})
	ctx := testContext(t)
	client := a2aClient(ctx, t, card)
	var streamed strings.Builder
	events := 0
	var id a2a.TaskID
	for ev, err := range client.SendStreamingMessage(ctx, &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("burst"))}) {
		if err != nil {
			t.Fatal(err)
		}
		events++
		switch e := ev.(type) {
		case *a2a.Task:
			id = e.ID
		case *a2a.TaskArtifactUpdateEvent:
			if !e.Append {
				streamed.Reset()
			}
			for _, p := range e.Artifact.Parts {
				streamed.WriteString(p.Text())
			}
		}
	}
	if streamed.String() != want.String() {
		t.Errorf("the streamed text has %d bytes, want %d, each chunk once in order", streamed.Len(), want.Len())
	}
	if events >= 2*n {
		t.Errorf("%d events for %d the Work sent: nothing was merged", events, 2*n)
	}
	got := getTaskOf(ctx, t, client, id)
	if len(got.Artifacts) != 1 || len(got.Artifacts[0].Parts) != 1 || got.Artifacts[0].Parts[0].Text() != want.String() {
		t.Errorf("the stored task's artifact: %d artifacts, want one text part of the whole report", len(got.Artifacts))
	}
	t.Logf("%d events carried the %d the Work sent", events, 2*n)
}
