package tests

import (
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"

	"github.com/a2aport/a2aport"

	"github.com/a2aport/a2aport/adapter"
	"github.com/a2aport/a2aport/conformance"
	"github.com/a2aport/a2aport/facade"
	"github.com/a2aport/a2aport/internal/testkit/agent"
)

// serveFacade serves port as an A2A agent on loopback and returns its card URL.
func serveFacade(t *testing.T, port a2aport.Port, opts facade.Options) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	opts.BaseURL = "http://" + ln.Addr().String()
	handler, err := facade.New(port, opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: handler}}
	srv.Start()
	t.Cleanup(srv.Close)
	return opts.BaseURL + facade.CardPath
}

// innerPort is the Port the facade tests serve: a2aport's adapter in front of the test agent.
func innerPort(t *testing.T) a2aport.Port {
	t.Helper()
	p, err := adapter.New(a2aport.Options{AgentCardURL: server.CardURL(agent.Variants()[0])})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	return p
}

// facadeBindings are the facade's four interfaces, pinned one at a time.
var facadeBindings = []struct{ version, binding string }{
	{"1.0", "JSONRPC"}, {"1.0", "HTTP+JSON"}, {"0.3", "JSONRPC"}, {"0.3", "HTTP+JSON"},
}

// TestFacadeRoundTrip: Port → facade → A2A → a2aport's adapter → Port passes the conformance
// suite, over each of the facade's interfaces. The Port behind the facade is a2aport's own
// adapter in front of the test agent, so a Work crosses A2A twice.
func TestFacadeRoundTrip(t *testing.T) {
	t.Parallel()
	for _, b := range facadeBindings {
		t.Run(b.version+" "+b.binding, func(t *testing.T) {
			t.Parallel()
			conformance.Run(t, func(t *testing.T, opts conformance.FixtureOptions) conformance.Fixture {
				inner := innerPort(t)
				card := serveFacade(t, inner, facade.Options{Name: "facade"})
				p := newPort(t, implementations[0], a2aport.Options{AgentCardURL: card, ProtocolVersion: b.version, ProtocolBinding: a2aport.Binding(b.binding)})
				return agentFixture(t, p, "facade-owner", "facade", opts)
			})
		})
	}
}

// TestFacadeTurns: streamed chunks arrive merged, a question is asked through the facade and
// answered, a failure keeps its message, over each interface.
func TestFacadeTurns(t *testing.T) {
	t.Parallel()
	inner := innerPort(t)
	card := serveFacade(t, inner, facade.Options{Name: "facade"})
	for _, b := range facadeBindings {
		t.Run(b.version+" "+b.binding, func(t *testing.T) {
			t.Parallel()
			p := newPort(t, implementations[0], a2aport.Options{AgentCardURL: card, ProtocolVersion: b.version, ProtocolBinding: a2aport.Binding(b.binding)})
			out, err := p.Submit(testContext(t), newWork("alice", "chunks 4 through the facade"))
			if err != nil || !strings.Contains(out.Content, "part-1 part-2 part-3 part-4") {
				t.Errorf("chunks: %+v, %v", out, err)
			}
			w := newWork("alice", "input through the facade")
			rec := newRecorder()
			done := submitAsync(testContext(t), p, w, rec)
			asked, _ := rec.waitFor(testContext(t), t, 0, func(ev a2aport.Event) bool { return ev.Type == a2aport.EventInputRequested })
			if asked.Input.Prompt != "What is your name?" {
				t.Errorf("prompt %q", asked.Input.Prompt)
			}
			if err := p.RespondInput(testContext(t), w.ID, w.OwnerID, asked.Input.InputRequestID, a2aport.InputResponse{Text: "Ada"}); err != nil {
				t.Fatal(err)
			}
			if r := await(testContext(t), t, done); r.err != nil || !strings.Contains(r.out.Content, "Hello, Ada!") {
				t.Errorf("answered: %+v, %v", r.out, r.err)
			}
			_, err = p.Submit(testContext(t), newWork("alice", "fail through the facade"))
			if !errors.Is(err, a2aport.ErrTaskFailed) || !strings.Contains(err.Error(), "failed on purpose") {
				t.Errorf("fail: %v", err)
			}
		})
	}
}

// bearerCaller authenticates callers by their bearer token: "alice-token" is alice, and so on.
func bearerCaller(r *http.Request) (string, error) {
	token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	name, known := strings.CutSuffix(token, "-token")
	if !ok || !known || name == "" {
		return "", errors.New("unknown caller")
	}
	return name, nil
}

// bearer is a transport that sends token.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// TestFacadeCallers: a2a-go's own client (1.0 JSON-RPC and HTTP+JSON) against the facade; the card
// is public, the A2A endpoints need a known caller, and one caller never sees or cancels another's
// task.
func TestFacadeCallers(t *testing.T) {
	t.Parallel()
	inner := innerPort(t)
	card := serveFacade(t, inner, facade.Options{Name: "facade", Authenticate: bearerCaller})
	ctx := testContext(t)
	resolved, err := agentcard.DefaultResolver.Resolve(ctx, strings.TrimSuffix(card, facade.CardPath))
	if err != nil {
		t.Fatal(err)
	}
	for _, binding := range []a2a.TransportProtocol{a2a.TransportProtocolJSONRPC, a2a.TransportProtocolHTTPJSON} {
		t.Run(string(binding), func(t *testing.T) {
			client := func(token string) *a2aclient.Client {
				only := *resolved
				for _, iface := range resolved.SupportedInterfaces {
					if iface.ProtocolBinding == binding && iface.ProtocolVersion == a2a.Version {
						only.SupportedInterfaces = []*a2a.AgentInterface{iface}
					}
				}
				hc := &http.Client{Transport: bearer{token}}
				c, err := a2aclient.NewFromCard(ctx, &only, a2aclient.WithJSONRPCTransport(hc), a2aclient.WithRESTTransport(hc))
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { _ = c.Destroy() })
				return c
			}
			alice, bob, nobody := client("alice-token"), client("bob-token"), client("nobody")
			instruction := "hold for alice " + string(binding)
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
			if _, err := bob.GetTask(ctx, &a2a.GetTaskRequest{ID: task.ID}); err == nil {
				t.Error("bob read alice's task")
			}
			if _, err := bob.CancelTask(ctx, &a2a.CancelTaskRequest{ID: task.ID}); err == nil {
				t.Error("bob cancelled alice's task")
			}
			if _, err := nobody.GetTask(ctx, &a2a.GetTaskRequest{ID: task.ID}); err == nil {
				t.Error("an unknown caller was let in")
			}
			got, err := alice.CancelTask(ctx, &a2a.CancelTaskRequest{ID: task.ID})
			if err != nil || got.Status.State != a2a.TaskStateCanceled {
				t.Errorf("alice's CancelTask() = %+v, %v", got, err)
			}
			deadline := time.Now().Add(5 * time.Second)
			for !server.Cancelled(instruction) && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			if !server.Cancelled(instruction) {
				t.Error("the cancel did not reach the agent behind the facade")
			}
		})
	}
	// a2aport's adapter without credentials: the card reads, the Work is refused.
	p := newPort(t, implementations[0], a2aport.Options{AgentCardURL: card})
	if _, err := p.Submit(ctx, newWork("x", "complete")); !errors.Is(err, a2aport.ErrAuthRequired) {
		t.Errorf("without credentials: %v, want A2A_AUTH_REQUIRED", err)
	}
}

// TestFacadeBadInput: malformed JSON-RPC, an unknown method, an empty message and an oversized body
// get a2a-go's typed errors, and none of them starts a Work.
func TestFacadeBadInput(t *testing.T) {
	t.Parallel()
	var submits atomic.Int32
	inner := innerPort(t)
	unsub := inner.Subscribe(func(a2aport.Event) { submits.Add(1) })
	defer unsub()
	card := serveFacade(t, inner, facade.Options{Name: "facade"})
	endpoint := strings.TrimSuffix(card, facade.CardPath) + facade.JSONRPCPath
	post := func(body string) (int, string) {
		resp, err := http.Post(endpoint, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = resp.Body.Close() }()
		data, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(data)
	}
	for _, tc := range []struct{ name, body, want string }{
		{"not JSON", `{"jsonrpc":`, `"code":-32700`},
		{"unknown method", `{"jsonrpc":"2.0","id":"1","method":"Frobnicate","params":{}}`, `"code":-32601`},
		{"no parts", `{"jsonrpc":"2.0","id":"1","method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[]}}}`, `"error"`},
	} {
		if _, body := post(tc.body); !strings.Contains(body, tc.want) {
			t.Errorf("%s: answer %s, want %s", tc.name, body, tc.want)
		}
	}
	// Past the 32 MiB limit the body is cut: a2a-go answers with a JSON-RPC error, and nothing runs.
	if _, body := post(`{"jsonrpc":"2.0","id":"1","method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"` +
		strings.Repeat("x", 33<<20) + `"}]}}}`); !strings.Contains(body, `"error"`) {
		t.Errorf("an oversized body was answered %.200s", body)
	}
	if n := submits.Load(); n != 0 {
		t.Errorf("bad input started Works: %d events", n)
	}
}

// stubModes is a Port whose description lists other input modes than the adapter it wraps.
type stubModes struct {
	a2aport.Port
	modes []string
}

func (s stubModes) Describe() a2aport.Description {
	d := s.Port.Describe()
	d.Capabilities.InputModes = s.modes
	return d
}

// TestFacadeFiles: a file goes through when the Port's input modes take its media type, and is
// refused with a2a-go's unsupported-content-type error when they do not.
func TestFacadeFiles(t *testing.T) {
	t.Parallel()
	inner := innerPort(t)
	if _, err := inner.Start(testContext(t)); err != nil {
		t.Fatal(err)
	}
	file := a2aport.InputPart{Type: "file", MIME: "application/octet-stream", Filename: "blob.bin", URL: "data:application/octet-stream;base64,AAEC"}
	for _, tc := range []struct {
		modes []string
		ok    bool
	}{{[]string{"text/plain", "application/octet-stream"}, true}, {[]string{"text/plain", "application/*"}, true}, {[]string{"text/plain"}, false}} {
		card := serveFacade(t, stubModes{inner, tc.modes}, facade.Options{Name: "facade"})
		p := newPort(t, implementations[0], a2aport.Options{AgentCardURL: card})
		w := newWork("alice", "files please")
		w.InputParts = []a2aport.InputPart{file}
		out, err := p.Submit(testContext(t), w)
		switch {
		case tc.ok && (err != nil || !strings.Contains(out.Content, "blob.bin")):
			t.Errorf("modes %v: %+v, %v; want the file described", tc.modes, out, err)
		case !tc.ok && (err == nil || !strings.Contains(err.Error(), "not among the input modes")):
			t.Errorf("modes %v: %v; want the file refused", tc.modes, err)
		}
	}
}

// TestFacadeMessageOnly: each message is answered with a message; a Work that asks a question is
// cancelled and the call fails with a typed error.
func TestFacadeMessageOnly(t *testing.T) {
	t.Parallel()
	inner := innerPort(t)
	card := serveFacade(t, inner, facade.Options{Name: "facade", MessageOnly: true})
	p := newPort(t, implementations[0], a2aport.Options{AgentCardURL: card})
	out, err := p.Submit(testContext(t), newWork("alice", "complete as a message"))
	if err != nil || !strings.Contains(out.Content, "echo: complete as a message") {
		t.Errorf("Submit() = %+v, %v", out, err)
	}
	const asking = "input for a message-only facade"
	if _, err := p.Submit(testContext(t), newWork("alice", asking)); err == nil || !strings.Contains(err.Error(), "cannot relay") {
		t.Errorf("a question: %v, want the call to fail", err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !server.Cancelled(asking) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if !server.Cancelled(asking) {
		t.Error("the Work that asked was not cancelled at the agent")
	}
}
