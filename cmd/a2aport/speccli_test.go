package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/a2aport/a2aport/internal/testkit/agent"
)

// The A2A CLI specification's commands, run as the built binary against a2a-go's server on
// loopback (the shared test agent, and specAgent for what needs a caller or OAuth). Each test
// names the ids of COMPLIANCE.md it shows (docs/cli.md's table).

// jsonLines parses stdout as JSON lines.
func jsonLines(t *testing.T, out string) []map[string]any {
	t.Helper()
	var lines []map[string]any
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var v map[string]any
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("not a JSON line: %q: %v", sc.Text(), err)
		}
		lines = append(lines, v)
	}
	return lines
}

// one is the single JSON document stdout must be (SPEC.md §11.3).
func one(t *testing.T, out string) map[string]any {
	t.Helper()
	lines := jsonLines(t, out)
	if len(lines) != 1 {
		t.Fatalf("want one JSON document, got %d:\n%s", len(lines), out)
	}
	return lines[0]
}

func dig(v any, path ...string) any {
	for _, p := range path {
		m, _ := v.(map[string]any)
		v = m[p]
	}
	return v
}

// TestSpecCardGet: CARD_GET_001 (host, URL, file; the interface chosen), CARD_GET_002,
// TX_001/TX_002 (card order, then --transport), OUT_004 and EXIT_001 (unreachable: 3).
func TestSpecCardGet(t *testing.T) {
	t.Parallel()
	a := startSpecAgent(t)
	host := strings.TrimPrefix(a.url, "http://")
	out, errOut, code := runCLI(t, nil, "card", "get", host)
	if code != exitOK || !strings.Contains(out, "Name: spec agent\n") || !strings.Contains(out, "Selected interface: HTTP+JSON 1.0 "+a.url+"/rest\n") {
		t.Errorf("card get HOST: exit %d\n%s%s", code, out, errOut)
	}
	out, _, _ = runCLI(t, nil, "card", "get", "-a", a.card, "--transport", "GRPC", "--transport", "JSONRPC")
	if !strings.Contains(out, "Selected interface: JSONRPC 1.0 "+a.url+"/rpc\n") {
		t.Errorf("--transport JSONRPC did not choose JSON-RPC:\n%s", out)
	}
	out, _, code = runCLI(t, nil, "card", "get", a.card, "-o", "json")
	card := one(t, out)
	if code != exitOK || card["name"] != "spec agent" || dig(card, "capabilities", "pushNotifications") != true {
		t.Errorf("-o json: exit %d, %v", code, card)
	}
	path := filepath.Join(t.TempDir(), "card.json")
	delete(card, "description")
	data, _ := json.Marshal(card)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if out, _, code := runCLI(t, nil, "card", "get", "file://"+path); code != exitOK || !strings.Contains(out, "Name: spec agent") {
		t.Errorf("card get file://: exit %d\n%s", code, out)
	}
	if out, errOut, code := runCLI(t, nil, "card", "get", path, "--validate"); code != exitError || !strings.Contains(out, "Valid: no") || !strings.Contains(errOut, "A2ACLI_ERR_CARD_INVALID") {
		t.Errorf("--validate of a card without a description: exit %d\n%s%s", code, out, errOut)
	}
	out, _, code = runCLI(t, nil, "card", "get", "http://127.0.0.1:1", "-o", "json")
	if e := one(t, out); code != exitUnreachable || dig(e, "error", "code") != "A2ACLI_ERR_UNREACHABLE" {
		t.Errorf("unreachable: exit %d, %v", code, e)
	}
}

// TestSpecSend: SEND_001–004, OUT_001–003, OUT_006, EXIT_002, INTERACT_001–004, TASK_CANCEL_001,
// TASK_POLL_001–003: one document, or a line per event; --async; a task that waits, and its
// answer by --task-id; failed and cancelled are 0 with a warning; a task id the agent does not
// know is its own error and makes no task; --timeout is 5.
func TestSpecSend(t *testing.T) {
	t.Parallel()
	card := server.CardURL(stream)
	out, errOut, code := runCLI(t, nil, "send", "-a", card, "-o", "json", "chunks 3 for the spec")
	doc := one(t, out)
	if code != exitOK || dig(doc, "task", "status", "state") != "TASK_STATE_COMPLETED" || dig(doc, "task", "contextId") == nil {
		t.Errorf("-o json: exit %d\n%s%s", code, out, errOut)
	}
	if arts, _ := dig(doc, "task", "artifacts").([]any); len(arts) != 1 || !strings.Contains(out, "part-3") {
		t.Errorf("-o json: want the artifact whole: %v", dig(doc, "task", "artifacts"))
	}
	out, _, code = runCLI(t, nil, "send", card, "-o", "json", "--stream", "chunks 3 streamed for the spec")
	lines := jsonLines(t, out)
	if code != exitOK || len(lines) < 4 || dig(lines[0], "task", "id") == nil || dig(lines[len(lines)-1], "statusUpdate", "status", "state") != "TASK_STATE_COMPLETED" {
		t.Errorf("--stream -o json: exit %d\n%s", code, out)
	}
	for _, l := range lines {
		if len(l) != 1 {
			t.Errorf("a StreamResponse has one field: %v", l)
		}
	}

	out, errOut, code = runCLI(t, nil, "send", "-a", card, "--stream", "input for the spec")
	task := regexp.MustCompile(`(?m)^Task: (\S+)$`).FindStringSubmatch(out)
	if code != exitOK || task == nil || !strings.HasSuffix(out, "State: INPUT_REQUIRED\n") || !strings.Contains(errOut, "--task-id "+task[1]) {
		t.Fatalf("a task that waits: exit %d\n%s%s", code, out, errOut)
	}
	if out, errOut, code := runCLI(t, nil, "send", "-a", card, "-o", "text", "--task-id", task[1], "Bob"); code != exitOK ||
		!strings.Contains(out, "Hello, Bob!") || !strings.Contains(out, "State: COMPLETED\n") || !strings.Contains(out, "Task: "+task[1]+"\n") {
		t.Errorf("the answer by --task-id: exit %d\n%s%s", code, out, errOut)
	}
	ctx := regexp.MustCompile(`(?m)^Context: (\S+)$`).FindStringSubmatch(out)
	if out, _, code := runCLI(t, nil, "send", "-a", card, "-o", "text", "--context-id", ctx[1], "context echo"); code != exitOK || !strings.Contains(out, "Context: "+ctx[1]+"\n") {
		t.Errorf("--context-id: exit %d\n%s", code, out)
	}
	out, errOut, code = runCLI(t, nil, "send", "-a", card, "-o", "json", "--task-id", "no-such-task", "hello")
	if e := one(t, out); code != exitError || dig(e, "error", "code") != "TaskNotFoundError" || dig(e, "error", "message") != "task not found" ||
		!strings.Contains(dig(e, "error", "hint").(string), "--debug") {
		t.Errorf("an unknown --task-id: exit %d\n%s%s", code, out, errOut)
	}

	// OUT_001, OUT_005, DEFAULT_001: the agent named as the specification names it, no other flag:
	// its text output, in a pipe too (a2aport's view is for the agent named first, positionally).
	out, errOut, code = runCLI(t, nil, "send", "-a", card, "chunks 2 with the defaults")
	if code != exitOK || !regexp.MustCompile(`(?m)^Task: \S+\nContext: \S+\n`).MatchString(out) || !strings.Contains(out, "State: COMPLETED\n") || !strings.Contains(out, "part-2") {
		t.Errorf("send -a with the defaults: exit %d\n%s%s", code, out, errOut)
	}
	out, errOut, code = runCLI(t, []string{"A2ACLI_AGENT_CARD=" + card}, "send", "chunks 2 from the environment")
	if code != exitOK || !strings.Contains(out, "State: COMPLETED\n") {
		t.Errorf("send with A2ACLI_AGENT_CARD: exit %d\n%s%s", code, out, errOut)
	}
	if out, _, code := runCLI(t, nil, "send", card, "chunks 2 in a2aport's view"); code != exitOK || strings.Contains(out, "State:") || !strings.Contains(out, "part-2") {
		t.Errorf("send URL TEXT is a2aport's view, the answer alone: exit %d\n%s", code, out)
	}

	out, errOut, code = runCLI(t, nil, "send", "-a", card, "-o", "text", "fail for the spec")
	if code != exitOK || !strings.Contains(out, "State: FAILED\n") || !strings.Contains(errOut, "Warning: task") {
		t.Errorf("a failed task: exit %d\n%s%s", code, out, errOut)
	}
	out, _, code = runCLI(t, nil, "send", "-a", card, "-o", "json", "--async", "hold for a spec cancel")
	id, _ := dig(one(t, out), "task", "id").(string)
	if code != exitOK || id == "" || dig(one(t, out), "task", "contextId") == nil {
		t.Fatalf("--async: exit %d\n%s", code, out)
	}
	for range 2 { // idempotent
		out, errOut, code := runCLI(t, nil, "task", "cancel", "-a", card, id, "-o", "json")
		if code != exitOK || dig(one(t, out), "status", "state") != "TASK_STATE_CANCELED" {
			t.Errorf("task cancel: exit %d\n%s%s", code, out, errOut)
		}
	}
	out, _, code = runCLI(t, nil, "send", "-a", card, "-o", "json", "--timeout", "300ms", "hold for the spec timeout")
	if e := one(t, out); code != exitTimeout || dig(e, "error", "code") != "A2ACLI_ERR_TIMEOUT" {
		t.Errorf("--timeout: exit %d, %v", code, e)
	}
}

// TestSpecTaskGetWait: TASK_GET_001, TASK_POLL_001–003 (on an agent that does not stream, too:
// send's wait asks), VER_001 (0.3 only when asked).
func TestSpecTaskGetWait(t *testing.T) {
	t.Parallel()
	poll := agent.Variant{Version: "1.0", Binding: "HTTP+JSON", Streaming: false}
	out, errOut, code := runCLI(t, nil, "send", "-a", server.CardURL(poll), "-o", "json", "--poll-interval", "100ms", "slow 300 polled")
	if code != exitOK || dig(one(t, out), "task", "status", "state") != "TASK_STATE_COMPLETED" {
		t.Errorf("send to an agent that does not stream: exit %d\n%s%s", code, out, errOut)
	}
	out, _, _ = runCLI(t, nil, "send", "-a", server.CardURL(stream), "-o", "json", "--async", "slow 500 then task get")
	id, _ := dig(one(t, out), "task", "id").(string)
	out, errOut, code = runCLI(t, nil, "task", "get", "-a", server.CardURL(stream), id, "--wait", "--poll-interval", "100ms", "-o", "json")
	if code != exitOK || dig(one(t, out), "status", "state") != "TASK_STATE_COMPLETED" || !strings.Contains(out, "slow done") {
		t.Errorf("task get --wait: exit %d\n%s%s", code, out, errOut)
	}
	out, _, _ = runCLI(t, nil, "send", "-a", server.CardURL(stream), "-o", "json", "--async", "input then task get")
	id, _ = dig(one(t, out), "task", "id").(string)
	out, _, code = runCLI(t, nil, "task", "get", "-a", server.CardURL(stream), id, "--wait", "--poll-interval", "100ms")
	if code != exitOK || !strings.Contains(out, "State: INPUT_REQUIRED\n") {
		t.Errorf("task get --wait on a task that waits: exit %d\n%s", code, out)
	}
	legacy := server.CardURL(agent.Variant{Version: "0.3", Binding: "JSONRPC", Streaming: true})
	out, _, code = runCLI(t, nil, "send", "-a", legacy, "-o", "json", "complete")
	if e := one(t, out); code != exitError || dig(e, "error", "code") != "VersionNotSupportedError" {
		t.Errorf("a 0.3 agent without --a2a-version: exit %d, %v", code, e)
	}
	out, _, code = runCLI(t, nil, "send", "-a", legacy, "--a2a-version", "0.3", "-o", "json", "complete in 0.3")
	if code != exitOK || dig(one(t, out), "task", "status", "state") != "TASK_STATE_COMPLETED" {
		t.Errorf("--a2a-version 0.3: exit %d\n%s", code, out)
	}
}

// TestSpecAuthListPush: AUTH_001/002/004 (bearer, --debug redacted), SEND_005/006 (ordered
// parts, --media-type), TASK_LIST_001, TASK_SUBSCRIBE_001, PUSH_001, OUT_007, EXIT_001 (4),
// AUTH_005–007 (device code and client credentials, the token kept and sent).
func TestSpecAuthListPush(t *testing.T) {
	t.Parallel()
	a := startSpecAgent(t)
	env := []string{"XDG_CONFIG_HOME=" + t.TempDir()}
	out, _, code := runCLI(t, env, "task", "list", "-a", a.card, "-o", "json")
	if e := one(t, out); code != exitAuth || dig(e, "error", "code") != "A2ACLI_ERR_CREDENTIALS_MISSING" {
		t.Errorf("no credentials: exit %d, %v", code, e)
	}
	if _, errOut, code := runCLI(t, env, "task", "list", "-a", a.card, "--bearer", "wrong"); code != exitAuth || !strings.Contains(errOut, "A2ACLI_ERR_AUTH_FAILED") {
		t.Errorf("a wrong token: exit %d\n%s", code, errOut)
	}
	data := filepath.Join(t.TempDir(), "in.json")
	if err := os.WriteFile(data, []byte(`{"n":1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	auth := append([]string{"A2ACLI_BEARER=" + specToken}, env...)
	out, errOut, code := runCLI(t, auth, "send", "-a", a.card, "-o", "json", "--text", "x", "--data", data, "--file", data, "--media-type", "application/x-test",
		"--metadata", `{"skill":"echo"}`, "--svc-param", "X-Trace:abc", "--debug")
	parts, _ := dig(one(t, out), "task", "artifacts").([]any)
	if code != exitOK || len(parts) != 1 || !regexp.MustCompile(`"parts":\[\{"text":"x"\},\{"data":\{"n":1\}[^]]*"mediaType":"application/x-test"`).MatchString(out) {
		t.Errorf("ordered parts: exit %d\n%s%s", code, out, errOut)
	}
	if strings.Contains(errOut, specToken) || !strings.Contains(errOut, "Authorization: [REDACTED]") || !strings.Contains(errOut, "X-Trace: abc") || !strings.Contains(errOut, `"skill":"echo"`) {
		t.Errorf("--debug: the wire without the token, the service parameter and the metadata:\n%s", errOut)
	}
	task, _ := dig(one(t, out), "task", "id").(string)
	if out, _, code := runCLI(t, auth, "task", "list", "-a", a.card); code != exitOK || !strings.Contains(out, "Task: "+task+"\n") {
		t.Errorf("task list: exit %d\n%s", code, out)
	}

	out, _, _ = runCLI(t, auth, "send", "-a", a.card, "-o", "json", "--async", "hold")
	held, _ := dig(one(t, out), "task", "id").(string)
	sub := command(t, "task", "subscribe", "-a", a.card, held, "--stream", "-o", "json")
	sub.Env = append(sub.Env, auth...)
	subOut, _ := sub.StdoutPipe()
	if err := sub.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(subOut)
	if !lines.Scan() || !strings.Contains(lines.Text(), `"task":{`) {
		t.Fatalf("subscribe's first event is not the task: %q", lines.Text())
	}
	for _, op := range [][]string{{"create", held, "--url", "http://127.0.0.1:9/hook", "--id", "c1"}, {"get", held, "c1"}, {"list", held}} {
		out, errOut, code := runCLI(t, auth, append([]string{"task", "push-config", "-a", a.card, "-o", "json"}, op...)...)
		if code != exitOK || !strings.Contains(out, `"url":"http://127.0.0.1:9/hook"`) {
			t.Errorf("push-config %s: exit %d\n%s%s", op[0], code, out, errOut)
		}
	}
	if _, errOut, code := runCLI(t, auth, "task", "push-config", "delete", "-a", a.card, held, "c1"); code != exitOK {
		t.Errorf("push-config delete: exit %d\n%s", code, errOut)
	}
	if _, _, code := runCLI(t, auth, "task", "cancel", "-a", a.card, held); code != exitOK {
		t.Errorf("task cancel: exit %d", code)
	}
	var last string
	for lines.Scan() {
		last = lines.Text()
	}
	if err := sub.Wait(); err != nil || !strings.Contains(last, "TASK_STATE_CANCELED") {
		t.Errorf("subscribe: %v, last line %q", err, last)
	}

	cc := []string{"A2ACLI_CLIENT_SECRET=svc-secret", "XDG_CONFIG_HOME=" + t.TempDir()}
	if out, errOut, code := runCLI(t, cc, "auth", "login", a.card, "--flow", "client-credentials", "--client-id", "svc"); code != exitOK || !strings.Contains(out, "Token: stored in") {
		t.Fatalf("auth login (client credentials): exit %d\n%s%s", code, out, errOut)
	}
	if out, errOut, code := runCLI(t, cc, "task", "list", "-a", a.card); code != exitOK {
		t.Errorf("task list with the stored token: exit %d\n%s%s", code, out, errOut)
	}
	if _, errOut, code := runCLI(t, cc[1:], "auth", "login", a.card, "--flow", "client-credentials", "--client-id", "svc", "--client-secret", "bad"); code != exitAuth {
		t.Errorf("a refused client: exit %d\n%s", code, errOut)
	}

	device := []string{"XDG_CONFIG_HOME=" + t.TempDir()}
	login := command(t, "auth", "login", "-a", a.card, "--client-id", "cli")
	login.Env = append(login.Env, device...)
	stderr, _ := login.StderrPipe()
	if err := login.Start(); err != nil {
		t.Fatal(err)
	}
	prompt := bufio.NewScanner(stderr)
	if !prompt.Scan() || !strings.Contains(prompt.Text(), "enter the code WDJB-MJHT") {
		t.Fatalf("the device code prompt: %q", prompt.Text())
	}
	time.Sleep(1500 * time.Millisecond) // it asks, and is told to wait, at least once
	a.oauth.approve()
	if err := login.Wait(); err != nil {
		t.Fatalf("auth login (device code): %v", err)
	}
	if out, errOut, code := runCLI(t, device, "task", "list", "-a", a.card); code != exitOK {
		t.Errorf("task list with the device code's token: exit %d\n%s%s", code, out, errOut)
	}
	if info, err := filepath.Glob(filepath.Join(strings.TrimPrefix(device[0], "XDG_CONFIG_HOME="), "a2aport", "tokens", "*.json")); err != nil || len(info) != 1 {
		t.Fatalf("stored tokens: %v %v", info, err)
	} else if fi, _ := os.Stat(info[0]); fi.Mode().Perm() != 0o600 {
		t.Errorf("the token file is %v, want 0600", fi.Mode().Perm())
	}
}

// TestSpecSettings: CONFIG_002, AUTH_002, DEFAULT_001: flag > environment > --config's file >
// the user's file > the default, each value's source shown; credentials never shown.
func TestSpecSettings(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, "a2aport"), 0o700); err != nil {
		t.Fatal(err)
	}
	global := "A2ACLI_TIMEOUT=9s\nA2ACLI_A2A_VERSION=1.0\nA2ACLI_OUTPUT=json\nA2ACLI_STREAM=true\n"
	local := "# an agent's settings\nA2ACLI_A2A_VERSION=1.0\nA2ACLI_BEARER=\"from-the-file\"\nA2ACLI_OUTPUT=text\n"
	localPath := filepath.Join(t.TempDir(), "agent.env")
	if os.WriteFile(filepath.Join(home, "a2aport", ".env"), []byte(global), 0o600) != nil || os.WriteFile(localPath, []byte(local), 0o644) != nil {
		t.Fatal("writing the files")
	}
	env := []string{"XDG_CONFIG_HOME=" + home, "A2ACLI_AGENT_CARD=http://from-the-env"}
	out, errOut, code := runCLI(t, env, "config", "show", "--config", localPath, "--a2a-version", "0.3", "-o", "json")
	if code != exitOK {
		t.Fatalf("config show: exit %d\n%s", code, errOut)
	}
	got := map[string]string{}
	for _, s := range dig(one(t, out), "settings").([]any) {
		m := s.(map[string]any)
		got[m["name"].(string)] = m["value"].(string) + " from " + m["source"].(string)
	}
	for name, want := range map[string]string{
		"a2a-version": "0.3 from flag --a2a-version", "agent-card": "http://from-the-env from environment A2ACLI_AGENT_CARD",
		"bearer": "(set) from " + localPath, "timeout": "9s from " + filepath.Join(home, "a2aport", ".env"), "poll-interval": "2s from default",
		"output": "json from flag --output",
	} {
		if got[name] != want {
			t.Errorf("%s: %q, want %q", name, got[name], want)
		}
	}
	if strings.Contains(out, "from-the-file") || !strings.Contains(errOut, "others may read it") {
		t.Errorf("the credential was shown, or its readable file not named:\n%s%s", out, errOut)
	}
	if _, ok := got["stream"]; ok {
		t.Error("--stream came from a setting")
	}
	v, _, code := runCLI(t, nil, "version")
	if short, _, _ := runCLI(t, nil, "-v"); code != exitOK || !strings.HasPrefix(v, "a2aport ") || short != v {
		t.Errorf("version: exit %d, %q; -v: %q", code, v, short)
	}
}
