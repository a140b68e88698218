package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/creack/pty"

	"github.com/a2aport/a2aport/host"
	"github.com/a2aport/a2aport/internal/testkit/agent"
	"github.com/a2aport/a2aport/internal/testkit/hosttest"
)

// The tests drive the built binary, as a user would, against the Go test agent (a2asrv).
var (
	binary   string
	server   *agent.Server
	childEnv []string // the environment of every run of the binary
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "a2aport-cli-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "a2aport")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		os.Exit(1)
	}
	// The modules under test, compiled before any test's deadline starts, into the cache the
	// binary reads (A2APORT_WAZERO_CACHE; below, for its own version): no test's run compiles them.
	moduleDir, cacheDir := hosttest.MustDirs()
	if err := host.Configure(host.Config{ModuleDir: moduleDir, CompilationCacheDir: cacheDir}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := host.Prepare(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "preparing the module:", err)
		os.Exit(1)
	}
	childEnv = append(os.Environ(), "A2APORT_WAZERO_CACHE="+cacheDir)
	if moduleDir != "" {
		childEnv = append(childEnv, "A2APORT_WASM_DIR="+moduleDir)
	}
	if server, err = agent.Start(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// wazero keys its cache by its own version, which the binary knows and a test process does
	// not ("dev"): reading a 1.0 card and a 0.3 one compiles both flavours on the binary's side too.
	for _, v := range []agent.Variant{stream, {Version: "0.3", Binding: "JSONRPC", Streaming: true}} {
		cmd := exec.Command(binary, "card", server.CardURL(v))
		cmd.Env = childEnv
		if out, err := cmd.CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "compiling the modules for the binary: %v\n%s", err, out)
			os.Exit(1)
		}
	}
	code := m.Run()
	server.Close()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

var stream = agent.Variant{Version: "1.0", Binding: "JSONRPC", Streaming: true}

// command prepares the binary with args, to run the modules TestMain compiled.
func command(t testing.TB, args ...string) *exec.Cmd {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Env = slices.Clone(childEnv)
	return cmd
}

// runCLI runs the binary to its end.
func runCLI(t *testing.T, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := command(t, args...)
	cmd.Env = append(cmd.Env, env...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code = cmd.ProcessState.ExitCode()
	if err != nil && code < 0 {
		t.Fatalf("%v: %v", args, err)
	}
	return out.String(), errOut.String(), code
}

func TestCard(t *testing.T) {
	t.Parallel()
	card := server.SpecialCardURL(agent.CardMixed)
	out, errOut, code := runCLI(t, nil, "card", card)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"a2aport test agent 1.2.3", "▸ JSONRPC", "← picked", "a2aport does not speak GRPC", "later in the card",
		"bearer     HTTP bearer   give --credential bearer=TOKEN", `key        API key in header "X-Api-Key"`, "needs one of: bearer  |  key",
		"Signature not signed", "Test scenarios —", `e.g. "chunks 5"`} {
		if !strings.Contains(out, want) {
			t.Errorf("card output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "\x1b[") {
		t.Error("escape codes written to a pipe")
	}
	raw, _, code := runCLI(t, nil, "card", "--json", card)
	resp, err := http.Get(card)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	served, _ := io.ReadAll(resp.Body)
	if code != exitOK || raw != string(served) {
		t.Errorf("--json printed %q (exit %d), want the card as served", raw, code)
	}
}

func TestSendStreamsAWork(t *testing.T) {
	t.Parallel()
	for _, mode := range [][]string{nil, {"--module"}, {"--native"}} {
		args := append([]string{"send", server.CardURL(stream), "chunks 5 from the terminal"}, mode...)
		out, errOut, code := runCLI(t, nil, args...)
		if code != exitOK || !strings.Contains(out, "part-1 part-2 part-3 part-4 part-5") || !strings.Contains(errOut, "completed") {
			t.Errorf("%v: exit %d\nstdout %s\nstderr %s", mode, code, out, errOut)
		}
	}
}

// --json: one JSON object per line, the events then the outcome.
func TestSendJSON(t *testing.T) {
	t.Parallel()
	out, _, code := runCLI(t, nil, "send", "--json", server.CardURL(stream), "chunks 3 as json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, out)
	}
	var types []string
	var last map[string]any
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		if err := json.Unmarshal(sc.Bytes(), &last); err != nil {
			t.Fatalf("line %q is not JSON: %v", sc.Text(), err)
		}
		types = append(types, last["type"].(string))
	}
	if n := strings.Count(strings.Join(types, " "), "backend.artifact"); n != 3 || types[len(types)-1] != "outcome" || last["exitCode"] != float64(0) {
		t.Errorf("types %v, last %v; want 3 artifact events then the outcome", types, last)
	}
}

// exitCase is a run of the binary and the exit status it must end with.
type exitCase struct {
	name string
	env  []string
	args []string
	code int
}

// exitCases are runs that end with each exit status of the table (TestExitTable checks that
// every status of it is here; 130 is TestInterruptCancelsRemotely's).
func exitCases(locked string) []exitCase {
	return []exitCase{
		{"failed", nil, []string{"send", server.CardURL(stream), "fail please"}, exitOK},
		{"rejected", nil, []string{"send", server.CardURL(stream), "reject please"}, exitOK},
		{"auth required", nil, []string{"send", server.SpecialCardURL(agent.CardBearer), "complete"}, exitAuth},
		{"credential from the environment", []string{"AGENT_SECRET=" + agent.BearerToken},
			[]string{"send", server.SpecialCardURL(agent.CardBearer), "complete with a secret", "--credential", "bearer=@AGENT_SECRET"}, exitOK},
		{"token from A2APORT_TOKEN", []string{"A2APORT_TOKEN=" + agent.BearerToken},
			[]string{"send", server.SpecialCardURL(agent.CardBearer), "complete with a token", "--native"}, exitOK},
		{"network", nil, []string{"send", "http://127.0.0.1:1", "complete"}, exitUnreachable},
		{"card behind a 401", nil, []string{"send", locked, "complete"}, exitAuth},
		{"card behind a 401, module", nil, []string{"send", "--module", locked, "complete"}, exitAuth},
		{"no question answered", nil, []string{"send", server.CardURL(stream), "input without answer"}, exitOK},
		{"usage", nil, []string{"send", server.CardURL(stream)}, exitUsage},
		{"unknown command", nil, []string{"frobnicate"}, exitUsage},
		{"unknown flag", nil, []string{"send", "--frobnicate", server.CardURL(stream), "complete"}, exitUsage},
		{"timeout", nil, []string{"send", "--timeout", "300ms", server.CardURL(stream), "hold for the timeout"}, exitTimeout},
		{"HTTP error of a proxy", nil, []string{"send", server.CardURL(stream), "status502html please"}, exitUnreachable},
		{"unknown Work", nil, []string{"status", "cli-no-such-work"}, exitError},
		{"help", nil, []string{"help", "send"}, exitOK},
	}
}

func TestExitCodes(t *testing.T) {
	t.Parallel()
	locked := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("WWW-Authenticate", "Bearer")
		http.Error(w, "who are you?", http.StatusUnauthorized)
	}))
	t.Cleanup(locked.Close) // the subtests run after this function returns
	for _, tc := range exitCases(locked.URL) {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, errOut, code := runCLI(t, tc.env, tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d\nstdout %s\nstderr %s", code, tc.code, out, errOut)
			}
			if strings.Contains(out+errOut, agent.BearerToken) {
				t.Error("the secret was printed")
			}
			// The specification's CLI reports an end of the agent's task with 0 and names it
			// on stderr (SPEC.md §11.6); a question nobody answers leaves the task waiting.
			switch tc.name {
			case "failed", "rejected":
				if !strings.Contains(errOut, "TASK_"+strings.ToUpper(tc.name)) {
					t.Errorf("no warning names the task's end:\n%s", errOut)
				}
			case "no question answered":
				if cancelledAtAgent(tc.args[2]) || !strings.Contains(errOut, "--task-id ") || !strings.Contains(errOut, "State: input_required") {
					t.Errorf("the task was cancelled, or no command answers it:\n%s", errOut)
				}
			}
		})
	}
}

func TestAnswerFromFlag(t *testing.T) {
	t.Parallel()
	out, errOut, code := runCLI(t, nil, "send", server.CardURL(stream), "input from a flag", "--answer", "Bob")
	if code != exitOK || !strings.Contains(out, "Hello, Bob!") {
		t.Errorf("exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
}

// ptyRun starts the binary on a pseudo-terminal and returns it with what it writes.
type ptyRun struct {
	cmd  *exec.Cmd
	tty  *os.File
	out  chan string // everything written so far, after each read
	done chan int
}

func startPTY(t *testing.T, args ...string) *ptyRun {
	t.Helper()
	return startPTYEnv(t, false, args...)
}

// startPTYEnv is startPTY with NO_COLOR set or not.
func startPTYEnv(t *testing.T, noColor bool, args ...string) *ptyRun {
	t.Helper()
	return startPTYSized(t, 100, noColor, args...)
}

// startPTYSized is startPTY on a terminal cols wide.
func startPTYSized(t *testing.T, cols uint16, noColor bool, args ...string) *ptyRun {
	t.Helper()
	cmd := command(t, args...)
	if noColor {
		cmd.Env = append(cmd.Env, "NO_COLOR=1")
	}
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: cols})
	if err != nil {
		t.Fatal(err)
	}
	r := &ptyRun{cmd: cmd, tty: tty, out: make(chan string, 1024), done: make(chan int, 1)}
	go func() {
		var all bytes.Buffer
		buf := make([]byte, 4096)
		for {
			n, err := tty.Read(buf)
			all.Write(buf[:n])
			select {
			case r.out <- all.String():
			default:
			}
			if err != nil {
				close(r.out)
				return
			}
		}
	}()
	go func() {
		_ = cmd.Wait()
		r.done <- cmd.ProcessState.ExitCode()
	}()
	t.Cleanup(func() { _ = tty.Close(); _ = cmd.Process.Kill() })
	return r
}

// waitFor returns the output once it contains want.
func (r *ptyRun) waitFor(t *testing.T, want string) string {
	t.Helper()
	timeout := time.After(30 * time.Second)
	last := ""
	for {
		select {
		case s, ok := <-r.out:
			if !ok {
				t.Fatalf("the program ended without printing %q:\n%s", want, last)
			}
			last = s
			if strings.Contains(s, want) {
				return s
			}
		case <-timeout:
			t.Fatalf("no %q in:\n%s", want, last)
		}
	}
}

func (r *ptyRun) exit(t *testing.T) int {
	t.Helper()
	select {
	case code := <-r.done:
		return code
	case <-time.After(30 * time.Second):
		t.Fatal("the program did not end")
	}
	return -1
}

// On a terminal: a live status line, the agent's question asked, the answer typed, the result.
func TestInputThroughATerminal(t *testing.T) {
	t.Parallel()
	r := startPTY(t, "send", server.CardURL(stream), "input at the terminal")
	r.waitFor(t, "What is your name?")
	if _, err := r.tty.Write([]byte("Grace\n")); err != nil {
		t.Fatal(err)
	}
	out := r.waitFor(t, "completed in")
	if code := r.exit(t); code != exitOK || !strings.Contains(out, "Hello, Grace!") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	if !strings.Contains(out, "⠋") && !strings.Contains(out, "⠙") {
		t.Errorf("no spinner on a terminal:\n%s", out)
	}
}

// Ctrl-C cancels the task at the agent and exits with 130.
func TestInterruptCancelsRemotely(t *testing.T) {
	t.Parallel()
	const instruction = "hold for the interrupt"
	r := startPTY(t, "send", server.CardURL(stream), instruction)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := server.WaitStarted(ctx, instruction); err != nil {
		t.Fatal(err)
	}
	r.waitFor(t, "working")
	if err := r.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	out := r.waitFor(t, "cancelling the task at the agent")
	if code := r.exit(t); code != exitInterrupted {
		t.Errorf("exit %d, want %d:\n%s", code, exitInterrupted, out)
	}
	if !cancelledAtAgent(instruction) {
		t.Error("the cancel did not reach the agent")
	}
}

// `a2aport agent` serves the demo agent; a Work against it completes; SIGTERM stops it.
func TestAgentCommand(t *testing.T) {
	t.Parallel()
	cmd := command(t, "agent", "--addr", "127.0.0.1:0")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	base, ok := strings.CutPrefix(strings.TrimSpace(line), "a2aport demo agent on ")
	if err != nil || !ok {
		t.Fatalf("first line %q, %v", line, err)
	}
	out, errOut, code := runCLI(t, nil, "send", "--native", base, "Compare tea and coffee")
	if code != exitOK || !strings.Contains(out, "Tea vs coffee") {
		t.Errorf("exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	if err := cmd.Wait(); err != nil {
		t.Errorf("agent: %v", err)
	}
}

// cancelledAtAgent waits (boundedly) for the agent's executor to see the cancel of the task started
// with instruction: a2asrv runs it after answering CancelTask, so it may trail the client's exit.
func cancelledAtAgent(instruction string) bool {
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if server.Cancelled(instruction) {
			return true
		}
	}
	return false
}

// Every kind of artifact part: text printed, bytes saved under their file name (never over a file
// already there), a link shown, data as JSON.
func TestArtifactsOfEveryKind(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bytes.bin"), []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCLI(t, nil, "send", server.CardURL(stream), "artifacts please", "--out", dir)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	saved, err := os.ReadFile(filepath.Join(dir, "bytes-2.bin"))
	if err != nil || !bytes.Equal(saved, []byte{0, 1, 2, 3, 255}) {
		t.Errorf("saved %v, %v; want the raw part beside the file that was there", saved, err)
	}
	if kept, _ := os.ReadFile(filepath.Join(dir, "bytes.bin")); string(kept) != "keep me" {
		t.Error("an existing file was overwritten")
	}
	for _, want := range []string{"hello artifacts", "saved " + filepath.Join(dir, "bytes-2.bin"), "https://example.com/report.pdf", `"answer": 42`} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
}

// TestCardRedirectKeepsHeaders: `a2aport card` with --header follows a redirect of the card only
// within its origin; another origin never sees the header.
func TestCardRedirectKeepsHeaders(t *testing.T) {
	t.Parallel()
	var reached []string
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached = append(reached, r.Header.Get("X-Api-Key"))
		http.NotFound(w, r)
	}))
	defer elsewhere.Close()
	away := httptest.NewServer(http.RedirectHandler(elsewhere.URL+"/.well-known/agent-card.json", http.StatusFound))
	defer away.Close()
	_, errOut, code := runCLI(t, nil, "card", "--header", "X-Api-Key: cli-5ecret", away.URL+"/.well-known/agent-card.json")
	if code == exitOK || !strings.Contains(errOut, "another origin") || strings.Contains(errOut, "cli-5ecret") {
		t.Errorf("exit %d, stderr %s; want a refused redirect, saying so, without the header's value", code, errOut)
	}
	if len(reached) != 0 {
		t.Errorf("the other origin received %q", reached)
	}
}

// TestModuleBehavesAsNative: --module runs the WebAssembly module a page runs; for each kind of
// ending it prints what the default (Go) client prints and exits the same, on a streaming and a
// polling agent, over 1.0 and 0.3.
func TestModuleBehavesAsNative(t *testing.T) {
	t.Parallel()
	for _, v := range []agent.Variant{agent.Variants()[0], agent.Variants()[3], agent.Variants()[4]} {
		for _, instruction := range []string{"complete the same", "chunks 4", "fail on purpose", "reject it", "message please"} {
			native, _, nativeCode := runCLI(t, nil, "send", server.CardURL(v), instruction)
			module, moduleErr, moduleCode := runCLI(t, nil, "send", "--module", server.CardURL(v), instruction)
			if module != native || moduleCode != nativeCode {
				t.Errorf("%s %q: --module exit %d, stdout %q (stderr %s); Go client exit %d, stdout %q", v.Name(), instruction, moduleCode, module, moduleErr, nativeCode, native)
			}
		}
	}
}

// TestNoColor: with NO_COLOR (https://no-color.org) or --color=never a terminal gets the rendered
// answer without a colour or emphasis code; without them, markdown is rendered with them; with
// --color=always even a pipe gets colours.
func TestNoColor(t *testing.T) {
	t.Parallel()
	sgr := regexp.MustCompile("\x1b\\[[0-9;]*m")
	for _, noColor := range []bool{false, true} {
		r := startPTYEnv(t, noColor, "send", server.CardURL(stream), "complete **bold** and _emphasis_")
		out := r.waitFor(t, "completed in")
		r.exit(t)
		if got := sgr.MatchString(out); got == noColor {
			t.Errorf("NO_COLOR=%v: colour codes %v in:\n%q", noColor, got, out)
		}
	}
	r := startPTY(t, "send", "--color=never", server.CardURL(stream), "complete **bold** never")
	if out := r.waitFor(t, "completed in"); sgr.MatchString(out) {
		t.Errorf("--color=never on a terminal: %q", out)
	}
	r.exit(t)
	_, errOut, code := runCLI(t, nil, "send", "--color=always", server.CardURL(stream), "complete in colour")
	if code != exitOK || !sgr.MatchString(errOut) {
		t.Errorf("--color=always in a pipe: exit %d, stderr %q", code, errOut)
	}
	if _, _, code := runCLI(t, nil, "send", "--color=sometimes", server.CardURL(stream), "x"); code != exitUsage {
		t.Errorf("--color=sometimes: exit %d", code)
	}
}

// TestPipedOutput: in a pipe stdout is the agent's answer and nothing else (the artifact's title
// goes to stderr); with stdout on a terminal and stderr in a file, the file gets state lines and
// no animation; --json's last line names why an unanswered question failed.
func TestPipedOutput(t *testing.T) {
	t.Parallel()
	out, errOut, code := runCLI(t, nil, "send", server.CardURL(stream), "chunks 3")
	if code != exitOK || out != "part-1 part-2 part-3 \n" || !strings.Contains(errOut, "artifact report") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}

	cmd := command(t, "send", server.CardURL(stream), "slow 300")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 100})
	if err != nil {
		t.Fatal(err)
	}
	go func() { _, _ = io.Copy(io.Discard, tty) }()
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	_ = tty.Close()
	if s := stderr.String(); strings.ContainsAny(s, strings.Join(spinner, "")) || strings.Contains(s, "\x1b[") || !strings.Contains(s, "completed") {
		t.Errorf("stderr in a file while stdout is a terminal: %q", s)
	}

	out, _, code = runCLI(t, nil, "send", "--json", server.CardURL(stream), "input unanswered in json")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != exitOK || !strings.Contains(lines[len(lines)-1], `"code":"INPUT_UNANSWERED"`) || !strings.Contains(lines[len(lines)-1], `"remoteTaskId":"`) {
		t.Errorf("exit %d, last line %s", code, lines[len(lines)-1])
	}
}

// TestStatusLineFitsTheTerminal: on a narrow terminal the live status line is cut to its width,
// so it is redrawn in place instead of wrapping.
func TestStatusLineFitsTheTerminal(t *testing.T) {
	t.Parallel()
	const cols = 20
	r := startPTYSized(t, cols, false, "send", server.CardURL(stream), "slow 600")
	out := r.waitFor(t, "completed in")
	r.exit(t)
	drawn := 0
	for _, seg := range strings.FieldsFunc(out, func(c rune) bool { return c == '\r' || c == '\n' }) {
		plain := ansi.Strip(seg)
		if !strings.ContainsAny(plain, strings.Join(spinner, "")) {
			continue
		}
		drawn++
		if w := ansi.StringWidth(plain); w >= cols {
			t.Errorf("a status line %d columns wide on a %d-column terminal: %q", w, cols, plain)
		}
	}
	if drawn == 0 {
		t.Fatalf("no status line drawn:\n%q", out)
	}
}

// TestInterruptAtThePrompt: Ctrl-C while the agent's question waits for an answer cancels the
// task at the agent and exits 130 at once (it used to hang, waiting for a line of input).
func TestInterruptAtThePrompt(t *testing.T) {
	t.Parallel()
	const instruction = "input interrupted at the prompt"
	r := startPTY(t, "send", server.CardURL(stream), instruction)
	r.waitFor(t, "What is your name?")
	if _, err := r.tty.Write([]byte{0x03}); err != nil { // Ctrl-C, as the terminal sends it
		t.Fatal(err)
	}
	start := time.Now()
	if code := r.exit(t); code != exitInterrupted {
		t.Errorf("exit %d, want %d", code, exitInterrupted)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("exit took %v", took)
	}
	if !cancelledAtAgent(instruction) {
		t.Error("the cancel did not reach the agent")
	}
}

// TestSendJSONIsLinear: --json's events carry what each added (the delta), so the bytes of JSON
// grow with the answer, not with its square: at most 3× the answer plus a constant per event. The
// last line's outcome has the whole answer.
func TestSendJSONIsLinear(t *testing.T) {
	t.Parallel()
	out, _, code := runCLI(t, nil, "send", "--json", server.CardURL(stream), "chunks 100")
	var answer strings.Builder
	for i := 1; i <= 100; i++ {
		fmt.Fprintf(&answer, "part-%d ", i)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if limit := 3*answer.Len() + 200*len(lines); code != exitOK || len(out) > limit {
		t.Errorf("exit %d, %d bytes of JSON in %d lines for a %d-byte answer (limit %d)", code, len(out), len(lines), answer.Len(), limit)
	}
	if last := lines[len(lines)-1]; !strings.Contains(last, `"type":"outcome"`) || !strings.Contains(last, answer.String()) {
		t.Errorf("last line %s", last)
	}
}
