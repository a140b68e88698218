package tests

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/a2aport/a2aport"

	"github.com/a2aport/a2aport/adapter"
	"github.com/a2aport/a2aport/host"
	"github.com/a2aport/a2aport/internal/filestore"
	"github.com/a2aport/a2aport/internal/testkit/agent"
	"github.com/a2aport/a2aport/internal/testkit/hosttest"
)

// A frontend process that dies: the test binary runs itself as one (crashHelperEnv set), which
// submits one Work with a WorkStore in a folder, says so on stdout and waits to be killed.
const crashHelperEnv = "A2APORT_CRASH_HELPER"

// runCrashHelper is the frontend process: args are the implementation, the card URL, the store
// folder, the Work's id, instruction and traceparent, tab-separated in crashHelperEnv.
func runCrashHelper(spec string) {
	args := strings.Split(spec, "\t")
	if len(args) != 6 {
		fmt.Fprintln(os.Stderr, "crash helper: bad arguments", args)
		os.Exit(2)
	}
	implName, card, dir, id, instruction, tp := args[0], args[1], args[2], args[3], args[4], args[5]
	store, err := filestore.NewWorkStore(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "crash helper:", err)
		os.Exit(2)
	}
	opts := a2aport.Options{AgentCardURL: card, WorkStore: store, PollInterval: a2aport.MinPollInterval}
	var p a2aport.Port
	if implName == "module" {
		moduleDir, cacheDir := hosttest.MustDirs()
		if err = host.Configure(host.Config{ModuleDir: moduleDir, CompilationCacheDir: cacheDir}); err == nil {
			p, err = host.New(context.Background(), opts)
		}
	} else {
		p, err = adapter.New(opts)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "crash helper:", err)
		os.Exit(2)
	}
	fmt.Println("submitting")
	_, err = p.Submit(context.Background(), a2aport.Work{ID: id, OwnerID: "alice", Instruction: instruction}, a2aport.Traceparent(tp))
	fmt.Println("the Work ended before the kill:", err) // the test fails on this
	select {}
}

// TestCrashInTheMiddle: a frontend process is killed while its Work's message is on its way, and
// while its Work streams; the next process, on the same WorkStore folder, settles the Work. The
// agent received the message exactly once either way: a message on its way is A2A_OUTCOME_UNKNOWN
// (never sent again), a streaming Work is followed to its outcome. Natively and in the module.
func TestCrashInTheMiddle(t *testing.T) {
	t.Parallel()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, impl := range implementations {
		for _, tc := range []struct {
			name, instruction string
			state             a2aport.WorkState // the record the kill waits for ("": the message on its way)
		}{
			{"send in flight", "holdsend 3000", ""},
			{"streaming", "slow 2500", a2aport.StateWorking},
		} {
			t.Run(impl.name+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				ctx := testContext(t)
				dir := filepath.Join(t.TempDir(), "works")
				w := newWork("alice", fmt.Sprintf("%s crash %s", tc.instruction, t.Name()))
				tp := fmt.Sprintf("00-%032x-%016x-01", 0xc2a50000+workSeq.Add(1), 3)
				card := server.CardURL(agent.Variants()[0])
				cmd := exec.Command(self, "-test.run=^$")
				cmd.Env = append(os.Environ(), crashHelperEnv+"="+strings.Join([]string{impl.name, card, dir, w.ID, w.Instruction, tp}, "\t"))
				out, err := cmd.StdoutPipe()
				if err != nil {
					t.Fatal(err)
				}
				cmd.Stderr = os.Stderr
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
				lines := bufio.NewScanner(out)
				if !lines.Scan() || lines.Text() != "submitting" {
					t.Fatalf("the frontend process said %q", lines.Text())
				}
				go func() {
					for lines.Scan() {
						t.Errorf("frontend process: %s", lines.Text())
					}
				}()
				store, err := filestore.NewWorkStore(dir)
				if err != nil {
					t.Fatal(err)
				}
				if err := server.WaitStarted(ctx, w.Instruction); err != nil {
					t.Fatal(err)
				}
				for { // the record the kill waits for
					rec, ok, _ := store.Get(ctx, w.ID)
					if ok && (tc.state == "" || rec.RemoteTaskID != "" && rec.State == tc.state) {
						break
					}
					select {
					case <-ctx.Done():
						t.Fatalf("the frontend never recorded the Work: %+v", rec)
					case <-time.After(5 * time.Millisecond):
					}
				}
				if err := cmd.Process.Kill(); err != nil {
					t.Fatal(err)
				}
				_ = cmd.Wait()

				next := newPort(t, impl, a2aport.Options{AgentCardURL: card, WorkStore: store, PollInterval: a2aport.MinPollInterval})
				res, err := next.Resume(ctx, w.ID, "alice", a2aport.Traceparent(tp)) // a send would carry tp
				switch tc.state {
				case "":
					if !errors.Is(err, a2aport.ErrOutcomeUnknown) {
						t.Errorf("Resume() after a kill while the message was on its way = %+v, %v; want A2A_OUTCOME_UNKNOWN", res, err)
					}
				default:
					if err != nil || !strings.Contains(res.Content, "slow done") {
						t.Errorf("Resume() after a kill while streaming = %+v, %v; want the outcome", res, err)
					}
				}
				if _, ok, _ := store.Get(ctx, w.ID); ok {
					t.Error("the record of a settled Work is still there")
				}
				sends := 0
				for _, r := range server.Requests() {
					if r.Header.Get("traceparent") == tp && (r.A2AMethod == "SendMessage" || r.A2AMethod == "SendStreamingMessage") {
						sends++
					}
				}
				if sends != 1 {
					t.Errorf("the agent received the message %d times, want exactly once", sends)
				}
			})
		}
	}
}
