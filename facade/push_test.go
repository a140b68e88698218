package facade_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
	"github.com/a2aproject/a2a-go/v2/a2asrv"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/facade"
	"github.com/a2aport/a2aport/facade/pgcluster"
	"github.com/a2aport/a2aport/funcport"
)

// gates hold the Works of the push tests until the test lets them go: a webhook is registered
// while the task runs, and its events come after.
var gates sync.Map // instruction → chan struct{}

func gate(instruction string) chan struct{} {
	ch, _ := gates.LoadOrStore(instruction, make(chan struct{}))
	return ch.(chan struct{})
}

var runs atomic.Int64

// unique is instruction made unique to this run (-count runs the tests again in one process).
func unique(instruction string) string {
	return fmt.Sprintf("%s #%d", instruction, runs.Add(1))
}

// pushPort is a Port whose Work says it works, waits for its gate (an instruction starting with
// "wait "), streams an artifact and completes.
func pushPort() a2aport.Port {
	return funcport.New(func(ctx context.Context, w a2aport.Work, t *funcport.Turn) (a2aport.Outcome, error) {
		t.Working("working on " + w.Instruction)
		if strings.HasPrefix(w.Instruction, "wait ") {
			select {
			case <-gate(w.Instruction):
			case <-ctx.Done():
				return a2aport.Outcome{}, ctx.Err()
			}
		}
		t.AppendText("answer", "answer", "the answer")
		return a2aport.Outcome{Content: "done: " + w.Instruction}, nil
	}, funcport.Options{Label: "push"})
}

func callerOf(r *http.Request) (string, error) {
	token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	name, known := strings.CutSuffix(token, "-token")
	if !ok || !known || name == "" {
		return "", errors.New("unknown caller")
	}
	return name, nil
}

// servePush serves pushPort with push on, callers by bearer token; it returns the base URL.
func servePush(t *testing.T, push *facade.PushOptions) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	handler, err := facade.New(pushPort(), facade.Options{BaseURL: base, Authenticate: callerOf, Push: push})
	if err != nil {
		t.Fatal(err)
	}
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: handler}}
	srv.Start()
	t.Cleanup(srv.Close)
	return base
}

type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// pushClient is a2a-go's client of caller on the facade's A2A 1.0 interface of binding.
func pushClient(t *testing.T, base, binding, caller string) *a2aclient.Client {
	t.Helper()
	ctx := t.Context()
	card, err := (&agentcard.Resolver{CardParser: a2av0.NewAgentCardParser()}).Resolve(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	if !card.Capabilities.PushNotifications {
		t.Fatal("the card does not offer push notifications")
	}
	only := *card
	only.SupportedInterfaces = nil
	for _, iface := range card.SupportedInterfaces {
		if string(iface.ProtocolBinding) == binding && strings.HasPrefix(string(iface.ProtocolVersion), "1.") {
			only.SupportedInterfaces = append(only.SupportedInterfaces, iface)
		}
	}
	hc := &http.Client{Transport: bearer{caller + "-token"}}
	c, err := a2aclient.NewFromCard(ctx, &only, a2aclient.WithJSONRPCTransport(hc), a2aclient.WithRESTTransport(hc))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Destroy() })
	return c
}

// delivery is one POST a webhook received.
type delivery struct {
	header http.Header
	body   []byte
	at     time.Time
}

// receiver is a webhook: it records what it is sent and answers as answer says (nil: 200).
type receiver struct {
	srv    *httptest.Server
	got    chan delivery
	calls  atomic.Int32
	answer func(n int32, w http.ResponseWriter) bool // true: answered
	mu     sync.Mutex
	ids    []string // the PushIDHeader of every call, answered or not
}

func newReceiver(t *testing.T, answer func(n int32, w http.ResponseWriter) bool) *receiver {
	t.Helper()
	rc := &receiver{got: make(chan delivery, 100), answer: answer}
	rc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc.mu.Lock()
		rc.ids = append(rc.ids, r.Header.Get(facade.PushIDHeader))
		n := rc.calls.Add(1)
		rc.mu.Unlock()
		body, _ := io.ReadAll(r.Body)
		if rc.answer != nil && rc.answer(n, w) {
			return
		}
		rc.got <- delivery{header: r.Header.Clone(), body: body, at: time.Now()}
	}))
	t.Cleanup(rc.srv.Close)
	return rc
}

// until reads deliveries until one whose body says the task completed.
func (rc *receiver) until(t *testing.T, within time.Duration) []delivery {
	t.Helper()
	var all []delivery
	deadline := time.After(within)
	for {
		select {
		case d := <-rc.got:
			all = append(all, d)
			if bytes.Contains(d.body, []byte(`"TASK_STATE_COMPLETED"`)) || bytes.Contains(d.body, []byte(`"completed"`)) {
				return all
			}
		case <-deadline:
			t.Fatalf("the webhook had %d deliveries and no completed task within %v", len(all), within)
		}
	}
}

// counts are the outcomes Observe was told.
type counts struct {
	mu sync.Mutex
	n  map[facade.PushOutcome]int
}

func (c *counts) observe(o facade.PushOutcome) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n = map[facade.PushOutcome]int{}
	}
	c.n[o]++
}

func (c *counts) get(o facade.PushOutcome) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[o]
}

// waitFor polls cond for up to 5 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("%s: not within 5 s", what)
}

func startTask(t *testing.T, c *a2aclient.Client, instruction string, cfg *a2a.PushConfig) *a2a.Task {
	t.Helper()
	res, err := c.SendMessage(t.Context(), &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart(instruction)),
		Config: &a2a.SendMessageConfig{ReturnImmediately: true, PushConfig: cfg}})
	if err != nil {
		t.Fatal(err)
	}
	task, ok := res.(*a2a.Task)
	if !ok {
		t.Fatalf("SendMessage() = %T, want a task", res)
	}
	return task
}

// TestPushDelivers: over A2A 1.0 JSON-RPC and HTTP+JSON, a caller registers a webhook for its
// running task (Create, Get, List), and the webhook receives the task's events in order, each a
// StreamResponse, with the token and the authentication the configuration asked for, up to the
// completed status; a webhook given with the message gets the task's first event too; Delete
// leaves none.
func TestPushDelivers(t *testing.T) {
	t.Parallel()
	for _, binding := range []string{"JSONRPC", "HTTP+JSON"} {
		t.Run(binding, func(t *testing.T) {
			t.Parallel()
			rc := newReceiver(t, nil)
			var seen counts
			base := servePush(t, &facade.PushOptions{AllowedWebhooks: []string{rc.srv.URL}, Observe: seen.observe})
			alice := pushClient(t, base, binding, "alice")
			ctx := t.Context()

			instruction := unique("wait deliver " + binding)
			task := startTask(t, alice, instruction, nil)
			created, err := alice.CreateTaskPushConfig(ctx, &a2a.PushConfig{TaskID: task.ID, ID: "hook", URL: rc.srv.URL + "/hook?k=1", Token: "tok-" + binding,
				Auth: &a2a.PushAuthInfo{Scheme: "bearer", Credentials: "webhook-secret"}})
			if err != nil {
				t.Fatal(err)
			}
			if created.ID != "hook" || created.TaskID != task.ID {
				t.Fatalf("CreateTaskPushConfig() = %+v", created)
			}
			if got, err := alice.GetTaskPushConfig(ctx, &a2a.GetTaskPushConfigRequest{TaskID: task.ID, ID: "hook"}); err != nil || got.URL != rc.srv.URL+"/hook?k=1" {
				t.Fatalf("GetTaskPushConfig() = %+v, %v", got, err)
			}
			if list, err := alice.ListTaskPushConfigs(ctx, &a2a.ListTaskPushConfigRequest{TaskID: task.ID}); err != nil || len(list) != 1 {
				t.Fatalf("ListTaskPushConfigs() = %+v, %v", list, err)
			}
			if _, err := alice.GetTaskPushConfig(ctx, &a2a.GetTaskPushConfigRequest{TaskID: task.ID, ID: "none"}); !errors.Is(err, a2a.ErrTaskNotFound) {
				t.Errorf("GetTaskPushConfig(unknown config) = %v, want task not found", err)
			}
			released := time.Now()
			close(gate(instruction))
			all := rc.until(t, 5*time.Second)
			t.Logf("%d deliveries; the completed status %v after the Work was let go", len(all), all[len(all)-1].at.Sub(released))
			var states []string
			ids := map[string]bool{}
			for _, d := range all {
				if id := d.header.Get(facade.PushIDHeader); id == "" || ids[id] {
					t.Errorf("a delivery's %s is %q: empty, or another's", facade.PushIDHeader, id)
				} else {
					ids[id] = true
				}
				if d.header.Get("X-A2A-Notification-Token") != "tok-"+binding || d.header.Get("A2A-Notification-Token") != "tok-"+binding {
					t.Errorf("token headers %q, %q", d.header.Get("X-A2A-Notification-Token"), d.header.Get("A2A-Notification-Token"))
				}
				if d.header.Get("Authorization") != "Bearer webhook-secret" || d.header.Get("Content-Type") != "application/a2a+json" {
					t.Errorf("Authorization %q, Content-Type %q", d.header.Get("Authorization"), d.header.Get("Content-Type"))
				}
				var sr a2a.StreamResponse
				if err := json.Unmarshal(d.body, &sr); err != nil {
					t.Fatalf("a delivery is not a StreamResponse: %v: %s", err, d.body)
				}
				if sr.Event.TaskInfo().TaskID != task.ID {
					t.Errorf("a delivery names task %q", sr.Event.TaskInfo().TaskID)
				}
				switch ev := sr.Event.(type) {
				case *a2a.TaskStatusUpdateEvent:
					states = append(states, string(ev.Status.State))
				case *a2a.TaskArtifactUpdateEvent:
					states = append(states, "artifact")
				}
			}
			if len(states) == 0 || states[len(states)-1] != string(a2a.TaskStateCompleted) || !strings.Contains(strings.Join(states, " "), "artifact") {
				t.Errorf("the webhook saw %v, want the artifact, then completed last", states)
			}

			// A webhook given with the message: the task's first event (the task itself) too.
			instruction2 := unique("wait with the message " + binding)
			task2 := startTask(t, alice, instruction2, &a2a.PushConfig{URL: rc.srv.URL + "/second", Token: "second"})
			close(gate(instruction2))
			all2 := rc.until(t, 5*time.Second)
			var first a2a.StreamResponse
			if err := json.Unmarshal(all2[0].body, &first); err != nil {
				t.Fatal(err)
			}
			if got, ok := first.Event.(*a2a.Task); !ok || got.ID != task2.ID {
				t.Errorf("the first delivery is %T, want the task", first.Event)
			}

			if err := alice.DeleteTaskPushConfig(ctx, &a2a.DeleteTaskPushConfigRequest{TaskID: task.ID, ID: "hook"}); err != nil {
				t.Fatal(err)
			}
			if list, err := alice.ListTaskPushConfigs(ctx, &a2a.ListTaskPushConfigRequest{TaskID: task.ID}); err != nil || len(list) != 0 {
				t.Errorf("after Delete, ListTaskPushConfigs() = %+v, %v", list, err)
			}
			if seen.get(facade.PushFailed)+seen.get(facade.PushDropped)+seen.get(facade.PushRefused) != 0 {
				t.Errorf("outcomes %v", seen.n)
			}
		})
	}
}

// TestPushRetries: a webhook that answers 500 twice is tried again, with backoff, and gets every
// event in order; one that is down (connection refused) and comes back on the same address gets
// them too; a 4xx is not tried again.
func TestPushRetries(t *testing.T) {
	t.Parallel()
	t.Run("500 twice", func(t *testing.T) {
		t.Parallel()
		rc := newReceiver(t, func(n int32, w http.ResponseWriter) bool {
			if n <= 2 {
				w.WriteHeader(http.StatusInternalServerError)
				return true
			}
			return false
		})
		var seen counts
		base := servePush(t, &facade.PushOptions{AllowedWebhooks: []string{rc.srv.URL}, RetryBackoff: 20 * time.Millisecond, Observe: seen.observe})
		alice := pushClient(t, base, "JSONRPC", "alice")
		instruction := unique("wait retry 500")
		task := startTask(t, alice, instruction, nil)
		if _, err := alice.CreateTaskPushConfig(t.Context(), &a2a.PushConfig{TaskID: task.ID, URL: rc.srv.URL}); err != nil {
			t.Fatal(err)
		}
		close(gate(instruction))
		all := rc.until(t, 5*time.Second)
		waitFor(t, "every delivery counted", func() bool { return seen.get(facade.PushDelivered) == len(all) })
		if seen.get(facade.PushRetried) != 2 || seen.get(facade.PushFailed) != 0 {
			t.Errorf("outcomes %v, %d delivered", seen.n, len(all))
		}
		rc.mu.Lock()
		ids := slices.Clone(rc.ids)
		rc.mu.Unlock()
		if len(ids) < 4 || ids[0] == "" || ids[1] != ids[0] || ids[2] != ids[0] || ids[3] == ids[0] {
			t.Errorf("%s of the calls: %q; want the first three (one delivery, retried) the same, the next another", facade.PushIDHeader, ids)
		}
		var bodies []byte // every body, in the order received
		for _, d := range all {
			bodies = append(bodies, d.body...)
		}
		if a, c := bytes.Index(bodies, []byte("artifactUpdate")), bytes.Index(bodies, []byte("TASK_STATE_COMPLETED")); a < 0 || a > c {
			t.Errorf("the artifact is not delivered before the completed status: %s", bodies)
		}
	})
	t.Run("down then back", func(t *testing.T) {
		t.Parallel()
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		_ = ln.Close() // down: connections are refused
		var seen counts
		base := servePush(t, &facade.PushOptions{AllowedWebhooks: []string{"http://" + addr}, RetryBackoff: 50 * time.Millisecond, MaxAttempts: 10, Observe: seen.observe})
		alice := pushClient(t, base, "JSONRPC", "alice")
		instruction := unique("wait down then back")
		task := startTask(t, alice, instruction, nil)
		if _, err := alice.CreateTaskPushConfig(t.Context(), &a2a.PushConfig{TaskID: task.ID, URL: "http://" + addr + "/hook"}); err != nil {
			t.Fatal(err)
		}
		close(gate(instruction))
		waitFor(t, "a retry", func() bool { return seen.get(facade.PushRetried) > 0 })
		ln, err = net.Listen("tcp", addr)
		if err != nil {
			t.Skipf("the address was taken meanwhile: %v", err)
		}
		got := make(chan []byte, 10)
		srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			b, _ := io.ReadAll(r.Body)
			got <- b
		})}}
		srv.Start()
		t.Cleanup(srv.Close)
		for deadline := time.After(5 * time.Second); ; {
			select {
			case b := <-got:
				if bytes.Contains(b, []byte("TASK_STATE_COMPLETED")) {
					if seen.get(facade.PushFailed) != 0 {
						t.Errorf("outcomes %v", seen.n)
					}
					return
				}
			case <-deadline:
				t.Fatalf("the webhook, back, did not get the completed status: outcomes %v", seen.n)
			}
		}
	})
	t.Run("4xx is final", func(t *testing.T) {
		t.Parallel()
		rc := newReceiver(t, func(int32, http.ResponseWriter) bool { return false })
		rc.answer = func(_ int32, w http.ResponseWriter) bool { w.WriteHeader(http.StatusForbidden); return true }
		var seen counts
		base := servePush(t, &facade.PushOptions{AllowedWebhooks: []string{rc.srv.URL}, RetryBackoff: 10 * time.Millisecond, Observe: seen.observe})
		alice := pushClient(t, base, "JSONRPC", "alice")
		instruction := unique("wait forbidden")
		task := startTask(t, alice, instruction, nil)
		if _, err := alice.CreateTaskPushConfig(t.Context(), &a2a.PushConfig{TaskID: task.ID, URL: rc.srv.URL}); err != nil {
			t.Fatal(err)
		}
		close(gate(instruction))
		waitFor(t, "failures", func() bool { return seen.get(facade.PushFailed) >= 2 })
		if seen.get(facade.PushRetried) != 0 {
			t.Errorf("a 403 was tried again: %v", seen.n)
		}
	})
}

// TestPushSlowWebhook: a webhook that never answers holds nothing: a blocking SendMessage whose
// configuration names it answers with the completed task at once (a2a-go calls the sender inside
// the processing of every event), and another task's webhook is served meanwhile.
func TestPushSlowWebhook(t *testing.T) {
	t.Parallel()
	hold := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-hold:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(slow.Close)
	t.Cleanup(func() { close(hold) })
	rc := newReceiver(t, nil)
	var seen counts
	base := servePush(t, &facade.PushOptions{AllowedWebhooks: []string{slow.URL, rc.srv.URL}, Observe: seen.observe}) // the default 10 s timeout
	alice := pushClient(t, base, "JSONRPC", "alice")
	start := time.Now()
	res, err := alice.SendMessage(t.Context(), &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("at once")),
		Config: &a2a.SendMessageConfig{PushConfig: &a2a.PushConfig{URL: slow.URL + "/never"}}})
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	if task, ok := res.(*a2a.Task); !ok || task.Status.State != a2a.TaskStateCompleted {
		t.Fatalf("SendMessage() = %+v", res)
	}
	if took > 2*time.Second {
		t.Errorf("the blocking SendMessage took %v with a webhook that never answers", took)
	}
	t.Logf("blocking SendMessage with a webhook that never answers: %v", took)
	task := startTask(t, alice, "quick", &a2a.PushConfig{URL: rc.srv.URL})
	all := rc.until(t, 5*time.Second)
	t.Logf("another task's webhook got %d deliveries meanwhile (task %s)", len(all), task.ID)
}

// TestPushCallers: a caller never reaches another's webhooks: bob's Get, List, Create and Delete
// on alice's task are "task not found", in the words of an unknown task, and alice's webhook is
// still there and still delivered to; bob's list of his own task shows his alone.
func TestPushCallers(t *testing.T) {
	t.Parallel()
	rc := newReceiver(t, nil)
	base := servePush(t, &facade.PushOptions{AllowedWebhooks: []string{rc.srv.URL}})
	ctx := t.Context()
	for _, binding := range []string{"JSONRPC", "HTTP+JSON"} {
		alice, bob := pushClient(t, base, binding, "alice"), pushClient(t, base, binding, "bob")
		instruction := unique("wait alice's " + binding)
		task := startTask(t, alice, instruction, nil)
		if _, err := alice.CreateTaskPushConfig(ctx, &a2a.PushConfig{TaskID: task.ID, ID: "a", URL: rc.srv.URL + "/alice", Token: "alice-secret"}); err != nil {
			t.Fatal(err)
		}
		calls := map[string]func(id a2a.TaskID) error{
			"Get": func(id a2a.TaskID) error {
				_, err := bob.GetTaskPushConfig(ctx, &a2a.GetTaskPushConfigRequest{TaskID: id, ID: "a"})
				return err
			},
			"List": func(id a2a.TaskID) error {
				_, err := bob.ListTaskPushConfigs(ctx, &a2a.ListTaskPushConfigRequest{TaskID: id})
				return err
			},
			"Create": func(id a2a.TaskID) error {
				_, err := bob.CreateTaskPushConfig(ctx, &a2a.PushConfig{TaskID: id, ID: "a", URL: rc.srv.URL + "/bob"})
				return err
			},
			"Delete": func(id a2a.TaskID) error {
				return bob.DeleteTaskPushConfig(ctx, &a2a.DeleteTaskPushConfigRequest{TaskID: id, ID: "a"})
			},
		}
		for name, call := range calls {
			foreign, unknown := call(task.ID), call("no-such-task")
			if !errors.Is(foreign, a2a.ErrTaskNotFound) || foreign == nil || unknown == nil ||
				strings.ReplaceAll(foreign.Error(), string(task.ID), "<id>") != strings.ReplaceAll(unknown.Error(), "no-such-task", "<id>") {
				t.Errorf("%s %s: bob on alice's task: %v; on an unknown one: %v", binding, name, foreign, unknown)
			}
		}
		got, err := alice.GetTaskPushConfig(ctx, &a2a.GetTaskPushConfigRequest{TaskID: task.ID, ID: "a"})
		if err != nil || got.URL != rc.srv.URL+"/alice" || got.Token != "alice-secret" {
			t.Fatalf("alice's config after bob's calls: %+v, %v", got, err)
		}
		bobsInstruction := unique("wait bob's " + binding)
		bobs := startTask(t, bob, bobsInstruction, &a2a.PushConfig{ID: "b", URL: rc.srv.URL + "/bob"})
		if list, err := bob.ListTaskPushConfigs(ctx, &a2a.ListTaskPushConfigRequest{TaskID: bobs.ID}); err != nil || len(list) != 1 || list[0].ID != "b" {
			t.Errorf("bob's own list: %+v, %v", list, err)
		}
		close(gate(instruction))
		close(gate(bobsInstruction))
		for _, d := range rc.until(t, 5*time.Second) {
			if d.header.Get("X-A2A-Notification-Token") != "alice-secret" && d.header.Get("X-A2A-Notification-Token") != "" {
				t.Errorf("a delivery carried token %q", d.header.Get("X-A2A-Notification-Token"))
			}
		}
	}
}

// countingListener is a server that counts the connections it was offered: none means the guard
// refused before dialling anything.
func countingListener(t *testing.T) (addr string, conns *atomic.Int32) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	conns = &atomic.Int32{}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns.Add(1)
			_ = c.Close()
		}
	}()
	t.Cleanup(func() { _ = ln.Close() })
	return ln.Addr().String(), conns
}

// TestPushRefusesInternalWebhooks: without an allow-list, a webhook on the facade's own network is
// refused when registered (an address written in it, http) with invalid params, and with the
// message that names it; one whose name resolves to loopback (localhost) is registered but refused
// at the dial, nothing sent; a redirect to a loopback URL is not followed.
func TestPushRefusesInternalWebhooks(t *testing.T) {
	t.Parallel()
	addr, conns := countingListener(t)
	_, port, _ := net.SplitHostPort(addr)
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://"+addr+"/stolen", http.StatusTemporaryRedirect)
	}))
	t.Cleanup(redirector.Close)
	var seen counts
	base := servePush(t, &facade.PushOptions{AllowedWebhooks: []string{redirector.URL}, RetryBackoff: 10 * time.Millisecond, Observe: seen.observe})
	alice := pushClient(t, base, "JSONRPC", "alice")
	ctx := t.Context()
	instruction := unique("wait ssrf")
	task := startTask(t, alice, instruction, nil)
	for _, url := range []string{
		"https://" + addr + "/hook",                 // loopback
		"http://" + addr + "/hook",                  // loopback, and http
		"https://169.254.169.254/latest/meta-data/", // the cloud's metadata service
		"https://10.0.0.1/hook", "https://192.168.1.1/", "https://172.16.0.1/",
		"https://[::1]:" + port + "/", "https://[fe80::1]/", "https://[fd00::1]/", "https://0.0.0.0/", "https://224.0.0.1/",
		"https://[::ffff:127.0.0.1]/", // loopback, IPv4-mapped
		"http://example.com/hook",     // a public name, but http
		"ftp://example.com/hook", "/relative", "https://user:pass@example.com/hook",
	} {
		_, err := alice.CreateTaskPushConfig(ctx, &a2a.PushConfig{TaskID: task.ID, URL: url})
		if !errors.Is(err, a2a.ErrInvalidParams) {
			t.Errorf("CreateTaskPushConfig(%s) = %v, want invalid params", url, err)
		}
	}
	if _, err := alice.SendMessage(ctx, &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("a message with a bad webhook")),
		Config: &a2a.SendMessageConfig{PushConfig: &a2a.PushConfig{URL: "https://169.254.169.254/", Token: "never-quoted"}}}); !errors.Is(err, a2a.ErrInvalidParams) || strings.Contains(err.Error(), "never-quoted") {
		t.Errorf("SendMessage with a metadata-service webhook = %v, want invalid params (without the token)", err)
	}
	// Registered, refused when dialled: a name that resolves to loopback; and the redirect.
	for _, url := range []string{"https://localhost:" + port + "/hook", redirector.URL + "/hop"} {
		if _, err := alice.CreateTaskPushConfig(ctx, &a2a.PushConfig{TaskID: task.ID, URL: url}); err != nil {
			t.Fatalf("CreateTaskPushConfig(%s) = %v", url, err)
		}
	}
	close(gate(instruction))
	waitFor(t, "refusals and failures", func() bool { return seen.get(facade.PushRefused) >= 2 && seen.get(facade.PushFailed) >= 2 })
	if n := conns.Load(); n != 0 {
		t.Errorf("the loopback server was offered %d connections", n)
	}
	if seen.get(facade.PushRetried) != 0 || seen.get(facade.PushDelivered) != 0 {
		t.Errorf("outcomes %v: a refusal or a redirect was tried again, or delivered", seen.n)
	}
}

// TestPushOverV03: a 0.3 caller over raw JSON-RPC (tasks/pushNotificationConfig/set, /get) gets
// what 0.3 sends: the whole task, as 0.3 writes it, with the token in X-A2A-Notification-Token.
func TestPushOverV03(t *testing.T) {
	t.Parallel()
	rc := newReceiver(t, nil)
	base := servePush(t, &facade.PushOptions{AllowedWebhooks: []string{rc.srv.URL}})
	call := func(method string, params any) map[string]any {
		t.Helper()
		body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, base+facade.V03RPCPath, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer alice-token")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
			t.Fatal(err)
		}
		if out["error"] != nil {
			t.Fatalf("%s: %v", method, out["error"])
		}
		return out["result"].(map[string]any)
	}
	instruction := unique("wait over 0.3")
	task := call("message/send", map[string]any{"message": map[string]any{"kind": "message", "messageId": "m1", "role": "user",
		"parts": []any{map[string]any{"kind": "text", "text": instruction}}}, "configuration": map[string]any{"blocking": false}})
	id := task["id"].(string)
	set := call("tasks/pushNotificationConfig/set", map[string]any{"taskId": id, "pushNotificationConfig": map[string]any{"id": "h", "url": rc.srv.URL + "/v03", "token": "v03-token"}})
	if cfg, _ := set["pushNotificationConfig"].(map[string]any); cfg["url"] != rc.srv.URL+"/v03" {
		t.Fatalf("set: %v", set)
	}
	if got := call("tasks/pushNotificationConfig/get", map[string]any{"id": id, "pushNotificationConfigId": "h"}); got["taskId"] != id {
		t.Fatalf("get: %v", got)
	}
	close(gate(instruction))
	all := rc.until(t, 5*time.Second)
	last := all[len(all)-1]
	var got struct {
		Kind   string `json:"kind"`
		ID     string `json:"id"`
		Status struct {
			State string `json:"state"`
		} `json:"status"`
		Artifacts []any `json:"artifacts"`
	}
	if err := json.Unmarshal(last.body, &got); err != nil {
		t.Fatal(err)
	}
	if got.Kind != "task" || got.ID != id || got.Status.State != "completed" || len(got.Artifacts) != 1 || last.header.Get("X-A2A-Notification-Token") != "v03-token" {
		t.Errorf("0.3 delivery: %s (token %q)", last.body, last.header.Get("X-A2A-Notification-Token"))
	}
}

// TestPushRefusedCombinations: push configurations live in one process's memory unless the nodes
// share a Store (which an Outbox needs too), for tasks.
func TestPushRefusedCombinations(t *testing.T) {
	t.Parallel()
	if _, err := facade.New(pushPort(), facade.Options{BaseURL: "http://127.0.0.1:1", Push: &facade.PushOptions{}, Cluster: &a2asrv.ClusterConfig{}}); err == nil || !strings.Contains(err.Error(), "Cluster") {
		t.Errorf("New(Push with Cluster) = %v", err)
	}
	if _, err := facade.New(pushPort(), facade.Options{BaseURL: "http://127.0.0.1:1", Push: &facade.PushOptions{Outbox: (*pgcluster.PushOutbox)(nil)}}); err == nil || !strings.Contains(err.Error(), "Outbox needs Push.Store") {
		t.Errorf("New(Push.Outbox without Push.Store) = %v", err)
	}
	if _, err := facade.New(pushPort(), facade.Options{BaseURL: "http://127.0.0.1:1", Push: &facade.PushOptions{}, MessageOnly: true}); err == nil {
		t.Error("New(Push with MessageOnly) succeeded")
	}
	if _, err := facade.New(pushPort(), facade.Options{BaseURL: "http://127.0.0.1:1", Push: &facade.PushOptions{AllowedWebhooks: []string{"not an origin"}}}); err == nil {
		t.Error("New(a bad allow-list) succeeded")
	}
}
