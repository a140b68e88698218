package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509/pkix"
	"encoding/json"
	"errors"
	"io"
	"iter"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"

	"github.com/a2aport/a2aport/internal/testkit/agent"
	"github.com/a2aport/a2aport/internal/testkit/certs"
	"github.com/a2aport/a2aport/internal/testkit/logbuf"
)

// More of the A2A CLI specification's rows, as the built binary meets them on loopback: the
// shared test agent for message replies, parts and cut streams; specAgent for task list's
// filters; moreAgent, below, for what neither can do (a task in TASK_STATE_UNSPECIFIED, a
// subscription cut after its first event, an API key checked where the card puts it, a tenant,
// a certificate no system trusts). Every wait is bounded.

// moreWait bounds every wait of these tests for the binary or the agent.
const moreWait = 30 * time.Second

// moreKey is the API key moreAgent takes; it appears nowhere else, so finding it in output is a leak.
const moreKey = "k3y-5ecret-0a1b2c3d4e5f"

// moreOptions shape a moreAgent.
type moreOptions struct {
	tenant        string                    // the tenant both interfaces declare
	apiKey        *a2a.APIKeySecurityScheme // the card's one scheme: every A2A call must carry moreKey there, and only there
	tls           bool                      // served over TLS, by a certificate of an authority the test makes
	cutSubscribes int32                     // subscriptions whose connection drops after their first event
}

// moreAgent is one agent card (JSON-RPC at /rpc, then HTTP+JSON at /rest; streaming) on
// a2a-go's own server. Its executor completes any message with "done: TEXT"; "unspecified"
// and "working" first set that state and keep it until release (or, given a number, that many
// milliseconds).
type moreAgent struct {
	card     string // its URL
	cardJSON []byte
	opts     moreOptions
	gate     chan struct{}
	openGate sync.Once

	mu    sync.Mutex
	calls []moreCall

	cuts       atomic.Int32 // cuts still to make
	subscribes atomic.Int32 // subscriptions served whole
}

// moreCall is an A2A call the agent's handler saw.
type moreCall struct{ method, tenant string }

// release lets every waiting execution go on.
func (a *moreAgent) release() { a.openGate.Do(func() { close(a.gate) }) }

// seen is the calls so far.
func (a *moreAgent) seen() []moreCall {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.calls)
}

// count is how many calls of method the agent saw.
func (a *moreAgent) count(method string) int {
	n := 0
	for _, c := range a.seen() {
		if c.method == method {
			n++
		}
	}
	return n
}

func startMoreAgent(t *testing.T, opts moreOptions) *moreAgent {
	t.Helper()
	a := &moreAgent{opts: opts, gate: make(chan struct{})}
	a.cuts.Store(opts.cutSubscribes)
	t.Cleanup(a.release) // no execution outlives its test
	handler := a2asrv.NewHandler(moreExecutor{a}, a2asrv.WithCallInterceptors(moreRecorder{agent: a}))
	mux := http.NewServeMux()
	srv := httptest.NewUnstartedServer(mux)
	scheme := "http://"
	if opts.tls {
		authority := certs.NewAuthority(t, "a2aport test authority no system trusts")
		srv.TLS = &tls.Config{Certificates: []tls.Certificate{authority.Issue(t, pkix.Name{CommonName: "agent"}, net.ParseIP("127.0.0.1"))}}
		scheme = "https://"
	}
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshakes are the point
	base := scheme + srv.Listener.Addr().String()
	card := &a2a.AgentCard{
		Name: "more agent", Description: "completes what it is sent", Version: "0.1.0",
		SupportedInterfaces: []*a2a.AgentInterface{
			{URL: base + "/rpc", ProtocolBinding: a2a.TransportProtocolJSONRPC, ProtocolVersion: "1.0", Tenant: opts.tenant},
			{URL: base + "/rest", ProtocolBinding: a2a.TransportProtocolHTTPJSON, ProtocolVersion: "1.0", Tenant: opts.tenant},
		},
		Capabilities:       a2a.AgentCapabilities{Streaming: true},
		DefaultInputModes:  []string{"text/plain"},
		DefaultOutputModes: []string{"text/plain"},
		Skills:             []a2a.AgentSkill{{ID: "done", Name: "Done", Description: "completes", Tags: []string{"test"}}},
	}
	if opts.apiKey != nil {
		card.SecuritySchemes = a2a.NamedSecuritySchemes{"key": *opts.apiKey}
	}
	var err error
	if a.cardJSON, err = json.Marshal(card); err != nil {
		t.Fatal(err)
	}
	rest := http.Handler(a2asrv.NewRESTHandler(handler))
	if opts.tenant != "" {
		rest = a2asrv.NewTenantRESTHandler("/{*}", handler)
	}
	mux.Handle(a2asrv.WellKnownAgentCardPath, a2asrv.NewStaticAgentCardHandler(card))
	mux.Handle("/rpc", a.guard(a2asrv.NewJSONRPCHandler(handler)))
	mux.Handle("/rest/", a.guard(http.StripPrefix("/rest", rest)))
	if opts.tls {
		srv.StartTLS()
	} else {
		srv.Start()
	}
	t.Cleanup(srv.Close)
	a.card = base + a2asrv.WellKnownAgentCardPath
	return a
}

// guard refuses (401) an A2A call that does not carry moreKey exactly where the card's scheme
// says, and cuts the subscriptions it was told to cut.
func (a *moreAgent) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s := a.opts.apiKey; s != nil {
			if places := keyPlaces(r, s.Name); !slices.Equal(places, []string{string(s.Location)}) {
				http.Error(w, "the API key is missing or misplaced", http.StatusUnauthorized)
				return
			}
		}
		if !subscribes(r) {
			next.ServeHTTP(w, r)
			return
		}
		if a.cuts.Add(-1) < 0 {
			a.subscribes.Add(1)
			next.ServeHTTP(w, r)
			return
		}
		ctx, cancel := context.WithCancel(r.Context())
		defer cancel()
		next.ServeHTTP(&severing{ResponseWriter: w, stop: cancel}, r.WithContext(ctx))
	})
}

// keyPlaces are where a request carries moreKey under name: header, query, cookie.
func keyPlaces(r *http.Request, name string) []string {
	var places []string
	if r.Header.Get(name) == moreKey {
		places = append(places, "header")
	}
	if r.URL.Query().Get(name) == moreKey {
		places = append(places, "query")
	}
	if c, err := r.Cookie(name); err == nil && c.Value == moreKey {
		places = append(places, "cookie")
	}
	return places
}

// subscribes says the request is SubscribeToTask, in either binding (the body is put back).
func subscribes(r *http.Request) bool {
	if strings.HasSuffix(r.URL.Path, ":subscribe") {
		return true
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		return false
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	var call struct{ Method string }
	return json.Unmarshal(body, &call) == nil && call.Method == "SubscribeToTask"
}

// errSevered is what the handler's writes get once its connection was dropped.
var errSevered = errors.New("the subscription was severed on purpose")

// severing passes a stream's first event on, then drops the connection without ending the
// chunked body: the client reads an unexpected EOF.
type severing struct {
	http.ResponseWriter
	stop func()

	mu          sync.Mutex
	event, gone bool
}

func (s *severing) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.gone {
		return 0, errSevered
	}
	s.event = s.event || bytes.Contains(p, []byte("data:"))
	return s.ResponseWriter.Write(p)
}

// Flush implements [http.Flusher]: a2asrv flushes after each event.
func (s *severing) Flush() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.gone {
		return
	}
	rc := http.NewResponseController(s.ResponseWriter)
	if err := rc.Flush(); err != nil || !s.event {
		return
	}
	s.gone = true
	s.stop()
	if conn, _, err := rc.Hijack(); err == nil {
		_ = conn.Close() // dropping it is the point
	}
}

// moreRecorder notes each call's method and tenant.
type moreRecorder struct {
	a2asrv.PassthroughCallInterceptor
	agent *moreAgent
}

func (m moreRecorder) Before(ctx context.Context, cc *a2asrv.CallContext, _ *a2asrv.Request) (context.Context, any, error) {
	m.agent.mu.Lock()
	m.agent.calls = append(m.agent.calls, moreCall{cc.Method(), cc.Tenant()})
	m.agent.mu.Unlock()
	return ctx, nil, nil
}

// moreExecutor runs moreAgent's tasks.
type moreExecutor struct{ agent *moreAgent }

func (x moreExecutor) Execute(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		var text strings.Builder
		for _, p := range ec.Message.Parts {
			if s, ok := p.Content.(a2a.Text); ok {
				text.WriteString(string(s))
			}
		}
		words := strings.Fields(text.String())
		if ec.StoredTask == nil && !yield(a2a.NewSubmittedTask(ec, ec.Message), nil) {
			return
		}
		if len(words) > 0 && (words[0] == "unspecified" || words[0] == "working") {
			state := a2a.TaskStateWorking
			if words[0] == "unspecified" {
				state = a2a.TaskStateUnspecified
			}
			if !yield(a2a.NewStatusUpdateEvent(ec, state, nil), nil) || !x.agent.held(ctx, words[1:]) {
				return
			}
		}
		if yield(a2a.NewArtifactEvent(ec, a2a.NewTextPart("done: "+text.String())), nil) {
			yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCompleted, nil), nil)
		}
	}
}

// held waits for the release, or the milliseconds args name, at most moreWait; false: the
// execution was cancelled.
func (a *moreAgent) held(ctx context.Context, args []string) bool {
	limit := moreWait
	if len(args) > 0 {
		if d, err := time.ParseDuration(args[0] + "ms"); err == nil {
			limit = d
		}
	}
	timer := time.NewTimer(limit)
	defer timer.Stop()
	select {
	case <-a.gate:
	case <-timer.C:
	case <-ctx.Done():
		return false
	}
	return true
}

func (moreExecutor) Cancel(_ context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCanceled, nil), nil)
	}
}

// background is the binary running while the test watches its output.
type background struct {
	cmd            *exec.Cmd
	stdout, stderr logbuf.Buffer
	done           chan struct{}
}

// runInBackground starts the binary with args.
func runInBackground(t *testing.T, env []string, args ...string) *background {
	t.Helper()
	b := &background{cmd: command(t, args...), done: make(chan struct{})}
	b.cmd.Env = append(b.cmd.Env, env...)
	b.cmd.Stdout, b.cmd.Stderr = &b.stdout, &b.stderr
	if err := b.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = b.cmd.Wait(); close(b.done) }()
	t.Cleanup(func() {
		select {
		case <-b.done:
		default:
			_ = b.cmd.Process.Kill()
			<-b.done
		}
	})
	return b
}

// until waits, at most moreWait, for cond; the binary ending first fails the test.
func (b *background) until(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(moreWait)
	for !cond() {
		select {
		case <-b.done:
			if cond() {
				return
			}
			t.Fatalf("the binary ended (exit %d) before %s:\n%s%s", b.cmd.ProcessState.ExitCode(), what, b.stdout.String(), b.stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s within %v:\n%s%s", what, moreWait, b.stdout.String(), b.stderr.String())
		}
	}
}

// exit is the binary's exit status, once it ends (at most moreWait).
func (b *background) exit(t *testing.T) int {
	t.Helper()
	select {
	case <-b.done:
		return b.cmd.ProcessState.ExitCode()
	case <-time.After(moreWait):
		t.Fatalf("the binary did not end:\n%s%s", b.stdout.String(), b.stderr.String())
	}
	return -1
}

// runCLIStdin is runCLI with stdin.
func runCLIStdin(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := command(t, args...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil && cmd.ProcessState.ExitCode() < 0 {
		t.Fatalf("%v: %v", args, err)
	}
	return out.String(), errOut.String(), cmd.ProcessState.ExitCode()
}

// TestSpecMoreMessageReply: SEND_003, a message and no task: printed (text: its fields and
// blocks; json: the SendMessageResponse's message; --stream: one line), exit 0, no warning, on
// an agent that streams and on one that does not; an agent whose card says it streams but that
// refuses to is an error at once, never a hang.
func TestSpecMoreMessageReply(t *testing.T) {
	t.Parallel()
	poll := agent.Variant{Version: "1.0", Binding: "HTTP+JSON", Streaming: false}
	for _, card := range []string{server.CardURL(stream), server.CardURL(poll)} {
		out, errOut, code := runCLI(t, nil, "send", "-a", card, "message for the spec")
		if code != exitOK || !regexp.MustCompile(`(?m)^Message: \S+\nContext: \S+\n`).MatchString(out) ||
			!strings.Contains(out, "Text:\nplain reply\n\n") || !strings.Contains(out, "Data:\n{\n  \"kind\": \"message\"\n}\n\n") || errOut != "" {
			t.Errorf("%s, -o text: exit %d\n%s%s", card, code, out, errOut)
		}
		out, errOut, code = runCLI(t, nil, "send", "-a", card, "-o", "json", "message in json")
		doc := one(t, out)
		if parts, _ := dig(doc, "message", "parts").([]any); code != exitOK || len(parts) != 2 || doc["task"] != nil {
			t.Errorf("%s, -o json: exit %d\n%s%s", card, code, out, errOut)
		}
		out, errOut, code = runCLI(t, nil, "send", "-a", card, "-o", "json", "--stream", "message streamed")
		if line := one(t, out); code != exitOK || dig(line, "message", "role") != "ROLE_AGENT" {
			t.Errorf("%s, --stream -o json: exit %d\n%s%s", card, code, out, errOut)
		}
	}
	out, errOut, code := runCLI(t, nil, "send", "-a", server.CardURL(stream), "-o", "json", "--stream", "nostream please")
	if msg, _ := dig(one(t, out), "error", "message").(string); code != exitError || !strings.Contains(msg, "stream") {
		t.Errorf("a refused stream: exit %d\n%s%s", code, out, errOut)
	}
}

// TestSpecMoreParts: SEND_004 (a file part by name, media type and size, a file by URL, a data
// part as indented JSON, text as text, in send's and task get's text), SEND_005 (--media-type
// before any part is a usage error; bound to its part; inferred without it), SEND_006 (--data -
// reads stdin, the parts in order).
func TestSpecMoreParts(t *testing.T) {
	t.Parallel()
	card := server.CardURL(stream)
	t.Run("rendered", func(t *testing.T) {
		t.Parallel()
		out, errOut, code := runCLI(t, nil, "send", "-a", card, "artifacts for the spec")
		task := regexp.MustCompile(`(?m)^Task: (\S+)$`).FindStringSubmatch(out)
		if code != exitOK || task == nil {
			t.Fatalf("send: exit %d\n%s%s", code, out, errOut)
		}
		got, _, code := runCLI(t, nil, "task", "get", "-a", card, task[1])
		streamed, _, streamCode := runCLI(t, nil, "send", "-a", card, "--stream", "artifacts streamed")
		for name, o := range map[string]string{"send": out, "task get": got, "send --stream": streamed} {
			for _, want := range []string{"Content:\nhello artifacts\n\n", "File: bytes.bin, application/octet-stream, 5 bytes\n",
				"File: report.pdf, application/pdf, at https://example.com/report.pdf\n", "Data:\n{\n  \"answer\": 42,\n  \"ok\": true\n}\n\n"} {
				if !strings.Contains(o, want) {
					t.Errorf("%s lacks %q:\n%s", name, want, o)
				}
			}
			if n := strings.Count(o, "\nArtifact: "); n != 4 {
				t.Errorf("%s: %d artifacts, want 4:\n%s", name, n, o)
			}
		}
		if code != exitOK || streamCode != exitOK {
			t.Errorf("task get: exit %d; send --stream: exit %d", code, streamCode)
		}
	})
	t.Run("media type first", func(t *testing.T) {
		t.Parallel()
		out, errOut, code := runCLI(t, nil, "send", "-a", card, "--media-type", "text/plain", "--text", "files")
		if code != exitUsage || out != "" || !strings.Contains(errOut, "--media-type") || !strings.Contains(errOut, "none came before") {
			t.Errorf("--media-type before any part: exit %d\n%s%s", code, out, errOut)
		}
		out, errOut, code = runCLI(t, nil, "send", "-a", card, "-o", "json", "--media-type", "text/plain", "--text", "files")
		if code != exitUsage {
			t.Errorf("-o json, --media-type before any part: exit %d\n%s%s", code, out, errOut)
		}
		t.Run("its error object", func(t *testing.T) {
			if !strings.HasPrefix(out, "{") || dig(one(t, out), "error", "code") != errUsage {
				t.Error("with -o json given, a flag that does not parse is reported as text on stderr and stdout is empty: " +
					"the error object (A2ACLI_ERR_USAGE) of SPEC.md §11.4/Appendix B is missing (commands.go parseFlags, speccli.go parseAgentArgs)")
			}
		})
	})
	t.Run("in order, stdin too", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		doc, blob := filepath.Join(dir, "notes.json"), filepath.Join(dir, "blob.bin")
		if os.WriteFile(doc, []byte(`{"a":1}`), 0o600) != nil || os.WriteFile(blob, []byte{1, 2, 3}, 0o600) != nil {
			t.Fatal("writing the parts")
		}
		out, errOut, code := runCLIStdin(t, `{"from": "stdin"}`, "send", "-a", card, "-o", "json",
			"--text", "files in order", "--data", "-", "--file", doc, "--file", blob, "--media-type", "application/pdf")
		arts, _ := dig(one(t, out), "task", "artifacts").([]any)
		want := "data {\"from\":\"stdin\"}\nraw notes.json application/json 7\nraw blob.bin application/pdf 3"
		if code != exitOK || len(arts) != 1 || dig(arts[0], "parts") == nil || dig(arts[0].(map[string]any)["parts"].([]any)[0], "text") != want {
			t.Errorf("--data - then two files: exit %d, want the agent to see %q\n%s%s", code, want, out, errOut)
		}
	})
}

// TestSpecMoreInterrupt: TASK_POLL_002, Ctrl-C while waiting exits 130 and leaves the task
// going, the task's id printed before the wait (task get --wait) and kept (send).
func TestSpecMoreInterrupt(t *testing.T) {
	t.Parallel()
	card := server.CardURL(stream)
	t.Run("task get --wait", func(t *testing.T) {
		t.Parallel()
		instruction := "hold for the wait interrupt " + strconv.FormatInt(time.Now().UnixNano(), 36) // its own, run after run
		id := sentTask(t, nil, card, instruction, "--async")
		run := runInBackground(t, nil, "task", "get", "-a", card, id, "--wait", "--poll-interval", "100ms")
		run.until(t, "the waiting line", func() bool { return strings.Contains(run.stderr.String(), "waiting for task "+id+" ") })
		if err := run.cmd.Process.Signal(syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		if code := run.exit(t); code != exitInterrupted {
			t.Errorf("exit %d, want %d:\n%s", code, exitInterrupted, run.stderr.String())
		}
		if server.Cancelled(instruction) {
			t.Error("Ctrl-C of a wait cancelled the task")
		}
		if _, _, code := runCLI(t, nil, "task", "cancel", "-a", card, id); code != exitOK {
			t.Errorf("task cancel afterwards: exit %d", code)
		}
	})
	t.Run("send", func(t *testing.T) {
		t.Parallel()
		instruction := "hold for the send interrupt " + strconv.FormatInt(time.Now().UnixNano(), 36)
		run := runInBackground(t, nil, "send", "-a", card, instruction)
		ctx, cancel := context.WithTimeout(context.Background(), moreWait)
		defer cancel()
		if err := server.WaitStarted(ctx, instruction); err != nil {
			t.Fatal(err)
		}
		time.Sleep(300 * time.Millisecond) // the first events reach the binary
		before := run.stdout.String() + run.stderr.String()
		if err := run.cmd.Process.Signal(syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		code := run.exit(t)
		task := regexp.MustCompile(`\(task (\S+), context \S+\)`).FindStringSubmatch(run.stderr.String())
		if code != exitInterrupted || task == nil {
			t.Fatalf("exit %d (want %d), the task named on stderr: %v\n%s", code, exitInterrupted, task, run.stderr.String())
		}
		if server.Cancelled(instruction) {
			t.Error("Ctrl-C of the specification's send cancelled the task")
		}
		if _, _, code := runCLI(t, nil, "task", "cancel", "-a", card, task[1]); code != exitOK {
			t.Errorf("task cancel afterwards: exit %d", code)
		}
		t.Run("the id printed before the wait", func(t *testing.T) {
			if !strings.Contains(before, task[1]) {
				t.Error("send (the specification's, no --stream) prints nothing of the task before it waits: its id shows only " +
					"in the error after Ctrl-C, where SPEC.md §9.3 wants the taskId already printed (sendspec.go runSpecSend/exchange.show)")
			}
		})
	})
}

// TestSpecMoreUnspecified: TASK_POLL_003, a task in TASK_STATE_UNSPECIFIED is reported as such
// and is neither an end nor a wait: task get --wait goes on asking (and --timeout still ends it,
// exit 5), send's stream goes on reading, until the task completes.
func TestSpecMoreUnspecified(t *testing.T) {
	t.Parallel()
	a := startMoreAgent(t, moreOptions{})
	id := sentTask(t, nil, a.card, "unspecified", "--async")
	var out, errOut string
	var code int
	for deadline := time.Now().Add(moreWait); ; time.Sleep(50 * time.Millisecond) {
		if out, errOut, code = runCLI(t, nil, "task", "get", "-a", a.card, id, "-o", "json"); dig(one(t, out), "status", "state") == "TASK_STATE_UNSPECIFIED" {
			break
		}
		if time.Now().After(deadline) || code != exitOK {
			t.Fatalf("the task never showed TASK_STATE_UNSPECIFIED: exit %d\n%s%s", code, out, errOut)
		}
	}
	if out, _, code := runCLI(t, nil, "task", "get", "-a", a.card, id); code != exitOK || !strings.Contains(out, "State: UNSPECIFIED\n") {
		t.Errorf("task get, text: exit %d\n%s", code, out)
	}
	out, errOut, code = runCLI(t, nil, "task", "get", "-a", a.card, id, "--wait", "--poll-interval", "50ms", "--timeout", "400ms", "-o", "json")
	if e := one(t, out); code != exitTimeout || dig(e, "error", "code") != errTimeout {
		t.Errorf("--wait --timeout on an UNSPECIFIED task: exit %d\n%s%s", code, out, errOut)
	}
	out, errOut, code = runCLI(t, nil, "send", "-a", a.card, "-o", "json", "--stream", "unspecified 400")
	lines := jsonLines(t, out)
	if code != exitOK || len(lines) < 3 || !strings.Contains(out, `"state":"TASK_STATE_UNSPECIFIED"`) ||
		dig(lines[len(lines)-1], "statusUpdate", "status", "state") != "TASK_STATE_COMPLETED" {
		t.Errorf("send --stream through UNSPECIFIED: exit %d\n%s%s", code, out, errOut)
	}
	asked := a.count("GetTask")
	run := runInBackground(t, nil, "task", "get", "-a", a.card, id, "--wait", "--poll-interval", "50ms", "-o", "json")
	run.until(t, "three more GetTask calls", func() bool { return a.count("GetTask") >= asked+3 })
	a.release()
	if code := run.exit(t); code != exitOK || dig(one(t, run.stdout.String()), "status", "state") != "TASK_STATE_COMPLETED" {
		t.Errorf("--wait until the release: exit %d\n%s%s", code, run.stdout.String(), run.stderr.String())
	}
}

// TestSpecMoreStreamFallback: TASK_POLL_004, send's stream ends early (cleanly, or its
// connection drops) once the task is named: it asks with GetTask and reports the task's end,
// its artifacts whole.
func TestSpecMoreStreamFallback(t *testing.T) {
	t.Parallel()
	card := server.CardURL(stream)
	out, errOut, code := runCLI(t, nil, "send", "-a", card, "-o", "json", "--poll-interval", "100ms", "cutstream for the spec")
	doc := one(t, out)
	if code != exitOK || dig(doc, "task", "status", "state") != "TASK_STATE_COMPLETED" || !strings.Contains(out, "after cut") || !strings.Contains(errOut, "ended early") {
		t.Errorf("cutstream: exit %d\n%s%s", code, out, errOut)
	}
	out, errOut, code = runCLI(t, nil, "send", "-a", card, "-o", "json", "--stream", "--poll-interval", "100ms", "breakstream for the spec")
	lines := jsonLines(t, out)
	if code != exitOK || len(lines) < 2 || dig(lines[len(lines)-1], "task", "status", "state") != "TASK_STATE_COMPLETED" ||
		!strings.Contains(out, "part-12") || !strings.Contains(errOut, "ended early") {
		t.Errorf("breakstream --stream: exit %d\n%s%s", code, out, errOut)
	}
	out, errOut, code = runCLI(t, nil, "send", "-a", card, "--poll-interval", "100ms", "cutstream in text")
	if code != exitOK || !strings.Contains(out, "State: COMPLETED\n") || !strings.Contains(out, "after cut") {
		t.Errorf("cutstream, text: exit %d\n%s%s", code, out, errOut)
	}
	t.Run("the notice", func(t *testing.T) {
		if strings.Contains(errOut, "<nil>") {
			t.Error("a stream that ended cleanly is reported as \"ended early (<nil>)\": fmt.Sprint of a nil error is \"<nil>\", " +
				"never the empty string orDefault replaces (sendspec.go exchange.follow)")
		}
	})
}

// TestSpecMoreResubscribe: TASK_SUBSCRIBE_002, a subscription whose connection drops is
// subscribed to again, its first event the whole task again, and followed to the end, over
// either binding.
func TestSpecMoreResubscribe(t *testing.T) {
	t.Parallel()
	for _, binding := range []string{"JSONRPC", "HTTP+JSON"} {
		t.Run(binding, func(t *testing.T) {
			t.Parallel()
			a := startMoreAgent(t, moreOptions{cutSubscribes: 1})
			id := sentTask(t, nil, a.card, "working", "--async")
			run := runInBackground(t, nil, "task", "subscribe", "-a", a.card, "--transport", binding, id, "--stream", "-o", "json")
			run.until(t, "a second subscription", func() bool {
				return a.subscribes.Load() == 1 && strings.Count(run.stdout.String(), `{"task":{`) == 2
			})
			a.release()
			code := run.exit(t)
			lines := jsonLines(t, run.stdout.String())
			if code != exitOK || dig(lines[len(lines)-1], "statusUpdate", "status", "state") != "TASK_STATE_COMPLETED" ||
				!strings.Contains(run.stderr.String(), "subscribing again") || a.count("SubscribeToTask") != 2 {
				t.Errorf("exit %d, %d subscriptions:\n%s%s", code, a.count("SubscribeToTask"), run.stdout.String(), run.stderr.String())
			}
		})
	}
}

// TestSpecMoreAPIKey: AUTH_001, --api-key (or A2ACLI_API_KEY) goes where the card's API key
// scheme says, header, query or cookie, and nowhere else; none is CREDENTIALS_MISSING, a wrong
// one AUTH_FAILED (exit 4); --debug never shows it; a card with no such scheme refuses the flag.
func TestSpecMoreAPIKey(t *testing.T) {
	t.Parallel()
	for _, where := range []a2a.APIKeySecuritySchemeLocation{a2a.APIKeySecuritySchemeLocationHeader, a2a.APIKeySecuritySchemeLocationQuery, a2a.APIKeySecuritySchemeLocationCookie} {
		t.Run(string(where), func(t *testing.T) {
			t.Parallel()
			a := startMoreAgent(t, moreOptions{apiKey: &a2a.APIKeySecurityScheme{Name: "X-Agent-Key", Location: where}})
			out, errOut, code := runCLI(t, nil, "send", "-a", a.card, "-o", "json", "--api-key", moreKey, "--debug", "key by flag")
			if code != exitOK || dig(one(t, out), "task", "status", "state") != "TASK_STATE_COMPLETED" {
				t.Errorf("--api-key: exit %d\n%s%s", code, out, errOut)
			}
			if strings.Contains(out+errOut, moreKey) || !strings.Contains(errOut, "[REDACTED]") {
				t.Errorf("--debug showed the key, or redacted nothing:\n%s", errOut)
			}
			if out, errOut, code := runCLI(t, []string{"A2ACLI_API_KEY=" + moreKey}, "send", "-a", a.card, "-o", "json", "--transport", "HTTP+JSON", "key by env"); code != exitOK {
				t.Errorf("A2ACLI_API_KEY over HTTP+JSON: exit %d\n%s%s", code, out, errOut)
			}
			out, _, code = runCLI(t, nil, "send", "-a", a.card, "-o", "json", "no key")
			if code != exitAuth || dig(one(t, out), "error", "code") != errCredentialsMissing {
				t.Errorf("no key: exit %d\n%s", code, out)
			}
			out, _, code = runCLI(t, nil, "send", "-a", a.card, "-o", "json", "--api-key", "wrong", "a wrong key")
			if code != exitAuth || dig(one(t, out), "error", "code") != errAuthFailed {
				t.Errorf("a wrong key: exit %d\n%s", code, out)
			}
		})
	}
	bare := startMoreAgent(t, moreOptions{})
	if out, _, code := runCLI(t, nil, "send", "-a", bare.card, "-o", "json", "--api-key", moreKey, "nowhere to put it"); code != exitUsage || strings.Contains(out, moreKey) {
		t.Errorf("--api-key for a card without an API key scheme: exit %d\n%s", code, out)
	}
}

// TestSpecMoreInsecure: AUTH_003, an agent whose certificate no system trusts is refused
// (exit 3, A2ACLI_ERR_UNREACHABLE) unless --insecure, which works and warns on stderr; whether
// the card is read from the agent or from a file (then only the A2A calls meet the certificate).
func TestSpecMoreInsecure(t *testing.T) {
	t.Parallel()
	a := startMoreAgent(t, moreOptions{tls: true})
	file := filepath.Join(t.TempDir(), "card.json")
	if err := os.WriteFile(file, a.cardJSON, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Run("card from the agent", func(t *testing.T) {
		t.Parallel()
		out, errOut, code := runCLI(t, nil, "send", "-a", a.card, "-o", "json", "over TLS, verified")
		if e := one(t, out); code != exitUnreachable || dig(e, "error", "code") != errUnreachable {
			t.Errorf("without --insecure: exit %d\n%s%s", code, out, errOut)
		}
		out, errOut, code = runCLI(t, nil, "send", "-a", a.card, "-o", "json", "--insecure", "over TLS, unverified")
		if code != exitOK || dig(one(t, out), "task", "status", "state") != "TASK_STATE_COMPLETED" || !strings.Contains(errOut, "WARNING: --insecure") {
			t.Errorf("--insecure: exit %d\n%s%s", code, out, errOut)
		}
	})
	t.Run("card from a file", func(t *testing.T) {
		t.Parallel()
		out, errOut, code := runCLI(t, nil, "send", "-a", file, "-o", "json", "--insecure", "over TLS, unverified")
		if code != exitOK || dig(one(t, out), "task", "status", "state") != "TASK_STATE_COMPLETED" || !strings.Contains(errOut, "WARNING: --insecure") {
			t.Errorf("--insecure: exit %d\n%s%s", code, out, errOut)
		}
		out, errOut, code = runCLI(t, nil, "send", "-a", file, "-o", "json", "over TLS, verified")
		if code == exitOK || strings.Contains(out, `"task"`) {
			t.Fatalf("without --insecure the certificate was taken: exit %d\n%s%s", code, out, errOut)
		}
		t.Run("refused as unreachable", func(t *testing.T) {
			if e := one(t, out); code != exitUnreachable || dig(e, "error", "code") != errUnreachable {
				t.Error("a certificate that does not verify on an A2A call is A2ACLI_ERR_INTERNAL, exit 1; SPEC.md §11.6 and " +
					"Appendix D make TLS A2ACLI_ERR_UNREACHABLE, exit 3: classify (errenvelope.go) knows *net.OpError and " +
					"*net.DNSError but not *tls.CertificateVerificationError (a2a-go wraps it, inside *url.Error, so errors.As finds it)")
			}
		})
	})
}

// TestSpecMoreTenant: TX_003, the chosen interface's tenant is in every request (JSON-RPC's
// params, HTTP+JSON's path), exactly as declared; a card that declares none sends none.
func TestSpecMoreTenant(t *testing.T) {
	t.Parallel()
	for _, tenant := range []string{"acme", ""} {
		a := startMoreAgent(t, moreOptions{tenant: tenant})
		for _, binding := range []string{"JSONRPC", "HTTP+JSON"} {
			id := sentTask(t, []string{"A2ACLI_TRANSPORT=" + binding}, a.card, "working", "--async")
			a.release()
			if out, errOut, code := runCLI(t, nil, "task", "get", "-a", a.card, "--transport", binding, id, "--wait", "--poll-interval", "50ms"); code != exitOK {
				t.Errorf("tenant %q, %s, task get: exit %d\n%s%s", tenant, binding, code, out, errOut)
			}
			if out, errOut, code := runCLI(t, nil, "send", "-a", a.card, "--transport", binding, "-o", "json", "--stream", "streamed"); code != exitOK {
				t.Errorf("tenant %q, %s, send --stream: exit %d\n%s%s", tenant, binding, code, out, errOut)
			}
		}
		calls := a.seen()
		methods := map[string]bool{}
		for _, c := range calls {
			methods[c.method] = true
			if c.tenant != tenant {
				t.Errorf("%s carried tenant %q, want %q", c.method, c.tenant, tenant)
			}
		}
		if !methods["SendMessage"] || !methods["SendStreamingMessage"] || !methods["GetTask"] {
			t.Errorf("tenant %q: the agent saw %v", tenant, calls)
		}
	}
}

// TestSpecMoreListFilters: TASK_LIST_001, task list's --status and --context-id, alone and
// together, in text and json.
func TestSpecMoreListFilters(t *testing.T) {
	t.Parallel()
	a := startSpecAgent(t)
	auth := []string{"A2ACLI_BEARER=" + specToken, "XDG_CONFIG_HOME=" + t.TempDir()}
	out, errOut, code := runCLI(t, auth, "send", "-a", a.card, "-o", "json", "echo first")
	done, _ := dig(one(t, out), "task", "id").(string)
	shared, _ := dig(one(t, out), "task", "contextId").(string)
	if code != exitOK || done == "" || shared == "" {
		t.Fatalf("send: exit %d\n%s%s", code, out, errOut)
	}
	out, _, _ = runCLI(t, auth, "send", "-a", a.card, "-o", "json", "--context-id", shared, "input")
	waiting, _ := dig(one(t, out), "task", "id").(string)
	out, _, _ = runCLI(t, auth, "send", "-a", a.card, "-o", "json", "input")
	elsewhere, _ := dig(one(t, out), "task", "id").(string)
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{nil, []string{done, waiting, elsewhere}},
		{[]string{"--status", "input-required"}, []string{waiting, elsewhere}},
		{[]string{"--status", "TASK_STATE_COMPLETED"}, []string{done}},
		{[]string{"--context-id", shared}, []string{done, waiting}},
		{[]string{"--context-id", shared, "--status", "input_required"}, []string{waiting}},
	} {
		out, errOut, code := runCLI(t, auth, append([]string{"task", "list", "-a", a.card, "-o", "json"}, tc.args...)...)
		var got []string
		tasks, _ := dig(one(t, out), "tasks").([]any)
		for _, task := range tasks {
			id, _ := dig(task, "id").(string)
			got = append(got, id)
		}
		slices.Sort(got)
		want := slices.Sorted(slices.Values(tc.want))
		if code != exitOK || !slices.Equal(got, want) {
			t.Errorf("task list %v: exit %d, tasks %v, want %v\n%s", tc.args, code, got, want, errOut)
		}
	}
	t.Run("a state that does not exist", func(t *testing.T) {
		out, errOut, code := runCLI(t, auth, "task", "list", "-a", a.card, "-o", "json", "--status", "finished")
		if code == exitOK && dig(one(t, out), "tasks") == nil {
			t.Error("--status with a name that is no task state (\"finished\") is sent on as TASK_STATE_FINISHED and lists " +
				"nothing, exit 0, where a mistyped filter is a usage error (exit 2, SPEC.md §11.6): runTaskList (tasklist.go) checks no state name")
		}
		if code != exitUsage || dig(one(t, out), "error", "code") != errUsage {
			t.Errorf("--status finished: exit %d\n%s%s", code, out, errOut)
		}
	})
	out, _, code = runCLI(t, auth, "task", "list", "-a", a.card, "--context-id", shared, "--status", "completed")
	if code != exitOK || !strings.Contains(out, "Tasks: 1\n") || !strings.Contains(out, "Task: "+done+"\n") || strings.Contains(out, waiting) {
		t.Errorf("task list in text: exit %d\n%s", code, out)
	}
}
