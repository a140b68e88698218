package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"

	"github.com/a2aport/a2aport/internal/testkit/agent"
)

// checks parses conformance -o json: each check's name → its status.
func checks(t *testing.T, out string) map[string]string {
	t.Helper()
	var results []checkResult
	if err := json.Unmarshal([]byte(out), &results); err != nil {
		t.Fatalf("not a list of results: %v\n%s", err, out)
	}
	got := map[string]string{}
	for _, r := range results {
		got[r.Check] = r.Status
	}
	return got
}

// TestSpecConformance: CONFORM_001: a2a-go's server passes every check (a task cancelled while
// it runs, the stream and push configurations when its card declares them, skipped when not);
// an agent whose card lacks required fields and that answers an unknown task with the wrong
// error fails those two checks by name, exit 1; no card is 3.
func TestSpecConformance(t *testing.T) {
	t.Parallel()
	full := server.CardURL(agent.Variant{Version: "1.0", Binding: "HTTP+JSON", Streaming: true, Push: true})
	out, errOut, code := runCLI(t, nil, "conformance", full, "--cancel-text", "hold for conformance")
	for _, name := range append([]string{"card"}, clientChecks...) {
		if !strings.Contains(out, "Check: pass "+name+": ") {
			t.Errorf("%s did not pass", name)
		}
	}
	if code != exitOK || !strings.Contains(out, "CANCELED") || !strings.HasSuffix(out, "Passed: 8\nFailed: 0\nSkipped: 0\n") {
		t.Errorf("a2a-go's server: exit %d\n%s%s", code, out, errOut)
	}
	out, errOut, code = runCLI(t, nil, "conformance", "-a", server.CardURL(agent.Variant{Version: "1.0", Binding: "JSONRPC"}), "-o", "json")
	got := checks(t, out)
	if code != exitOK || got["stream"] != "skip" || got["push-config"] != "skip" || got["task.unknown"] != "pass" || got["task.cancel"] != "pass" {
		t.Errorf("an agent that neither streams nor pushes: exit %d, %v\n%s", code, got, errOut)
	}

	broken := startLooseAgent(t, specExecutor{}, func(c *a2a.AgentCard) { c.Description, c.DefaultInputModes = "", nil },
		a2asrv.WithCallInterceptors(wrongNotFound{}))
	out, errOut, code = runCLI(t, nil, "conformance", "-a", broken)
	for _, want := range []string{"Check: fail card: missing what A2A requires: description; defaultInputModes\n",
		"Check: fail task.unknown: GetTask of an unknown id answered InternalError", "Check: pass send: ", "Check: pass stream: ", "Failed: 2\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("a broken agent: no %q", want)
		}
	}
	if code != exitError || !strings.Contains(errOut, "2 of 8 checks failed") {
		t.Errorf("a broken agent: exit %d\n%s%s", code, out, errOut)
	}
	out, _, code = runCLI(t, nil, "conformance", "-a", broken, "-o", "json")
	if got := checks(t, out); code != exitError || got["card"] != "fail" || got["task.unknown"] != "fail" || got["task.get"] != "pass" {
		t.Errorf("a broken agent, -o json: exit %d, %v", code, got)
	}
	out, _, code = runCLI(t, nil, "conformance", "http://127.0.0.1:1", "-o", "json")
	if e := one(t, out); code != exitUnreachable || dig(e, "error", "code") != errUnreachable {
		t.Errorf("no agent: exit %d, %v", code, e)
	}
	if _, _, code := runCLI(t, nil, "conformance", "-a", full, "extra"); code != exitUsage {
		t.Errorf("two references: exit %d", code)
	}
}
