package tests

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a2aport/a2aport"

	"github.com/a2aport/a2aport/adapter"
	"github.com/a2aport/a2aport/facade"
	"github.com/a2aport/a2aport/funcport"
	"github.com/a2aport/a2aport/gateway"
	"github.com/a2aport/a2aport/internal/testkit/agent"
	"github.com/a2aport/a2aport/internal/testkit/logbuf"
)

// serveGateway serves g's handler on loopback at base (its listener already open).
func serveGateway(t *testing.T, ln net.Listener, g *gateway.Gateway) {
	t.Helper()
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: g}}
	srv.Start()
	t.Cleanup(func() {
		srv.Close()
		_ = g.Close()
	})
}

func portTo(t *testing.T, opts a2aport.Options) a2aport.Port {
	t.Helper()
	p, err := adapter.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func getText(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestGatewayCatalogue: a gateway of four real backends (a2a-go test agents over 1.0 and 0.3, an
// @a2a-js/sdk agent, one whose card the gateway does not read) and one that is down at start:
// the card's skills are the available backends' own, namespaced; a message is routed by a skill
// in its metadata, by a backend named there or in a data part (which the backend does not see),
// by the default; an unknown backend is refused with invalid params naming the valid ones and
// creates nothing; /backends shows states and leaks no secret; the backend that was down comes
// up, and its skill joins the card; when it goes away again, it leaves the card.
func TestGatewayCatalogue(t *testing.T) {
	t.Parallel()
	sdk := startSDKAgent(t)
	v10, v03 := agent.Variants()[0], agent.Variants()[4]
	// The late backend: an address nothing listens on yet, where a test agent starts later.
	reserve, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	lateAddr := reserve.Addr().String()
	_ = reserve.Close()
	lateCard := strings.Replace(server.CardURL(v10), strings.TrimPrefix(server.URL(), "http://"), lateAddr, 1)
	secretCard := "http://user:pass-SECRET-1@127.0.0.1:1/.well-known/agent-card.json?key=SECRET-2"

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	g, err := gateway.New(gateway.Options{
		Facade: facade.Options{BaseURL: base, Name: "the gateway"},
		Backends: []gateway.Backend{
			{Name: "agent", Port: portTo(t, a2aport.Options{AgentCardURL: server.CardURL(v10)}), CardURL: server.CardURL(v10)},
			{Name: "legacy", Port: portTo(t, a2aport.Options{AgentCardURL: server.CardURL(v03)}), CardURL: server.CardURL(v03)},
			{Name: "sdk", Port: portTo(t, a2aport.Options{AgentCardURL: sdk.Cards["v1-jsonrpc-stream"]}), CardURL: sdk.Cards["v1-jsonrpc-stream"]},
			{Name: "plain", Port: portTo(t, a2aport.Options{AgentCardURL: server.CardURL(agent.Variants()[2])}), Description: "a Port whose card is not read"},
			{Name: "late", Port: portTo(t, a2aport.Options{AgentCardURL: lateCard}), CardURL: lateCard},
			{Name: "secretive", Port: portTo(t, a2aport.Options{AgentCardURL: "http://127.0.0.1:1/.well-known/agent-card.json?key=SECRET-2", Token: "SECRET-3"}), CardURL: secretCard},
			{Name: "off", Port: portTo(t, a2aport.Options{AgentCardURL: server.CardURL(v10)}), Disabled: true},
		},
		Default:      "agent",
		StartTimeout: 3 * time.Second, RetryMin: 50 * time.Millisecond, RetryMax: 200 * time.Millisecond, ProbeInterval: 100 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	g.Start(testContext(t))
	serveGateway(t, ln, g)

	skills := func() []string {
		_, body := getText(t, base+facade.CardPath)
		var card struct{ Skills []struct{ ID string } }
		if err := json.Unmarshal([]byte(body), &card); err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, s := range card.Skills {
			ids = append(ids, s.ID)
		}
		return ids
	}
	if got, want := strings.Join(skills(), " "), "agent/scenarios legacy/scenarios sdk/echo plain"; got != want {
		t.Errorf("card skills %q, want %q", got, want)
	}

	rpc := func(metadata, parts string) string {
		body := `{"jsonrpc":"2.0","id":"g","method":"SendMessage","params":{"message":{"messageId":"` + time.Now().Format(time.RFC3339Nano) +
			`","role":"ROLE_USER","parts":[` + parts + `]` + metadata + `}}}`
		_, answer := versionedPost(t, base+facade.EndpointPath, "1.0", body)
		return answer
	}
	for _, c := range []struct{ name, metadata, parts, want string }{
		{"skill in metadata", `,"metadata":{"skill":"legacy/scenarios"}`, `{"text":"complete by skill"}`, "echo: complete by skill"},
		{"skill of the JS SDK agent", `,"metadata":{"skill":"sdk/echo"}`, `{"text":"complete by the sdk skill"}`, "echo: complete by the sdk skill"},
		{"backend in metadata", `,"metadata":{"backend":"plain"}`, `{"text":"complete by name"}`, "echo: complete by name"},
		{"backend in a data part", ``, `{"text":"files"},{"data":{"backend":"agent","x":1}}`, `data {\"x\":1}`},
		{"default", ``, `{"text":"complete by default"}`, "echo: complete by default"},
	} {
		if got := rpc(c.metadata, c.parts); !strings.Contains(got, c.want) || !strings.Contains(got, "TASK_STATE_COMPLETED") {
			t.Errorf("%s: %s", c.name, got)
		}
	}
	// The refused messages carry a trace of their own, which no request to the agent may carry
	// (other tests use the same agent at the same time; the gateway probes it too); an accepted
	// message with another trace shows that a trace that reaches the agent is seen.
	traced := func(metadata, traceparent string) string {
		body := `{"jsonrpc":"2.0","id":"g","method":"SendMessage","params":{"message":{"messageId":"` + time.Now().Format(time.RFC3339Nano) +
			`","role":"ROLE_USER","parts":[{"text":"complete never"}]` + metadata + `}}}`
		_, answer := postJSON(t, base+facade.EndpointPath, http.Header{"A2A-Version": {"1.0"}, "Traceparent": {traceparent}}, body)
		return answer
	}
	reached := func(trace string) bool {
		for _, r := range server.Requests() {
			if strings.Contains(r.Header.Get("traceparent"), trace) {
				return true
			}
		}
		return false
	}
	const acceptedTrace, refusedTrace = "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf", "b0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
	if got := traced(``, "00-"+acceptedTrace+"-00f067aa0ba902b7-01"); !strings.Contains(got, "TASK_STATE_COMPLETED") || !reached(acceptedTrace) {
		t.Errorf("an accepted message's trace did not reach the agent: %s", got)
	}
	for _, c := range []struct{ name, metadata, want string }{
		{"unknown backend", `,"metadata":{"backend":"nope"}`, `unknown backend \"nope\": the backends are agent, legacy, sdk, plain`},
		{"unknown skill", `,"metadata":{"skill":"agent/nope"}`, `unknown skill \"agent/nope\"`},
		{"unavailable backend", `,"metadata":{"backend":"secretive"}`, `the backend \"secretive\" is unavailable`},
		{"disabled backend", `,"metadata":{"backend":"off"}`, `the backend \"off\" is disabled`},
	} {
		got := traced(c.metadata, "00-"+refusedTrace+"-00f067aa0ba902b7-01")
		if !strings.Contains(got, "-32602") || !strings.Contains(got, c.want) {
			t.Errorf("%s: %s", c.name, got)
		}
	}
	if reached(refusedTrace) {
		t.Error("refused messages reached the agent")
	}

	status, body := getText(t, base+"/backends")
	if status != http.StatusOK {
		t.Fatalf("/backends: %d", status)
	}
	for _, secret := range []string{"SECRET", "pass-", "user:"} {
		if strings.Contains(body, secret) {
			t.Errorf("/backends shows %q: %s", secret, body)
		}
	}
	var listed struct{ Backends []gateway.BackendStatus }
	if err := json.Unmarshal([]byte(body), &listed); err != nil {
		t.Fatal(err)
	}
	states := map[string]gateway.BackendStatus{}
	for _, b := range listed.Backends {
		states[b.Name] = b
	}
	if b := states["legacy"]; b.State != gateway.StateAvailable || b.ProtocolVersion != "0.3" || b.Binding != "JSONRPC" {
		t.Errorf("legacy: %+v", b)
	}
	if b := states["secretive"]; b.State != gateway.StateUnavailable || b.Reason == "" || b.CardURL != "http://127.0.0.1:1/.well-known/agent-card.json" {
		t.Errorf("secretive: %+v", b)
	}
	if states["off"].State != gateway.StateDisabled || states["late"].State != gateway.StateUnavailable {
		t.Errorf("off %+v, late %+v", states["off"], states["late"])
	}

	late, err := agent.StartAt(lateAddr)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(strings.Join(skills(), " "), "late/scenarios") {
		if time.Now().After(deadline) {
			t.Fatalf("the late backend never joined the card: %v", skills())
		}
		time.Sleep(50 * time.Millisecond)
	}
	if got := rpc(`,"metadata":{"skill":"late/scenarios"}`, `{"text":"complete late"}`); !strings.Contains(got, "echo: complete late") {
		t.Errorf("late backend: %s", got)
	}

	// The late backend goes away again: the probe finds it, and its skill leaves the card.
	late.Close()
	deadline = time.Now().Add(10 * time.Second)
	for strings.Contains(strings.Join(skills(), " "), "late/scenarios") {
		if time.Now().After(deadline) {
			t.Fatalf("the late backend stayed on the card after it went away: %v", skills())
		}
		time.Sleep(50 * time.Millisecond)
	}

	_, metrics := getText(t, base+"/metrics")
	for _, want := range []string{
		`a2aport_gateway_requests_total{method="SendMessage",status="200"} 11`, // 5 routed, 1 traced, 4 refused (JSON-RPC errors are 200), 1 late
		`a2aport_gateway_works_total{backend="legacy",outcome="ok"} 1`,
		`a2aport_gateway_works_total{backend="agent",outcome="ok"} 3`, // the data part's, the default's, the traced one's
		`a2aport_gateway_backend_available{backend="late"} 0`,
		`a2aport_gateway_backend_available{backend="secretive"} 0`,
		`a2aport_gateway_open_streams 0`,
	} {
		if !strings.Contains(metrics, want) {
			t.Errorf("/metrics lacks %s:\n%s", want, metrics)
		}
	}
}

// TestGatewayReadiness: /healthz answers while the process runs; /readyz only while a backend is
// available.
func TestGatewayReadiness(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	g, err := gateway.New(gateway.Options{
		Facade:       facade.Options{BaseURL: base},
		Backends:     []gateway.Backend{{Name: "down", Port: portTo(t, a2aport.Options{AgentCardURL: "http://127.0.0.1:1/.well-known/agent-card.json"})}},
		StartTimeout: time.Second, RetryMin: time.Hour,
	})
	if err != nil {
		t.Fatal(err)
	}
	g.Start(testContext(t))
	serveGateway(t, ln, g)
	if status, _ := getText(t, base+"/healthz"); status != http.StatusOK {
		t.Errorf("/healthz: %d", status)
	}
	if status, _ := getText(t, base+"/readyz"); status != http.StatusServiceUnavailable {
		t.Errorf("/readyz with no backend available: %d", status)
	}
	if _, err := gateway.New(gateway.Options{Backends: []gateway.Backend{{Name: "Bad Name", Port: portTo(t, a2aport.Options{AgentCardURL: base})}}}); err == nil {
		t.Error("a bad backend name was accepted")
	}
}

// TestGatewayNoticesADeadBackend: a backend that dies is taken out by the first Work whose
// connection to it cannot be made (no probe runs here: ProbeInterval is an hour), not by the next
// probe. That Work's task fails naming the backend and the kind of failure, and the messages
// after it are refused at once; neither says the backend's address. /backends and the log have
// the details, /metrics counts the changes, and the backend is retried from RetryMin, so that it
// is back as soon as its agent is.
func TestGatewayNoticesADeadBackend(t *testing.T) {
	t.Parallel()
	dying, err := agent.Start()
	if err != nil {
		t.Fatal(err)
	}
	dying.NoKeepAlives() // its death is a refused connection, not a kept one broken under a request
	addr := strings.TrimPrefix(dying.URL(), "http://")
	card := dying.CardURL(agent.Variants()[0])
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	var log logbuf.Buffer
	g, err := gateway.New(gateway.Options{
		Facade:   facade.Options{BaseURL: base},
		Backends: []gateway.Backend{{Name: "dying", Port: portTo(t, a2aport.Options{AgentCardURL: card}), CardURL: card}, {Name: "steady", Port: portTo(t, a2aport.Options{AgentCardURL: server.CardURL(agent.Variants()[0])})}},
		Default:  "dying", Logger: slog.New(slog.NewJSONHandler(&log, nil)),
		StartTimeout: 3 * time.Second, RetryMin: 50 * time.Millisecond, RetryMax: 100 * time.Millisecond, ProbeInterval: time.Hour,
	})
	if err != nil {
		t.Fatal(err)
	}
	g.Start(testContext(t))
	serveGateway(t, ln, g)
	send := func(text string) string {
		_, answer := versionedPost(t, base+facade.EndpointPath, "1.0", `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"`+
			text+`","role":"ROLE_USER","parts":[{"text":"`+text+`"}]}}}`)
		return answer
	}
	if answer := send("complete while up"); !strings.Contains(answer, "echo: complete while up") {
		t.Fatalf("while the backend is up: %s", answer)
	}
	dying.Close()
	port := addr[strings.LastIndex(addr, ":")+1:]
	leaks := func(what, text string) {
		t.Helper()
		if strings.Contains(text, addr) || strings.Contains(text, ":"+port) || strings.Contains(text, "http://127.0.0.1") || strings.Contains(text, "dial tcp") {
			t.Errorf("%s names the backend's address: %s", what, text)
		}
	}
	failed := send("complete after its agent died")
	if !strings.Contains(failed, "TASK_STATE_FAILED") || !strings.Contains(failed, `the backend \"dying\" could not be reached`) {
		t.Errorf("the Work that met the dead backend: %s", failed)
	}
	leaks("the failed task", failed)
	refused := send("complete once it is out")
	if !strings.Contains(refused, "-32602") || !strings.Contains(refused, `the backend \"dying\" is unavailable`) || !strings.Contains(refused, "steady") {
		t.Errorf("the message after it: %s, want invalid params naming the available backends", refused)
	}
	leaks("the refusal", refused)
	if _, body := getText(t, base+"/backends"); !strings.Contains(body, `"state":"unavailable"`) || !strings.Contains(body, "connection refused") {
		t.Errorf("/backends does not tell the operator why: %s", body)
	}
	if !strings.Contains(log.String(), `"msg":"backend unavailable","backend":"dying"`) || !strings.Contains(log.String(), `"msg":"work failed at its backend"`) {
		t.Errorf("the log does not say the backend went down:\n%s", log.String())
	}
	back, err := agent.StartAt(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer back.Close()
	for !strings.Contains(log.String(), `"msg":"backend available","backend":"dying","was":"unavailable"`) {
		select {
		case <-testContext(t).Done():
			t.Fatalf("the backend never came back:\n%s", log.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	if answer := send("complete once back"); !strings.Contains(answer, "echo: complete once back") {
		t.Errorf("once the backend is back: %s", answer)
	}
	_, metrics := getText(t, base+"/metrics")
	for _, want := range []string{`a2aport_gateway_backend_transitions_total{backend="dying",state="unavailable"} 1`,
		`a2aport_gateway_backend_transitions_total{backend="dying",state="available"} 2`, "go_goroutines", "process_resident_memory_bytes"} {
		if !strings.Contains(metrics, want) {
			t.Errorf("/metrics has no %s", want)
		}
	}
}

// TestGatewayHoldsAgainstAnonymousCallers: what a caller without a token can do to a gateway
// whose callers need one. Nothing of its body is read before the token is checked: a body
// trickled a byte at a time is answered 401 at once (the access log read up to 1 MiB of it, with no
// deadline). Its method names and paths are no metric labels (one series per invented name grew
// /metrics without bound), a path that is not UTF-8 is answered and counted (it panicked the
// handler), and what it sends reaches the log made printable: no C1 control (U+009B), no
// bidirectional override (U+202E).
func TestGatewayHoldsAgainstAnonymousCallers(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	var log logbuf.Buffer
	g, err := gateway.New(gateway.Options{
		Facade:    facade.Options{BaseURL: base, Authenticate: bearerCaller},
		Backends:  []gateway.Backend{{Name: "agent", Port: portTo(t, a2aport.Options{AgentCardURL: server.CardURL(agent.Variants()[0])})}},
		Default:   "agent",
		AccessLog: slog.New(slog.NewJSONHandler(&log, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	g.Start(testContext(t))
	serveGateway(t, ln, g)

	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = conn.Close() }()
	if _, err := fmt.Fprintf(conn, "POST /a2a HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"); err != nil {
		t.Fatal(err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	status, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil || !strings.Contains(status, " 401 ") {
		t.Errorf("a trickled body without a token: %q, %v; want 401 before the body", status, err)
	}

	for i := range 300 {
		postJSON(t, base+facade.EndpointPath, http.Header{"A2A-Version": {"1.0"}}, fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"nope-%d-%s"}`, i, strings.Repeat("x", 1000)))
	}
	for _, path := range []string{"/%ff", "/a2a/%C2%9B%E2%80%AE", "/a2a/rest/tasks/nope-%ff:cancel"} {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
		_ = resp.Body.Close()
	}
	req, _ := http.NewRequest(http.MethodGet, base+"/metrics", nil)
	req.Header.Set("Authorization", "Bearer alice-token")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	metrics, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	series := 0
	for _, line := range strings.Split(string(metrics), "\n") {
		if strings.HasPrefix(line, "a2aport_gateway_requests_total{") {
			series++
		}
	}
	if series == 0 || series > 8 || strings.Contains(string(metrics), "nope") {
		t.Errorf("/metrics has %d request series (%d bytes), want a few from a closed set:\n%s", series, len(metrics), metrics)
	}
	if !strings.Contains(string(metrics), `a2aport_gateway_requests_total{method="other",status="404"}`) {
		t.Errorf("the requests on unknown paths are not counted as other:\n%s", metrics)
	}
	logged := log.String()
	if strings.ContainsRune(logged, '\u009b') || strings.ContainsRune(logged, '\u202e') || !strings.Contains(logged, `u009b`) || !strings.Contains(logged, `u202e`) {
		t.Errorf("the log carries a caller's C1 control or bidirectional override raw, or not at all:\n%s", logged)
	}
}

// TestGatewayReadsCardsAsTheAdapter: the gateway reads a backend's card for its skills as the
// backend's adapter reads cards. A card that redirects to another origin is not followed (it was:
// the gateway fetched that origin with the card's URL, query key and all, in its Referer, and the
// other origin's skill joined the public card); a card with the canonical form of a security
// requirement ({"list": []}), which the adapter takes, gives its skills (the gateway's reader
// refused it, and the backend stayed unavailable).
func TestGatewayReadsCardsAsTheAdapter(t *testing.T) {
	t.Parallel()
	var elsewhere atomicCount
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		elsewhere.add(r.Header.Get("Referer"))
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"name":"evil","skills":[{"id":"evil","name":"evil","description":"not the backend's","tags":["x"]}]}`)
	}))
	defer other.Close()
	cards := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/redirect") {
			http.Redirect(w, r, other.URL+"/card.json", http.StatusFound)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"name":"canonical","description":"d","version":"1","supportedInterfaces":[{"url":"http://127.0.0.1:1/a2a","protocolBinding":"JSONRPC","protocolVersion":"1.0"}],
			"capabilities":{},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],
			"securitySchemes":{"bearer":{"httpAuthSecurityScheme":{"scheme":"Bearer"}}},"securityRequirements":[{"schemes":{"bearer":{"list":[]}}}],
			"skills":[{"id":"canon","name":"canon","description":"a skill of a card in the canonical form","tags":["c"]}]}`)
	}))
	defer cards.Close()
	fn := func() a2aport.Port {
		return funcport.New(func(context.Context, a2aport.Work, *funcport.Turn) (a2aport.Outcome, error) {
			return a2aport.Outcome{Content: "ok"}, nil
		}, funcport.Options{})
	}
	g, err := gateway.New(gateway.Options{
		Facade: facade.Options{BaseURL: "http://127.0.0.1:1"},
		Backends: []gateway.Backend{
			{Name: "redirected", Port: fn(), CardURL: cards.URL + "/redirect/card.json?key=SECRET-KEY"},
			{Name: "canonical", Port: fn(), CardURL: cards.URL + "/card.json"},
		},
		StartTimeout: 3 * time.Second, RetryMin: time.Hour, ProbeInterval: time.Hour,
	})
	if err != nil {
		t.Fatal(err)
	}
	g.Start(testContext(t))
	defer func() { _ = g.Close() }()
	states := map[string]gateway.BackendStatus{}
	for _, b := range g.Backends() {
		states[b.Name] = b
	}
	if b := states["redirected"]; b.State != gateway.StateUnavailable || !strings.Contains(b.Reason, "another origin") || len(b.Skills) != 0 {
		t.Errorf("the backend whose card redirects elsewhere: %+v", b)
	}
	if n, referers := elsewhere.get(); n != 0 {
		t.Errorf("the other origin was asked %d times (Referer %q)", n, referers)
	}
	if b := states["canonical"]; b.State != gateway.StateAvailable || strings.Join(b.Skills, ",") != "canonical/canon" {
		t.Errorf("the backend whose card writes a requirement canonically: %+v", b)
	}
}

// atomicCount counts requests and keeps what they said.
type atomicCount struct {
	mu   sync.Mutex
	n    int
	what []string
}

func (c *atomicCount) add(s string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	c.what = append(c.what, s)
}

func (c *atomicCount) get() (int, []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n, c.what
}
