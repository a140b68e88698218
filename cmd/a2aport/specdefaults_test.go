package main

import (
	"net/http/httptest"
	"strings"
	"testing"
)

// TestSpecVerbose: DEFAULT_001's detail level: concise by default (the ids and state, the status
// message, each artifact rendered, no history, no part breakdown); --verbose, or A2ACLI_VERBOSE,
// shows the message sent and every part on its own with its kind, media type and file name, the
// artifacts' descriptions and the history; task get shows the history --history asks for; help
// shows the default.
func TestSpecVerbose(t *testing.T) {
	t.Parallel()
	card := server.CardURL(stream)
	rendered := []string{"State: COMPLETED\n", "Content:\nhello artifacts\n\n", "File: bytes.bin, application/octet-stream, 5 bytes\n",
		"File: report.pdf, application/pdf, at https://example.com/report.pdf\n", "Data:\n{\n  \"answer\": 42,\n  \"ok\": true\n}\n\n"}
	breakdown := []string{"Sent message: ", "Part: Sent 1 of 1, text\nSent:\nartifacts in detail\n\n", "Description: text part\n",
		"Part: Content 1 of 1, file (bytes), application/octet-stream, bytes.bin\n", "Part: Content 1 of 1, file (url), application/pdf, report.pdf\n",
		"Part: Content 1 of 1, data, application/json\n", "History: 2 messages\n", "(user)\nPart: History user 1 of 1, text\nHistory user:\nartifacts in detail\n"}
	out, errOut, code := runCLI(t, nil, "send", "-a", card, "artifacts in detail")
	for _, want := range rendered {
		if !strings.Contains(out, want) {
			t.Errorf("concise: no %q", want)
		}
	}
	if code != exitOK || strings.Contains(out, "Part:") || strings.Contains(out, "History") || strings.Contains(out, "Sent") {
		t.Errorf("concise: exit %d, or more than concise:\n%s%s", code, out, errOut)
	}
	for _, env := range [][]string{nil, {"A2ACLI_VERBOSE=true"}} {
		args := []string{"send", "-a", card, "artifacts in detail"}
		if env == nil {
			args = append(args, "--verbose")
		}
		out, errOut, code := runCLI(t, env, args...)
		for _, want := range append(rendered, breakdown...) {
			if !strings.Contains(out, want) {
				t.Errorf("%v %v: no %q", env, args[len(args)-1], want)
			}
		}
		if code != exitOK || t.Failed() {
			t.Fatalf("verbose: exit %d\n%s%s", code, out, errOut)
		}
	}
	id := sentTask(t, nil, card, "artifacts for task get")
	if out, _, code := runCLI(t, nil, "task", "get", "-a", card, id); code != exitOK || strings.Contains(out, "History") {
		t.Errorf("task get, concise: exit %d\n%s", code, out)
	}
	if out, _, code := runCLI(t, nil, "task", "get", "-a", card, id, "--history", "1"); code != exitOK || !strings.Contains(out, "History: 1 messages\n") ||
		strings.Contains(out, "Part:") {
		t.Errorf("task get --history 1: exit %d\n%s", code, out)
	}
	help, _, _ := runCLI(t, nil, "help", "task", "get")
	if words := strings.Join(strings.Fields(help), " "); !strings.Contains(words, "--verbose show every part") || !strings.Contains(words, "(default: concise: ids, state, status message, artifacts)") {
		t.Errorf("help does not show --verbose's default:\n%s", help)
	}
	help, _, _ = runCLI(t, []string{"A2ACLI_VERBOSE=true"}, "task", "get", "-h")
	if words := strings.Join(strings.Fields(help), " "); !strings.Contains(words, "(here: true, from environment A2ACLI_VERBOSE)") {
		t.Errorf("help does not show the default A2ACLI_VERBOSE sets:\n%s", help)
	}
}

// TestSpecTLS: DEFAULT_001's transport security, AUTH_003: an agent whose certificate no one
// trusts is refused (3, unreachable), its card too; --insecure reaches it and warns once on stderr.
func TestSpecTLS(t *testing.T) {
	t.Parallel()
	card := serveLooseAgent(t, httptest.NewTLSServer, specExecutor{}, nil)
	out, errOut, code := runCLI(t, nil, "card", "get", "-a", card, "-o", "json")
	if e := one(t, out); code != exitUnreachable || dig(e, "error", "code") != errUnreachable || strings.Contains(errOut, "WARNING") {
		t.Errorf("an untrusted certificate: exit %d, %v\n%s", code, e, errOut)
	}
	out, errOut, code = runCLI(t, nil, "send", "-a", card, "--insecure", "--bearer", specToken, "-o", "json", "echo over TLS")
	if code != exitOK || dig(one(t, out), "task", "status", "state") != "TASK_STATE_COMPLETED" || strings.Count(errOut, "WARNING: --insecure") != 1 {
		t.Errorf("send --insecure: exit %d\n%s%s", code, out, errOut)
	}
	if out, errOut, code := runCLI(t, nil, "card", "get", card, "--insecure"); code != exitOK || !strings.Contains(out, "Name: loose agent\n") || !strings.Contains(errOut, "WARNING: --insecure") {
		t.Errorf("card get --insecure: exit %d\n%s%s", code, out, errOut)
	}
}
