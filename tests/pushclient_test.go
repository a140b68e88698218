package tests

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a2aport/a2aport"

	"github.com/a2aport/a2aport/adapter"
	"github.com/a2aport/a2aport/internal/testkit/agent"
)

// The client side of push notifications (Options.PushWebhookURL): a2a-go's server, with its own
// push sender, is the agent; the test serves the webhook with adapter.PushHandler, as an
// application would. Every Work waits PushPollInterval = one minute between reads of its task
// unless a push wakes it, so a Work that ends within the test's 20 s ended by pushes.

// webhook is the application's push endpoint in a test: adapter.PushHandler for a port that is
// made after it (the port's options name the webhook's URL), and what it was sent.
type webhook struct {
	srv *httptest.Server

	mu       sync.Mutex
	port     a2aport.Port
	tokens   []string // the notification token of every push that came
	bodies   [][]byte // and its body
	statuses []int    // what each was answered
}

func startWebhook(t *testing.T) *webhook {
	t.Helper()
	h := &webhook{}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.mu.Lock()
		port := h.port
		h.mu.Unlock()
		rw := &statusWriter{ResponseWriter: w}
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		adapter.PushHandler(port).ServeHTTP(rw, r)
		h.mu.Lock()
		h.bodies = append(h.bodies, body)
		h.tokens = append(h.tokens, r.Header.Get("A2A-Notification-Token"))
		h.statuses = append(h.statuses, rw.status)
		h.mu.Unlock()
	}))
	t.Cleanup(h.srv.Close)
	return h
}

func (h *webhook) serve(p a2aport.Port) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.port = p
}

// received is how many pushes came, and the statuses they were answered with.
func (h *webhook) received() (int, []int, []string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.statuses), append([]int(nil), h.statuses...), append([]string(nil), h.tokens...)
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}

// pushPort is a port of impl on variant v of agents whose Works wait for pushes to hook.
func pushPort(t *testing.T, impl implementation, agents *agent.Server, v agent.Variant, hook *webhook, opts a2aport.Options) a2aport.Port {
	t.Helper()
	opts.AgentCardURL = agents.CardURL(v)
	opts.PushWebhookURL = hook.srv.URL + "/a2a-push"
	if opts.PushPollInterval == 0 {
		opts.PushPollInterval = time.Minute
	}
	p := newPort(t, impl, opts)
	hook.serve(p)
	return p
}

// methodCount counts the requests of one A2A method the agents received on variant v.
func methodCount(agents *agent.Server, v agent.Variant, method string) int {
	n := 0
	for _, r := range agents.Requests() {
		if r.Variant == v.Name() && r.A2AMethod == method {
			n++
		}
	}
	return n
}

// TestPushFollowsWorks: over every binding and version, a Work whose agent pushes ends by its
// pushes with the outcome a stream gives, its message sent once and no stream opened; an input
// request is asked and answered as over a stream.
func TestPushFollowsWorks(t *testing.T) {
	for _, impl := range implementations {
		for _, v := range agent.PushVariants() {
			t.Run(impl.name+"/"+v.Name(), func(t *testing.T) {
				ctx := testContext(t)
				agents := startAgents(t)
				hook := startWebhook(t)
				p := pushPort(t, impl, agents, v, hook, a2aport.Options{})
				streamed := newPort(t, impl, a2aport.Options{AgentCardURL: agents.CardURL(v)})
				for _, instruction := range []string{"chunks 5", "artifacts", "slow 300"} {
					w := newWork("alice", instruction)
					pushed, err := p.Submit(ctx, w)
					if err != nil {
						t.Fatalf("%s: Submit() = %v", instruction, err)
					}
					want, err := streamed.Submit(ctx, newWork("alice", instruction))
					if err != nil {
						t.Fatalf("%s: Submit() over a stream = %v", instruction, err)
					}
					if pushed.Text() != want.Text() || pushed.Content != want.Content || !reflect.DeepEqual(pushed.Artifacts, want.Artifacts) {
						t.Errorf("%s: pushed outcome = %q %q %+v,\nstreamed = %q %q %+v", instruction, pushed.Text(), pushed.Content, pushed.Artifacts, want.Text(), want.Content, want.Artifacts)
					}
				}
				n, statuses, _ := hook.received()
				taken := 0
				for _, s := range statuses {
					switch s {
					case http.StatusOK:
						taken++
					case http.StatusUnauthorized: // a push that came after its Work had read the end
					default:
						t.Errorf("a push of the agent was answered %d, want 200 (or 401 once its Work has ended)", s)
					}
				}
				if taken == 0 {
					t.Fatal("no push of the agent was taken")
				}
				sends, streams, gets := methodCount(agents, v, "SendMessage"), methodCount(agents, v, "SendStreamingMessage"), methodCount(agents, v, "GetTask")
				if sends != 3 || streams != 3 {
					t.Errorf("the agent got %d plain sends and %d streams, want 3 each: the pushed Works' and the streamed ones'", sends, streams)
				}
				if gets == 0 || gets > n {
					t.Errorf("%d GetTask for %d pushes: want at least one, and no more than one per push", gets, n)
				}

				w := newWork("bob", "input needed")
				rec := newRecorder()
				done := submitAsync(ctx, p, w, rec)
				ev, _ := rec.waitFor(ctx, t, 0, isType(a2aport.EventInputRequested))
				if st := p.Status(w.ID, w.OwnerID); st.State != a2aport.StateInputRequired {
					t.Errorf("Status() = %q, want input_required", st.State)
				}
				if err := p.RespondInput(ctx, w.ID, w.OwnerID, ev.Input.InputRequestID, a2aport.InputResponse{Text: "Ada"}); err != nil {
					t.Fatalf("RespondInput() = %v", err)
				}
				if r := await(ctx, t, done); r.err != nil || !strings.Contains(r.out.Content, "Ada") {
					t.Errorf("the answered Work ended with %q, %v; want its content to name Ada", r.out.Content, r.err)
				}
			})
		}
	}
}

// TestPushRefusals: a request to the webhook that is no push of an active Work (no token,
// another token, a body that names another task or none) is refused with its status and
// changes nothing: the Work does not read its task for it, and ends as it would have. A real
// push, with the token the agent was given, makes it read the task once.
func TestPushRefusals(t *testing.T) {
	v := agent.PushVariants()[0]
	for _, impl := range implementations {
		t.Run(impl.name, func(t *testing.T) {
			ctx := testContext(t)
			agents := startAgents(t)
			hook := startWebhook(t)
			p := pushPort(t, impl, agents, v, hook, a2aport.Options{})
			w := newWork("alice", "hold")
			rec := newRecorder()
			done := submitAsync(ctx, p, w, rec)
			rec.waitFor(ctx, t, 0, func(ev a2aport.Event) bool { return ev.Type == a2aport.EventActivity && ev.Text == "holding" })
			_, _, tokens := hook.received()
			token := tokens[0]
			task := hook.firstTask(t)
			gets := settled(t, agents, v, hook)
			body := func(task string) string {
				return fmt.Sprintf(`{"statusUpdate":{"taskId":%q,"contextId":"c","status":{"state":"TASK_STATE_WORKING"}}}`, task)
			}
			for _, c := range []struct {
				name, token, body string
				status            int
			}{
				{"no token", "", body(task), http.StatusUnauthorized},
				{"another token", "x" + token, body(task), http.StatusUnauthorized},
				{"another task", token, body("not-" + task), http.StatusBadRequest},
				{"no task", token, `{"statusUpdate":{}}`, http.StatusBadRequest},
				{"not JSON", token, `<push/>`, http.StatusBadRequest},
			} {
				if got := postPush(ctx, t, hook.srv.URL, c.token, c.body); got != c.status {
					t.Errorf("%s: answered %d, want %d", c.name, got, c.status)
				}
			}
			if resp, err := http.Get(hook.srv.URL); err == nil {
				_ = resp.Body.Close()
				if resp.StatusCode != http.StatusMethodNotAllowed {
					t.Errorf("GET of the webhook = %d, want 405", resp.StatusCode)
				}
			}
			time.Sleep(200 * time.Millisecond) // time for a read the refusals must not have caused
			if after := methodCount(agents, v, "GetTask"); after != gets {
				t.Errorf("refused pushes made the Work read its task %d times", after-gets)
			}
			if got := postPush(ctx, t, hook.srv.URL, token, body(task)); got != http.StatusOK {
				t.Fatalf("a push with the Work's token was answered %d, want 200", got)
			}
			deadline := time.Now().Add(5 * time.Second)
			for methodCount(agents, v, "GetTask") == gets && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			if after := methodCount(agents, v, "GetTask"); after != gets+1 {
				t.Errorf("a push made the Work read its task %d times, want once", after-gets)
			}
			if st := p.Status(w.ID, w.OwnerID); st.State != a2aport.StateWorking {
				t.Errorf("Status() = %q, want working", st.State)
			}
			if _, err := p.Cancel(ctx, w.ID, w.OwnerID); err != nil {
				t.Fatalf("Cancel() = %v", err)
			}
			if r := await(ctx, t, done); !errors.Is(r.err, a2aport.ErrWorkCancelled) {
				t.Errorf("the held Work ended with %v, want WORK_CANCELLED", r.err)
			}
			if got := postPush(ctx, t, hook.srv.URL, token, body(task)); got != http.StatusUnauthorized {
				t.Errorf("a push for an ended Work was answered %d, want 401", got)
			}
		})
	}
}

// TestPushLateOrNever: an agent whose pushes never reach the application (its webhook is down)
// still has its Works followed, by a read every PushPollInterval.
func TestPushLateOrNever(t *testing.T) {
	v := agent.PushVariants()[1]
	for _, impl := range implementations {
		t.Run(impl.name, func(t *testing.T) {
			ctx := testContext(t)
			agents := startAgents(t)
			hook := startWebhook(t)
			hook.srv.Close() // nothing listens where the agent pushes
			p := pushPort(t, impl, agents, v, hook, a2aport.Options{PushPollInterval: 50 * time.Millisecond})
			out, err := p.Submit(ctx, newWork("alice", "slow 1000"))
			if err != nil || !strings.Contains(out.Content, "slow done") {
				t.Fatalf("Submit() = %q, %v; want slow done", out.Content, err)
			}
			if gets := methodCount(agents, v, "GetTask"); gets < 2 {
				t.Errorf("%d GetTask: the Work did not read its task every PushPollInterval", gets)
			}
		})
	}
}

// TestPushNeedsCardAndWebhook: without a webhook the push variants stream as before, and an
// agent that does not offer pushes is streamed or polled with a webhook set.
func TestPushNeedsCardAndWebhook(t *testing.T) {
	for _, impl := range implementations {
		t.Run(impl.name, func(t *testing.T) {
			ctx := testContext(t)
			agents := startAgents(t)
			v := agent.PushVariants()[0]
			p := newPort(t, impl, a2aport.Options{AgentCardURL: agents.CardURL(v)})
			if _, err := p.Submit(ctx, newWork("alice", "chunks 2")); err != nil {
				t.Fatal(err)
			}
			if streams := methodCount(agents, v, "SendStreamingMessage"); streams != 1 {
				t.Errorf("without a webhook: %d streams, want 1", streams)
			}
			hook := startWebhook(t)
			for _, plain := range []agent.Variant{agent.Variants()[0], agent.Variants()[1]} {
				q := pushPort(t, impl, agents, plain, hook, a2aport.Options{PollInterval: a2aport.MinPollInterval})
				if _, err := q.Submit(ctx, newWork("alice", "chunks 2")); err != nil {
					t.Fatalf("%s: %v", plain.Name(), err)
				}
			}
			if n, _, _ := hook.received(); n != 0 {
				t.Errorf("agents that offer no pushes were asked for %d", n)
			}
		})
	}
	for _, impl := range implementations {
		for _, bad := range []string{"https://user:secret@me.example/push", "/push", "ftp://me.example/push"} {
			if _, err := impl.new(a2aport.Options{AgentCardURL: "https://agent.example/", PushWebhookURL: bad}); !errors.Is(err, a2aport.ErrInvalidOptions) {
				t.Errorf("%s: webhook %q: %v, want INVALID_OPTIONS", impl.name, bad, err)
			}
		}
	}
}

// settled waits until neither the agent's pushes nor the Work's reads of its task have changed
// for 300 ms, and returns how many reads there were.
func settled(t *testing.T, agents *agent.Server, v agent.Variant, hook *webhook) int {
	t.Helper()
	deadline := time.Now().Add(testTimeout)
	last, lastPushes, since := -1, -1, time.Now()
	for time.Now().Before(deadline) {
		gets := methodCount(agents, v, "GetTask")
		pushes, _, _ := hook.received()
		if gets != last || pushes != lastPushes {
			last, lastPushes, since = gets, pushes, time.Now()
		} else if time.Since(since) >= 300*time.Millisecond {
			return gets
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the Work never settled")
	return 0
}

// firstTask is the task the first push names (a2a-go's sender pushes 1.0's StreamResponse).
func (h *webhook) firstTask(t *testing.T) string {
	t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	var first struct {
		Task         struct{ ID string }
		StatusUpdate struct{ TaskID string }
	}
	if len(h.bodies) == 0 || json.Unmarshal(h.bodies[0], &first) != nil {
		t.Fatalf("no readable push came: %q", h.bodies)
	}
	if first.Task.ID != "" {
		return first.Task.ID
	}
	return first.StatusUpdate.TaskID
}

// postPush posts body to the webhook with token and returns the status it was answered.
func postPush(ctx context.Context, t *testing.T, url, token, body string) int {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url+"/a2a-push", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("X-A2A-Notification-Token", token)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	return resp.StatusCode
}
