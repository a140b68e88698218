package main

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/a2aport/a2aport/internal/testkit/agent"
)

// TestGatewayCommand runs `a2aport gateway --config` as a process: one backend available and one
// down, callers' bearer tokens from the environment; health, readiness, /backends, the card's
// security, a refused and an accepted call, an access log line per call, and SIGTERM in the
// middle of a stream: the node drains (its port open, /readyz 503, new tasks refused 503), and
// the stream finishes before the process exits.
func TestGatewayCommand(t *testing.T) {
	t.Parallel()
	config := filepath.Join(t.TempDir(), "gateway.yaml")
	yaml := "listen: 127.0.0.1:0\nname: cli gateway\ndefault: agent\nauth:\n  bearerTokens: [\"${A2APORT_TEST_GATEWAY_TOKEN}\"]\n" +
		"backends:\n  - name: agent\n    card: " + server.CardURL(agent.Variants()[0]) + "\n  - name: down\n    card: http://127.0.0.1:1/.well-known/agent-card.json?key=cfg-secret-3\n" +
		"    credentials:\n      bearer: {token: cfg-secret-1}\n      basic: {username: u, password: \"${A2APORT_TEST_GATEWAY_PASSWORD}\"}\n      oauth: {clientId: c, clientSecret: cfg-secret-5}\n"
	if err := os.WriteFile(config, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := command(t, "gateway", "--config", config, "--grace", "10s")
	cmd.Env = append(cmd.Env, "A2APORT_TEST_GATEWAY_TOKEN=tok-123", "A2APORT_TEST_GATEWAY_PASSWORD=cfg-secret-2")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	cmd.Stderr = &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	base, ok := strings.CutPrefix(strings.TrimSpace(line), "gateway on ")
	if err != nil || !ok {
		t.Fatalf("first line %q, %v; stderr %s", line, err, logs.String())
	}
	getAs := func(token, path string) (int, string) {
		req, _ := http.NewRequest(http.MethodGet, base+path, nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = resp.Body.Close() }()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	get := func(path string) (int, string) { return getAs("", path) }
	for _, c := range []struct{ path, want string }{
		{"/healthz", "ok"}, {"/readyz", "ready"},
		{"/.well-known/agent-card.json", `"cli gateway"`},
	} {
		if status, body := get(c.path); status != http.StatusOK || !strings.Contains(body, c.want) {
			t.Errorf("GET %s: %d %s", c.path, status, body)
		}
	}
	// Without a listener of their own, /backends and /metrics take a caller's token.
	for _, path := range []string{"/backends", "/metrics"} {
		for _, token := range []string{"", "wrong-token"} {
			if status, _ := getAs(token, path); status != http.StatusUnauthorized {
				t.Errorf("GET %s with token %q: %d, want 401", path, token, status)
			}
		}
	}
	if status, body := getAs("tok-123", "/backends"); status != http.StatusOK || !strings.Contains(body, `"name":"down","state":"unavailable"`) {
		t.Errorf("GET /backends with the token: %d %s", status, body)
	}
	for _, path := range []string{"/backends", "/metrics", "/.well-known/agent-card.json"} {
		if _, body := getAs("tok-123", path); strings.Contains(body, "cfg-secret") {
			t.Errorf("GET %s shows a secret of the configuration: %s", path, body)
		}
	}
	if _, body := get("/.well-known/agent-card.json"); !strings.Contains(body, `"bearer"`) || !strings.Contains(body, "agent/scenarios") {
		t.Errorf("the card declares no bearer scheme or lacks the backend's skill: %s", body)
	}
	post := func(token, text string) (int, string) {
		body := `{"jsonrpc":"2.0","id":"1","method":"SendStreamingMessage","params":{"message":{"messageId":"` + text + `","role":"ROLE_USER","parts":[{"text":"` + text + `"}]}}}`
		req, _ := http.NewRequest(http.MethodPost, base+"/a2a", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("A2A-Version", "1.0")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = resp.Body.Close() }()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if status, _ := post("", "complete without a token"); status != http.StatusUnauthorized {
		t.Errorf("no token: %d", status)
	}
	if status, body := post("tok-123", "complete through the gateway command"); status != http.StatusOK || !strings.Contains(body, "echo: complete through the gateway command") {
		t.Errorf("with the token: %d %s", status, body)
	}

	// SIGTERM while a stream runs: the node drains. Its port stays open, /readyz says 503 (a load
	// balancer tells a draining node from a dead one), a new task is refused with 503 and
	// Retry-After, the stream ends completed, and then the process exits.
	streamed := make(chan string, 1)
	go func() {
		_, body := post("tok-123", "slow 2500")
		streamed <- body
	}()
	time.Sleep(300 * time.Millisecond) // the stream is open
	_ = cmd.Process.Signal(syscall.SIGTERM)
	for {
		status, body := get("/readyz")
		if status == http.StatusServiceUnavailable {
			if !strings.Contains(body, "draining") {
				t.Errorf("/readyz while draining: %d %s", status, body)
			}
			break
		}
		time.Sleep(10 * time.Millisecond) // until the signal arrived
	}
	if status, body := post("tok-123", "complete while draining"); status != http.StatusServiceUnavailable || !strings.Contains(body, "stopping") {
		t.Errorf("a new task while draining: %d %s", status, body)
	}
	if status, _ := get("/healthz"); status != http.StatusOK {
		t.Errorf("/healthz while draining: %d", status)
	}
	select {
	case body := <-streamed:
		if !strings.Contains(body, "slow done") || !strings.Contains(body, "TASK_STATE_COMPLETED") {
			t.Errorf("the stream open at SIGTERM: %s", body)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the stream open at SIGTERM never ended")
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("gateway: %v\n%s", err, logs.String())
	}
	out := logs.String()
	if !strings.Contains(out, `"rpc":"SendStreamingMessage"`) || !strings.Contains(out, `"msg":"work","backend":"agent"`) || !strings.Contains(out, `"status":401`) || strings.Contains(out, "tok-123") || strings.Contains(out, "cfg-secret") {
		t.Errorf("access log:\n%s", out)
	}
}

// TestGatewayAdminListen: with adminListen, the operations endpoints are served on their own
// listener, with the details (why the database does not answer), and no longer on the port
// callers reach; the card stays public.
func TestGatewayAdminListen(t *testing.T) {
	t.Parallel()
	config := filepath.Join(t.TempDir(), "gateway.yaml")
	yaml := "listen: 127.0.0.1:0\nadminListen: 127.0.0.1:0\nname: ops apart\ndefault: agent\nbackends:\n  - name: agent\n    card: " + server.CardURL(agent.Variants()[0]) + "\n"
	if err := os.WriteFile(config, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	base, ops := startGateway(t, config, true)
	status := func(url string) int {
		resp, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		return resp.StatusCode
	}
	for _, path := range []string{"/healthz", "/readyz", "/backends", "/metrics"} {
		if got := status(ops + path); got != http.StatusOK {
			t.Errorf("GET %s on the operations listener: %d", path, got)
		}
		if got := status(base + path); got != http.StatusNotFound {
			t.Errorf("GET %s on the public listener: %d, want 404", path, got)
		}
	}
	if got := status(base + "/.well-known/agent-card.json"); got != http.StatusOK {
		t.Errorf("the card on the public listener: %d", got)
	}
	if got := status(ops + "/.well-known/agent-card.json"); got != http.StatusNotFound {
		t.Errorf("the card on the operations listener: %d, want 404", got)
	}
}

// startGateway runs `a2aport gateway --config config` until the test ends and returns where it
// serves, as it prints it, and with ops where its operations listener is.
func startGateway(t *testing.T, config string, ops bool) (base, opsBase string) {
	t.Helper()
	cmd := command(t, "gateway", "--config", config)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	lines := bufio.NewReader(stdout)
	for base == "" || (ops && opsBase == "") {
		line, err := lines.ReadString('\n')
		if err != nil {
			t.Fatalf("the gateway's lines: %v", err)
		}
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "gateway on "); ok {
			base = v
		}
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "operations on "); ok {
			opsBase = v
		}
	}
	return base, opsBase
}

// TestGatewayConfigError: a bad configuration names file, line and field, and nothing starts.
func TestGatewayConfigError(t *testing.T) {
	t.Parallel()
	config := filepath.Join(t.TempDir(), "gateway.yaml")
	if err := os.WriteFile(config, []byte("backends:\n  - name: agent\n    card: ftp://x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runCLI(t, nil, "gateway", "--config", config)
	if code != exitUsage || !strings.Contains(stderr, config+":3: backends[0].card:") {
		t.Errorf("exit %d, stderr %s", code, stderr)
	}
}
