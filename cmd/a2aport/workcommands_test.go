package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/a2aport/a2aport/internal/testkit/agent"
)

// listed is the recorded Works, as status --json lists them.
func listed(t *testing.T, env []string) []map[string]any {
	t.Helper()
	return statusLines(t, env, "work")
}

// endedListed is the Works status --json lists as ended, the most recent first.
func endedListed(t *testing.T, env []string) []map[string]any {
	t.Helper()
	return statusLines(t, env, "ended")
}

// statusLines are the lines of status --json of one type.
func statusLines(t *testing.T, env []string, typ string) []map[string]any {
	t.Helper()
	out, errOut, code := runCLI(t, env, "status", "--json")
	if code != exitOK {
		t.Fatalf("status --json: exit %d\n%s", code, errOut)
	}
	var works []map[string]any
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var w map[string]any
		if err := json.Unmarshal(sc.Bytes(), &w); err != nil {
			t.Fatalf("status --json: %v: %q", err, sc.Text())
		}
		if w["type"] == typ {
			works = append(works, w)
		}
	}
	return works
}

// awaitListed waits until status lists one Work that named its task, and returns it.
func awaitListed(t *testing.T, env []string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if works := listed(t, env); len(works) == 1 && works[0]["remoteTaskId"] != "" {
			return works[0]
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("no Work listed with its task: %v", listed(t, env))
	return nil
}

// TestDetachStatusResume: send --detach leaves a Work waiting for its answer at the agent;
// status, from another process, shows it as the agent has it and leaves it so (twice); resume
// asks the question and the answer completes the Work, after which nothing is recorded.
func TestDetachStatusResume(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"--native", "--module"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			env := []string{"XDG_CACHE_HOME=" + t.TempDir()}
			_, errOut, code := runCLI(t, env, "send", mode, "--detach", server.CardURL(stream), "input for detach "+mode)
			id := regexp.MustCompile(`status\|resume\|cancel (cli-[0-9a-f]+)`).FindStringSubmatch(errOut)
			if code != exitOK || id == nil {
				t.Fatalf("send --detach: exit %d, no id on stderr:\n%s", code, errOut)
			}
			if works := listed(t, env); len(works) != 1 || works[0]["workId"] != id[1] || works[0]["followed"] != false {
				t.Fatalf("status --json lists %v; want the detached Work, followed by no one", works)
			}
			for range 2 {
				out, errOut, code := runCLI(t, env, "status", mode, id[1])
				if code != exitOK || !strings.Contains(out, "input_required") || !strings.Contains(out, "What is your name?") || !strings.Contains(out, "a2aport resume "+id[1]) {
					t.Fatalf("status: exit %d\n%s%s", code, out, errOut)
				}
			}
			out, errOut, code := runCLI(t, env, "resume", mode, id[1], "--answer", "Bob")
			if code != exitOK || !strings.Contains(out, "Hello, Bob!") {
				t.Fatalf("resume --answer Bob: exit %d\n%s%s", code, out, errOut)
			}
			if works := listed(t, env); len(works) != 0 {
				t.Errorf("an ended Work is still listed: %v", works)
			}
			if ended := endedListed(t, env); len(ended) != 1 || ended[0]["workId"] != id[1] || ended[0]["state"] != "completed" || ended[0]["remoteTaskId"] == "" {
				t.Errorf("status --json lists as ended %v; want the Work, completed, with its task", ended)
			}
			if out, _, _ := runCLI(t, env, "status"); !regexp.MustCompile(id[1] + `\s+\S+\s+ended completed`).MatchString(out) {
				t.Errorf("status does not show the ended Work:\n%s", out)
			}
			if _, errOut, code := runCLI(t, env, "status", id[1]); code != exitError || !strings.Contains(errOut, "no running Work") {
				t.Errorf("status of an ended Work: exit %d, %s", code, errOut)
			}
		})
	}
}

// TestCancelFromAnotherShell: while one process follows a Work it keeps (--keep), another cannot
// resume it (two would answer the same questions) but can see it and cancel it: the task is
// cancelled at the agent once and the first process ends, reporting it cancelled.
func TestCancelFromAnotherShell(t *testing.T) {
	t.Parallel()
	env := []string{"XDG_CACHE_HOME=" + t.TempDir()}
	const instruction = "hold for another shell"
	first := command(t, "send", "--keep", server.CardURL(stream), instruction)
	first.Env = append(first.Env, env...)
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	w := awaitListed(t, env)
	id, task := w["workId"].(string), w["remoteTaskId"].(string)
	if w["followed"] != true {
		t.Errorf("a Work its process follows is listed as %v", w)
	}
	if out, _, code := runCLI(t, env, "status", id); code != exitOK || !strings.Contains(out, "by another a2aport process") {
		t.Errorf("status of a followed Work: exit %d\n%s", code, out)
	}
	if _, errOut, code := runCLI(t, env, "resume", id); code != exitError || !strings.Contains(errOut, "another a2aport process follows") {
		t.Errorf("resume of a followed Work: exit %d, %s", code, errOut)
	}
	_, errOut, code := runCLI(t, env, "cancel", task[:8]) // the start of the task id is enough
	if code != exitOK || !strings.Contains(errOut, "cancelled task "+task) {
		t.Fatalf("cancel: exit %d\n%s", code, errOut)
	}
	err := first.Wait()
	// The specification's CLI exits 0 for a turn it conducted, whatever the task's end (SPEC.md §11.6).
	if code := first.ProcessState.ExitCode(); code != exitOK {
		t.Errorf("the following process: %v, exit %d; want %d", err, code, exitOK)
	}
	if !server.Cancelled(instruction) {
		t.Error("the agent's task was not cancelled")
	}
	if works := listed(t, env); len(works) != 0 {
		t.Errorf("a cancelled Work is still listed: %v", works)
	}
	if ended := endedListed(t, env); len(ended) != 1 || ended[0]["workId"] != id || ended[0]["state"] != "cancelled" {
		t.Errorf("status --json lists as ended %v; want the Work once, cancelled", ended)
	}
}

// TestResumeAfterKill: a process killed while it follows a Work it keeps leaves it recorded and free
// (the lock goes with the process); resume completes it.
func TestResumeAfterKill(t *testing.T) {
	t.Parallel()
	env := []string{"XDG_CACHE_HOME=" + t.TempDir()}
	first := command(t, "send", "--keep", server.CardURL(stream), "slow 1500 for a killed follower")
	first.Env = append(first.Env, env...)
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	w := awaitListed(t, env)
	_ = first.Process.Signal(syscall.SIGKILL)
	_ = first.Wait()
	if works := listed(t, env); len(works) != 1 || works[0]["followed"] != false {
		t.Fatalf("after the kill: %v; want the Work, followed by no one", works)
	}
	out, errOut, code := runCLI(t, env, "resume", w["workId"].(string))
	if code != exitOK || !strings.Contains(out, "slow done") {
		t.Errorf("resume: exit %d\n%s%s", code, out, errOut)
	}
}

// TestTaskOfAnAgent: status and cancel of a task a2aport did not record, named by the agent's
// URL and the task id: the cache that knows nothing of it is left empty.
func TestTaskOfAnAgent(t *testing.T) {
	t.Parallel()
	const instruction = "input for a task by url"
	_, errOut, code := runCLI(t, []string{"XDG_CACHE_HOME=" + t.TempDir()}, "send", "--detach", server.CardURL(stream), instruction)
	task := regexp.MustCompile(`task (\S+)`).FindStringSubmatch(errOut)
	if code != exitOK || task == nil {
		t.Fatalf("send --detach: exit %d\n%s", code, errOut)
	}
	env := []string{"XDG_CACHE_HOME=" + t.TempDir()}
	if out, errOut, code := runCLI(t, env, "status", server.CardURL(stream), task[1]); code != exitOK || !strings.Contains(out, "input_required") {
		t.Errorf("status URL TASK: exit %d\n%s%s", code, out, errOut)
	}
	out, _, code := runCLI(t, env, "cancel", "--json", server.CardURL(stream), task[1])
	if code != exitOK || !strings.Contains(out, `"cancelled":true`) || !server.Cancelled(instruction) {
		t.Errorf("cancel --json URL TASK: exit %d, %s; cancelled at the agent: %v", code, out, server.Cancelled(instruction))
	}
	if works := listed(t, env); len(works) != 0 {
		t.Errorf("status and cancel recorded %v", works)
	}
	// An unknown task is the agent's "task not found", in words, over JSON-RPC and HTTP+JSON alike
	// (where it was the raw body of a 404).
	for _, v := range []agent.Variant{stream, agent.Variants()[3]} {
		out, errOut, code := runCLI(t, env, "status", server.CardURL(v), "no-such-task")
		if code != exitError || !strings.Contains(out, "not_found") || !strings.Contains(errOut, "has no task no-such-task (task not found)") || strings.Contains(errOut, "{") {
			t.Errorf("status of an unknown task on %s: exit %d\n%s%s", v.Name(), code, out, errOut)
		}
	}
}

// TestStatusShowsTheAnswerSoFar: status of a Work whose answer is streaming names its artifact
// and how much of it the agent has written (a2a-go's `a2a serve`, its command held by a gate);
// resume then shows the whole answer once the command goes on.
func TestStatusShowsTheAnswerSoFar(t *testing.T) {
	t.Parallel()
	env := []string{"XDG_CACHE_HOME=" + t.TempDir()}
	gate := filepath.Join(t.TempDir(), "gate")
	card := gatedAgent(t)
	_, errOut, code := runCLI(t, env, "send", "--detach", card, gate)
	id := regexp.MustCompile(`cancel (cli-[0-9a-f]+)`).FindStringSubmatch(errOut)
	if code != exitOK || id == nil {
		t.Fatalf("send --detach: exit %d\n%s", code, errOut)
	}
	var snap snapshot
	for deadline := time.Now().Add(20 * time.Second); len(snap.Artifacts) == 0 && time.Now().Before(deadline); {
		out, errOut, code := runCLI(t, env, "status", "--json", id[1])
		if err := json.Unmarshal([]byte(out), &snap); err != nil || code != exitOK {
			t.Fatalf("status --json: exit %d, %v\n%s%s", code, err, out, errOut)
		}
	}
	if len(snap.Artifacts) != 1 || snap.Artifacts[0].Bytes < len("first ") || snap.Ended {
		t.Fatalf("status --json = %+v; want one artifact of the first chunk or more, not ended", snap)
	}
	if err := os.WriteFile(gate, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if out, errOut, code := runCLI(t, env, "resume", id[1]); code != exitOK || out != "first second third \n" {
		t.Errorf("resume: exit %d, stdout %q\n%s", code, out, errOut)
	}
}

// TestCancelOfAnEndedTask: cancel of a Work whose task completed at the agent after its process
// left it (send --detach), by the Work's id and by URL TASK, streaming and polling: never
// "cancelled" (the agent refused, or the task was found ended), the answer instead, exit 0 as
// send would have.
func TestCancelOfAnEndedTask(t *testing.T) {
	t.Parallel()
	poll := agent.Variant{Version: "0.3", Binding: "HTTP+JSON", Streaming: false}
	for _, v := range []agent.Variant{stream, poll} {
		for _, byURL := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/by-url=%v", v.Name(), byURL), func(t *testing.T) {
				t.Parallel()
				env := []string{"XDG_CACHE_HOME=" + t.TempDir()}
				instruction := "slow 200 cancelled after it completed " + t.Name()
				_, errOut, code := runCLI(t, env, "send", "--detach", server.CardURL(v), instruction)
				task := regexp.MustCompile(`task (\S+)`).FindStringSubmatch(errOut)
				if code != exitOK || task == nil {
					t.Fatalf("send --detach: exit %d\n%s", code, errOut)
				}
				time.Sleep(600 * time.Millisecond) // the agent completes the task meanwhile
				args := []string{"cancel", "--json", task[1]}
				if byURL {
					args = []string{"cancel", "--json", server.CardURL(v), task[1]}
				}
				out, errOut, code := runCLI(t, env, args...)
				if code != exitOK || !strings.Contains(out, `"cancelled":false`) || !strings.Contains(out, `"state":"completed"`) || !strings.Contains(out, "slow done") {
					t.Errorf("cancel of a completed task: exit %d\n%s%s", code, out, errOut)
				}
				if server.Cancelled(instruction) {
					t.Error("the agent says it cancelled a task it had completed")
				}
			})
		}
	}
}
