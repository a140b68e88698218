package tests

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/a2aport/a2aport"

	"github.com/a2aport/a2aport/adapter"
	"github.com/a2aport/a2aport/facade"
	"github.com/a2aport/a2aport/internal/testkit/agent"
)

// rpcPost posts a JSON-RPC body to endpoint as the caller of token (none: anonymous) and returns
// the status and answer.
func rpcPost(t *testing.T, endpoint, token, body string) (int, string) {
	t.Helper()
	h := http.Header{}
	if token != "" {
		h.Set("Authorization", "Bearer "+token)
	}
	return postJSON(t, endpoint, h, body)
}

// postJSON posts a JSON body to endpoint with the headers h and returns the status and answer.
func postJSON(t *testing.T, endpoint string, h http.Header, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header = h.Clone()
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(data)
}

// sendBody is a SendMessage of the given parts (JSON), in A2A 1.0 JSON-RPC.
func sendBody(parts string) string {
	return `{"jsonrpc":"2.0","id":"1","method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[` + parts + `]}}}`
}

// TestFacadeRefusesDeepAndWideRequests: a 52 kB message with a data part nested 9,000 deep (under
// encoding/json's own limit of 10,000) and a message of 1,001 parts are refused with 400 before
// a2asrv decodes them, at once and without a Work; the same messages within the limits run.
func TestFacadeRefusesDeepAndWideRequests(t *testing.T) {
	t.Parallel()
	var events atomic.Int32
	inner := innerPort(t)
	unsub := inner.Subscribe(func(a2aport.Event) { events.Add(1) })
	defer unsub()
	card := serveFacade(t, inner, facade.Options{Name: "facade"})
	base := strings.TrimSuffix(card, facade.CardPath)
	deep := func(n int) string {
		return `{"text":"complete deep"},{"data":{"x":` + strings.Repeat(`{"a":`, n) + `1` + strings.Repeat(`}`, n) + `}}`
	}
	many := func(n int) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = `{"text":"complete many"}`
		}
		return strings.Join(parts, ",")
	}
	for _, tc := range []struct {
		name, body string
		want       string
	}{
		{"9,000 deep", sendBody(deep(9000)), "nests too deep"},
		{"1,001 parts", sendBody(many(1001)), "has too many parts"},
	} {
		start := time.Now()
		status, body := rpcPost(t, base+facade.JSONRPCPath, "", tc.body)
		if status != http.StatusBadRequest || !strings.Contains(body, tc.want) || !json.Valid([]byte(body)) {
			t.Errorf("%s (%d bytes): %d %.200s; want 400 saying %q", tc.name, len(tc.body), status, body, tc.want)
		}
		t.Logf("%s (%d bytes) refused in %v", tc.name, len(tc.body), time.Since(start).Round(time.Microsecond))
	}
	// 0.3 over JSON-RPC, and both versions over HTTP+JSON, are scanned the same way.
	for _, path := range []string{facade.V03RPCPath, facade.RESTPath + "/message:send", facade.V03RESTPath + "/v1/message:send"} {
		body := `{"jsonrpc":"2.0","id":"1","method":"message/send","params":{"message":{"parts":[` + deep(9000) + `]}}}`
		if strings.Contains(path, "rest") {
			body = `{"message":{"messageId":"m","role":"ROLE_USER","parts":[` + deep(9000) + `]}}`
		}
		if status, answer := rpcPost(t, base+path, "", body); status != http.StatusBadRequest || !strings.Contains(answer, "nests too deep") {
			t.Errorf("%s: %d %.200s; want 400", path, status, answer)
		}
	}
	if n := events.Load(); n != 0 {
		t.Fatalf("refused requests started Works: %d events", n)
	}
	for _, body := range []string{sendBody(deep(50)), sendBody(many(1000))} {
		if status, answer := rpcPost(t, base+facade.JSONRPCPath, "", body); status != http.StatusOK || !strings.Contains(answer, "echo: complete") {
			t.Errorf("a request within the limits: %d %.200s", status, answer)
		}
	}
}

// TestFacadeForgetsFinishedTasks: a finished task is dropped after its retention and beyond the
// count, and is then "task not found"; tasks that run are kept.
func TestFacadeForgetsFinishedTasks(t *testing.T) {
	t.Parallel()
	card := serveFacade(t, innerPort(t), facade.Options{Name: "facade", Authenticate: bearerCaller,
		Limits: facade.Limits{FinishedTaskRetention: 400 * time.Millisecond, MaxFinishedTasks: 3}})
	ctx := testContext(t)
	c := callerClient(ctx, t, card, "1.0", "JSONRPC", "alice-token")
	send := func(text string) *a2a.Task {
		t.Helper()
		res, err := c.SendMessage(ctx, &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart(text))})
		if err != nil {
			t.Fatal(err)
		}
		return res.(*a2a.Task)
	}
	var done []*a2a.Task
	for i := range 5 {
		done = append(done, send(fmt.Sprintf("complete %d of five", i)))
	}
	found := func(task *a2a.Task) bool {
		_, err := c.GetTask(ctx, &a2a.GetTaskRequest{ID: task.ID})
		return err == nil
	}
	if found(done[0]) || found(done[1]) || !found(done[4]) {
		t.Errorf("past the count of 3: first %v, second %v, last %v; want the two oldest gone", found(done[0]), found(done[1]), found(done[4]))
	}
	time.Sleep(500 * time.Millisecond)
	send("complete after the retention") // the store sweeps on its next write
	for i, task := range done[2:] {
		if found(task) {
			t.Errorf("task %d is kept past its retention", i+2)
		}
	}
	if _, err := c.GetTask(ctx, &a2a.GetTaskRequest{ID: done[4].ID}); !errors.Is(err, a2a.ErrTaskNotFound) {
		t.Errorf("a dropped task: %v, want task not found", err)
	}
}

// TestFacadeCallerLimits: a caller past its tasks or its streams is answered 429 (Retry-After),
// another caller is not; a task past its bytes fails saying so, its Work cancelled.
func TestFacadeCallerLimits(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	card := serveFacade(t, innerPort(t), facade.Options{Name: "facade", Authenticate: bearerCaller,
		Limits: facade.Limits{MaxTasksPerCaller: 2, MaxStreamsPerCaller: 1}})
	endpoint := strings.TrimSuffix(card, facade.CardPath) + facade.JSONRPCPath
	hold := func(token, text string) (int, string) {
		return rpcPost(t, endpoint, token, `{"jsonrpc":"2.0","id":"1","method":"SendMessage","params":{"message":{"messageId":"`+text+`","role":"ROLE_USER","parts":[{"text":"`+text+`"}]},"configuration":{"returnImmediately":true}}}`)
	}
	for i := range 2 {
		if status, body := hold("alice-token", fmt.Sprintf("hold limit alice %d", i)); status != http.StatusOK {
			t.Fatalf("task %d: %d %s", i, status, body)
		}
	}
	if status, body := hold("alice-token", "hold limit alice 3"); status != http.StatusTooManyRequests || !strings.Contains(body, "MaxTasksPerCaller") {
		t.Errorf("a third task: %d %s, want 429", status, body)
	}
	if status, body := hold("bob-token", "hold limit bob"); status != http.StatusOK {
		t.Errorf("another caller: %d %s, want its task", status, body)
	}
	// One stream open: the next is refused until it closes.
	stream := func(token string) (*http.Response, error) {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(
			`{"jsonrpc":"2.0","id":"1","method":"SendStreamingMessage","params":{"message":{"messageId":"s","role":"ROLE_USER","parts":[{"text":"hold stream"}]}}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+token)
		return http.DefaultClient.Do(req)
	}
	open, err := stream("carol-token")
	if err != nil || open.StatusCode != http.StatusOK {
		t.Fatalf("the first stream: %v, %v", open, err)
	}
	_, _ = bufio.NewReader(open.Body).ReadString('\n') // it is open
	second, err := stream("carol-token")
	if err != nil {
		t.Fatal(err)
	}
	if second.StatusCode != http.StatusTooManyRequests || second.Header.Get("Retry-After") == "" {
		t.Errorf("a second stream: %d, Retry-After %q; want 429 with Retry-After", second.StatusCode, second.Header.Get("Retry-After"))
	}
	_ = second.Body.Close()
	_ = open.Body.Close()
}

// bigPort emits one artifact of n bytes, then holds until cancelled; it says whether it was.
type bigPort struct {
	a2aport.Port
	n         int
	cancelled chan struct{}
}

func (p bigPort) Submit(ctx context.Context, w a2aport.Work, opts ...a2aport.SubmitOption) (a2aport.Outcome, error) {
	art := a2aport.Artifact{ID: "big", Parts: []a2aport.Part{{Type: a2aport.PartText, Text: strings.Repeat("x", p.n)}}}
	a2aport.ApplySubmitOptions(opts...).OnEvent(a2aport.Event{Type: a2aport.EventArtifact, WorkID: w.ID, OwnerID: w.OwnerID, Artifact: &art})
	<-ctx.Done()
	return a2aport.Outcome{}, ctx.Err()
}

func (p bigPort) Cancel(context.Context, string, string) (a2aport.CancelResult, error) {
	select {
	case <-p.cancelled:
	default:
		close(p.cancelled)
	}
	return a2aport.CancelResult{State: a2aport.StateCancelled}, nil
}

func TestFacadeTaskBytes(t *testing.T) {
	t.Parallel()
	port := bigPort{Port: innerPort(t), n: 5000, cancelled: make(chan struct{})}
	card := serveFacade(t, port, facade.Options{Name: "facade", Limits: facade.Limits{MaxTaskBytes: 1000}})
	status, body := rpcPost(t, strings.TrimSuffix(card, facade.CardPath)+facade.JSONRPCPath, "", sendBody(`{"text":"big please"}`))
	if status != http.StatusOK || !strings.Contains(body, "TASK_STATE_FAILED") || !strings.Contains(body, "MaxTaskBytes") {
		t.Errorf("a task past its bytes: %d %.300s; want it failed, saying why", status, body)
	}
	select {
	case <-port.cancelled:
	case <-testContext(t).Done():
		t.Error("the Work of a task past its bytes was not cancelled")
	}
}

// TestFacadeSlowBodies: a body trickled in a byte at a time is cut after BodyReadTimeout, and an
// idle keep-alive connection is closed by NewServer's server; a long stream is not cut.
func TestFacadeSlowBodies(t *testing.T) {
	t.Parallel()
	handler, err := facade.New(innerPort(t), facade.Options{BaseURL: "http://127.0.0.1", Name: "facade",
		Limits: facade.Limits{BodyReadTimeout: 300 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	srv := facade.NewServer(handler)
	srv.IdleTimeout = 300 * time.Millisecond // NewServer's is a minute; the test cannot wait that long
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	if srv.ReadTimeout != 0 || srv.WriteTimeout != 0 || facade.NewServer(handler).IdleTimeout != facade.ServerIdleTimeout {
		t.Errorf("NewServer() = %+v: a ReadTimeout or WriteTimeout would cut streams", srv)
	}
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = conn.Close() }()
	body := sendBody(`{"text":"complete trickled"}`)
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", facade.JSONRPCPath, len(body))
	start := time.Now()
	answered := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(conn).ReadString('\n')
		answered <- line
	}()
	for i := 0; i < len(body); i++ {
		if _, err := conn.Write([]byte{body[i]}); err != nil {
			break
		}
		select {
		case line := <-answered:
			if !strings.Contains(line, "408") && line != "" {
				t.Errorf("a trickled body was answered %q, want 408 or a closed connection", line)
			}
			t.Logf("a trickled body was cut after %v", time.Since(start).Round(time.Millisecond))
			goto idle
		case <-time.After(50 * time.Millisecond):
		}
		if time.Since(start) > 5*time.Second {
			t.Fatal("a body trickled for 5 s was not cut")
		}
	}
	t.Fatal("the whole trickled body was read")
idle:
	// A keep-alive connection after its request: closed once idle for IdleTimeout.
	idle, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = idle.Close() }()
	fmt.Fprintf(idle, "GET %s HTTP/1.1\r\nHost: x\r\n\r\n", facade.CardPath)
	resp, err := http.ReadResponse(bufio.NewReader(idle), nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	_ = idle.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := idle.Read(make([]byte, 1)); !errors.Is(err, io.EOF) {
		t.Errorf("an idle keep-alive connection: %v, want it closed by the server", err)
	}
}

// TestFacadeOwnersDoNotCollide: caller "acme" in context "alice/c1" and caller "acme/alice" in
// context "c1" are different owners of the Port: with continuity on, each gets its own upstream
// context.
func TestFacadeOwnersDoNotCollide(t *testing.T) {
	t.Parallel()
	inner, err := adapter.New(a2aport.Options{AgentCardURL: server.CardURL(agent.Variants()[0]), ReuseContext: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = inner.Close() })
	var owners []string
	spy := ownerSpy{Port: inner, seen: func(owner string) { owners = append(owners, owner) }}
	card := serveFacade(t, spy, facade.Options{Name: "facade", Authenticate: bearerCaller})
	endpoint := strings.TrimSuffix(card, facade.CardPath) + facade.JSONRPCPath
	ask := func(token, contextID string) string {
		status, body := rpcPost(t, endpoint, token, `{"jsonrpc":"2.0","id":"1","method":"SendMessage","params":{"message":{"messageId":"`+
			token+contextID+`","contextId":"`+contextID+`","role":"ROLE_USER","parts":[{"text":"context please"}]}}}`)
		if status != http.StatusOK {
			t.Fatalf("%s in %s: %d %s", token, contextID, status, body)
		}
		i := strings.Index(body, "context=")
		if i < 0 {
			t.Fatalf("no upstream context in %s", body)
		}
		return strings.FieldsFunc(body[i+len("context="):], func(r rune) bool { return r == '"' || r == '\\' })[0]
	}
	first := ask("acme-token", "alice/c1")
	other := ask("acme/alice-token", "c1")
	again := ask("acme-token", "alice/c1")
	if first == other {
		t.Errorf("callers acme (context alice/c1) and acme/alice (context c1) share the upstream context %s: owners %q", first, owners)
	}
	if again != first {
		t.Errorf("the same caller and context continued in %s, want %s", again, first)
	}
}

// ownerSpy reports the owner of each Work.
type ownerSpy struct {
	a2aport.Port
	seen func(string)
}

func (s ownerSpy) Submit(ctx context.Context, w a2aport.Work, opts ...a2aport.SubmitOption) (a2aport.Outcome, error) {
	s.seen(w.OwnerID)
	return s.Port.Submit(ctx, w, opts...)
}

// TestFacadeLimitsReadAsTheServer: with its tasks and its streams used up, a caller cannot start
// one more by spelling the request another way: an escaped method name, 0.3's escaped name, a
// taskId elsewhere than in the message, a taskId given twice (the last one counts, for a2a-go as
// here), the HTTP+JSON form; nor open a stream so. Each was a task or a stream more.
func TestFacadeLimitsReadAsTheServer(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	card := serveFacade(t, innerPort(t), facade.Options{Name: "spelled", Authenticate: bearerCaller,
		Limits: facade.Limits{MaxTasksPerCaller: 1, MaxStreamsPerCaller: 1}})
	base := strings.TrimSuffix(card, facade.CardPath)
	message := func(text, extra string) string {
		return `{"messageId":"` + text + `","role":"ROLE_USER","parts":[{"text":"` + text + `"}]` + extra + `}`
	}
	if status, body := rpcPost(t, base+facade.JSONRPCPath, "dora-token", `{"jsonrpc":"2.0","id":"1","method":"SendMessage","params":{"message":`+
		message("hold spelled 0", "")+`,"configuration":{"returnImmediately":true}}}`); status != http.StatusOK {
		t.Fatalf("the one task: %d %s", status, body)
	}
	for _, c := range []struct{ name, url, version, body string }{
		{"escaped method", facade.JSONRPCPath, "1.0", `{"jsonrpc":"2.0","id":"1","method":"Send\u004dessage","params":{"message":` + message("hold spelled 1", "") + `}}`},
		{"0.3 escaped method", facade.V03RPCPath, "", `{"jsonrpc":"2.0","id":"1","method":"message\/send","params":{"message":{"messageId":"m2","role":"user","kind":"message","parts":[{"kind":"text","text":"hold spelled 2"}]}}}`},
		{"taskId under metadata.message", facade.JSONRPCPath, "1.0", `{"jsonrpc":"2.0","id":"1","method":"SendMessage","params":{"message":` + message("hold spelled 3", `,"metadata":{"message":{"taskId":"x"}}`) + `}}`},
		{"taskId twice, the last empty", facade.JSONRPCPath, "1.0", `{"jsonrpc":"2.0","id":"1","method":"SendMessage","params":{"message":` + message("hold spelled 4", `,"taskId":"x","taskId":""`) + `}}`},
		{"HTTP+JSON, taskId under metadata", facade.RESTPath + "/message:send", "1.0", `{"message":` + message("hold spelled 5", `,"metadata":{"message":{"taskId":"x"}}`) + `}`},
	} {
		h := http.Header{"Authorization": {"Bearer dora-token"}}
		if c.version != "" {
			h.Set("A2A-Version", c.version)
		}
		if status, body := postJSON(t, base+c.url, h, c.body); status != http.StatusTooManyRequests {
			t.Errorf("%s: %d %s; want 429, a task past MaxTasksPerCaller", c.name, status, body)
		}
	}
	open := func(version, body string) *http.Response {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, base+facade.EndpointPath, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer erin-token")
		if version != "" {
			req.Header.Set("A2A-Version", version)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = resp.Body.Close() })
		return resp
	}
	if first := open("", `{"jsonrpc":"2.0","id":"1","method":"message/stream","params":{"message":{"messageId":"s","role":"user","kind":"message","parts":[{"kind":"text","text":"hold stream spelled"}]}}}`); first.StatusCode != http.StatusOK {
		t.Fatalf("the one stream: %d", first.StatusCode)
	} else {
		_, _ = bufio.NewReader(first.Body).ReadString('\n') // it is open
	}
	for _, c := range []struct{ version, method string }{{"1.0", `SubscribeTo\u0054ask`}, {"", `tasks\/resubscribe`}, {"", `message\/stream`}} {
		// Refused as a stream past the limit (429) or for its task before any stream: never a stream.
		more := open(c.version, `{"jsonrpc":"2.0","id":"1","method":"`+c.method+`","params":{"id":"x"}}`)
		if ctype := more.Header.Get("Content-Type"); strings.HasPrefix(ctype, "text/event-stream") ||
			(more.StatusCode != http.StatusTooManyRequests && more.StatusCode != http.StatusOK) {
			t.Errorf("a stream by %s: %d %s, want no stream past MaxStreamsPerCaller", c.method, more.StatusCode, ctype)
		}
	}
}
