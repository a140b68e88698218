package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hostileText holds what an agent could do to a terminal: set the title (OSC 0), write the
// clipboard (OSC 52), hide a link (OSC 8), clear the screen, move the cursor up and erase, ring,
// an 8-bit CSI, and reverse the line (RLO).
const hostileText = "title\x1b]0;pwned\x07 clip\x1b]52;c;ZXZpbA==\x07 link\x1b]8;;https://evil.example\x1b\\here\x1b]8;;\x1b\\ " +
	"clear\x1b[2J up\x1b[1A\x1b[2K bell\x07 csi\u009b31m rlo\u202efdp.exe"

// rawControl reports the first control sequence of hostileText that survived in out.
func rawControl(out string) string {
	for _, seq := range []string{"\x1b]0;", "\x1b]52;", "\x1b]8;", "\x1b[2J", "\x1b[1A", "\x07", "\u009b", "\u202e"} {
		if strings.Contains(out, seq) {
			return seq
		}
	}
	return ""
}

// TestAgentTextIsInert: what the agent says reaches the terminal, a pipe and --json made inert:
// its control characters shown as escapes, never obeyed (CVE-2021-25743's class).
func TestAgentTextIsInert(t *testing.T) {
	t.Parallel()
	card := server.CardURL(stream)
	out, errOut, code := runCLI(t, nil, "send", card, "complete "+hostileText)
	if code != exitOK || !strings.Contains(out, `\x1b]52;c;`) {
		t.Fatalf("exit %d\nstdout %q\nstderr %q; want the text with its escapes visible", code, out, errOut)
	}
	if seq := rawControl(out + errOut); seq != "" {
		t.Errorf("a pipe received %q raw:\n%q", seq, out)
	}
	jsonOut, _, _ := runCLI(t, nil, "send", "--json", card, "complete "+hostileText)
	if seq := rawControl(jsonOut); seq != "" || strings.Contains(jsonOut, "\x1b") {
		t.Errorf("--json printed %q raw:\n%q", seq, jsonOut)
	}
	for _, line := range strings.Split(strings.TrimSpace(jsonOut), "\n") {
		if !json.Valid([]byte(line)) {
			t.Errorf("--json printed a line that is not JSON: %q", line)
		}
	}
	r := startPTY(t, "send", card, "complete "+hostileText)
	tty := r.waitFor(t, "completed in")
	if seq := rawControl(tty); seq != "" {
		t.Errorf("the terminal received %q raw:\n%q", seq, tty)
	}
	// A failure's text, and a question's prompt, come from the agent too.
	_, errOut, _ = runCLI(t, nil, "send", card, "fail "+hostileText)
	if seq := rawControl(errOut); seq != "" {
		t.Errorf("a failure printed %q raw: %q", seq, errOut)
	}
}

// TestHostileCardIsInert: every field of a card is printed inert by `a2aport card`.
func TestHostileCardIsInert(t *testing.T) {
	t.Parallel()
	h, _ := json.Marshal(hostileText)
	card := `{"name":` + string(h) + `,"version":` + string(h) + `,"description":` + string(h) +
		`,"provider":{"organization":` + string(h) + `,"url":"https://x.example"},"capabilities":{"extensions":[{"uri":` + string(h) + `,"description":` + string(h) + `}]},` +
		`"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],` +
		`"skills":[{"id":"s","name":` + string(h) + `,"description":` + string(h) + `,"tags":[` + string(h) + `],"examples":[` + string(h) + `]}],` +
		`"supportedInterfaces":[{"url":"http://127.0.0.1:1/a2a","protocolBinding":"JSONRPC","protocolVersion":"1.0","tenant":` + string(h) + `}]}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(card))
	}))
	defer srv.Close()
	out, errOut, _ := runCLI(t, nil, "card", srv.URL+"/.well-known/agent-card.json")
	if !strings.Contains(out, `\x1b]0;pwned`) {
		t.Fatalf("the card was not printed:\n%q\n%q", out, errOut)
	}
	if seq := rawControl(out + errOut); seq != "" {
		t.Errorf("the card printed %q raw:\n%q", seq, out)
	}
	r := startPTY(t, "card", srv.URL+"/.well-known/agent-card.json")
	tty := r.waitFor(t, "e.g.")
	r.exit(t)
	if seq := rawControl(tty); seq != "" {
		t.Errorf("the terminal received %q raw:\n%q", seq, tty)
	}
}

// TestMarkdownBombIsShownPlain: 120 nested blockquotes (123 bytes) kept the renderer busy past
// 30 s at 2 GB, 200 nested list items 7 s; now they are shown as text, at once.
func TestMarkdownBombIsShownPlain(t *testing.T) {
	t.Parallel()
	var list strings.Builder
	for i := range 200 {
		list.WriteString(strings.Repeat("  ", i) + "- x\n")
	}
	for name, bomb := range map[string]string{
		"blockquotes": strings.Repeat(">", 120) + " **x**",
		"list":        list.String(),
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := startPTY(t, "send", server.CardURL(stream), "complete\n"+bomb)
			out := r.waitFor(t, "completed in")
			if code := r.exit(t); code != exitOK || !strings.Contains(strings.ReplaceAll(out, "\r", ""), bomb[:40]) {
				t.Errorf("exit %d:\n%s", code, out)
			}
		})
	}
}

// TestSavedNamesAreSafe: an agent's file name cannot leave the folder, hide a file, reverse its
// extension, write through a planted link, or vanish for its length.
func TestSavedNamesAreSafe(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "target")
	if err := os.Symlink(outside, filepath.Join(dir, "planted.bin")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, want string }{
		{"planted.bin", "planted-2.bin"},
		{".bashrc", "_bashrc"},
		{"invoice\u202efdp.exe", "invoicefdp.exe"},
		{"../../etc/passwd", "passwd"},
		{"csi\u009bname.txt", "csiname.txt"},
		{strings.Repeat("x", 5000) + ".txt", strings.Repeat("x", 196) + ".txt"},
	} {
		out, errOut, code := runCLI(t, nil, "send", "--out", dir, server.CardURL(stream), "named "+tc.name)
		if code != exitOK || !strings.Contains(out, filepath.Join(dir, tc.want)) {
			t.Errorf("%q: exit %d\nstdout %s\nstderr %s; want it saved as %s", tc.name, code, out, errOut, tc.want)
		}
	}
	if _, err := os.Lstat(outside); err == nil {
		t.Error("the planted link was written through")
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("a hidden file was saved: %s", e.Name())
		}
	}
	// A save that fails is an error.
	ro := t.TempDir()
	if err := os.Chmod(ro, 0o500); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() != 0 { // root writes anywhere
		if _, errOut, code := runCLI(t, nil, "send", "--out", ro, server.CardURL(stream), "named x.bin"); code == exitOK {
			t.Errorf("a failed save exited 0: %s", errOut)
		}
	}
}
