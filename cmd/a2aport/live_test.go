package main

import (
	"bufio"
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

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

// TestTaskIDs: the agent's task and context ids are shown on stderr (a line of --json) once it
// names them; nothing is written under the cache directory unless --keep asks (the
// specification's CLI stores no task state: INTERACT_005), and then the Work's file while it runs.
func TestTaskIDs(t *testing.T) {
	t.Parallel()
	cache := t.TempDir()
	env := []string{"XDG_CACHE_HOME=" + cache}
	_, errOut, code := runCLI(t, env, "send", server.CardURL(stream), "complete with ids")
	ids := regexp.MustCompile(`task (\S+) · context (\S+)`).FindStringSubmatch(errOut)
	if code != exitOK || ids == nil {
		t.Fatalf("exit %d, no ids on stderr:\n%s", code, errOut)
	}
	out, _, _ := runCLI(t, env, "send", "--json", server.CardURL(stream), "complete with ids in json")
	if !regexp.MustCompile(`(?m)^\{"remoteContextId":"[^"]+","remoteTaskId":"[^"]+","type":"task","workId":"cli-[0-9a-f]+"\}$`).MatchString(out) {
		t.Errorf("no task line in --json:\n%s", out)
	}

	dir := filepath.Join(cache, "a2aport", "works")
	if left, _ := filepath.Glob(filepath.Join(dir, "*", "*")); len(left) != 0 {
		t.Errorf("Works without --keep left files: %v", left)
	}
	const instruction = "hold with a file"
	cmd := command(t, "send", "--keep", server.CardURL(stream), instruction)
	cmd.Env = append(cmd.Env, env...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := server.WaitStarted(ctx, instruction); err != nil {
		t.Fatal(err)
	}
	var saved []string
	for ctx.Err() == nil {
		if saved, _ = filepath.Glob(filepath.Join(dir, "*", "[^.]*.json")); len(saved) == 1 {
			if data, _ := os.ReadFile(saved[0]); regexp.MustCompile(`"remoteTaskId":"[^"]`).Match(data) {
				break
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	if ctx.Err() != nil {
		t.Fatalf("no file with the task's id in %s: %v", dir, saved)
	}
	_ = cmd.Process.Signal(syscall.SIGINT)
	_ = cmd.Wait()
	if left, _ := filepath.Glob(filepath.Join(dir, "*", "[^.]*.json")); len(left) != 0 {
		t.Errorf("the ended Work's file is left: %v", left)
	}
}

// TestModuleFirstRunSaysSo: with --module and no compiled code cached, the command says what it
// is doing before it has anything else to show.
func TestModuleFirstRunSaysSo(t *testing.T) {
	t.Parallel()
	_, errOut, code := runCLI(t, []string{"A2APORT_WAZERO_CACHE=" + t.TempDir()}, "send", "--module", server.CardURL(stream), "complete after compiling")
	if code != exitOK || !strings.Contains(errOut, "starting the WebAssembly module") {
		t.Errorf("exit %d, stderr:\n%s", code, errOut)
	}
	if i, j := strings.Index(errOut, "starting the WebAssembly"), strings.Index(errOut, "submitted"); j >= 0 && i > j {
		t.Errorf("the notice came after the first event:\n%s", errOut)
	}
}
