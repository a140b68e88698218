package main

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/a2aport/a2aport/internal/testkit/a2acli"
)

// gatedAgent is a2a-go's command-line agent running a command that streams "first ", "second "
// at once, then waits until the file the instruction names exists before "third ": what a2aport
// shows before the file is created is shown live. (The agent holds one chunk back to mark the
// last one, so "second " is sent when "third " is written.)
func gatedAgent(t *testing.T) string {
	t.Helper()
	return a2acli.Serve(t, a2acli.Build(t), "--transport", "jsonrpc", "--chunk", "|", "--exec",
		`printf 'first |second |'; read gate; while [ ! -e "$gate" ]; do sleep 0.05; done; printf 'third |'`)
}

// TestLiveText: a streamed answer is shown as it arrives, in a pipe and on terminals 60 and 120
// columns wide, natively and with --module.
func TestLiveText(t *testing.T) {
	t.Parallel()
	card := gatedAgent(t)
	for _, mode := range [][]string{nil, {"--module"}} {
		gate := filepath.Join(t.TempDir(), "gate")
		cmd := command(t, append([]string{"send", card, gate}, mode...)...)
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		in := bufio.NewReader(stdout)
		got := ""
		for !strings.Contains(got, "first ") {
			b, err := in.ReadByte()
			if err != nil {
				t.Fatalf("%v: stdout ended with %q before the agent finished", mode, got)
			}
			got += string(b)
		}
		if err := os.WriteFile(gate, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		rest, _ := io.ReadAll(in)
		if err := cmd.Wait(); err != nil || got+string(rest) != "first second third \n" {
			t.Errorf("%v: %v, stdout %q", mode, err, got+string(rest))
		}
	}
	for _, cols := range []uint16{60, 120} {
		gate := filepath.Join(t.TempDir(), "gate")
		r := startPTYSized(t, cols, false, "send", card, gate)
		r.waitFor(t, "first ")
		if err := os.WriteFile(gate, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		out := r.waitFor(t, "completed in")
		if code := r.exit(t); code != exitOK || !strings.Contains(out, "first second third") {
			t.Errorf("%d columns: exit %d:\n%q", cols, code, out)
		}
	}
}

// TestLiveMarkdownIsRendered: on a terminal, an answer shown live as it arrives is rendered as
// markdown once complete, in place of the plain text; in a pipe it stays the agent's text.
func TestLiveMarkdownIsRendered(t *testing.T) {
	t.Parallel()
	card := a2acli.Serve(t, a2acli.Build(t), "--chunk", "|", "--exec", `printf '# Heading\n|some **bold** text\n|'`)
	r := startPTYSized(t, 80, false, "send", card, "markdown please")
	out := r.waitFor(t, "completed in")
	r.exit(t)
	live, rendered, ok := strings.Cut(out, "\x1b[J")
	if !ok || !strings.Contains(live, "some **bold** text") || strings.Contains(rendered, "**") || !strings.Contains(rendered, "bold") {
		t.Errorf("want the live text, then the screen below it cleared and the rendering:\n%q", out)
	}
	stdout, _, code := runCLI(t, nil, "send", card, "markdown please")
	if code != exitOK || stdout != "# Heading\nsome **bold** text\n" {
		t.Errorf("pipe: exit %d, stdout %q", code, stdout)
	}
}
