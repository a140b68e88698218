package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/a2aport/a2aport/internal/testkit/sdkagent"
)

// TestAgainstTheJSSDK: the terminal client against an agent built on @a2a-js/sdk, an
// implementation a2aport did not write: streamed text live on a terminal at 60 columns and in a
// pipe, a question answered at the prompt, Ctrl-C cancelling the task there (its state read back
// from the agent by status), and a detached Work cancelled from another process.
func TestAgainstTheJSSDK(t *testing.T) {
	t.Parallel()
	peer := sdkagent.Start(t)
	for _, variant := range []string{"v1-jsonrpc-stream", "v03-rest-stream", "v1-rest-poll"} {
		card := peer.Cards[variant]
		t.Run(variant, func(t *testing.T) {
			t.Parallel()
			env := []string{"XDG_CACHE_HOME=" + t.TempDir()}
			if out, errOut, code := runCLI(t, env, "send", card, "chunks in a pipe"); code != exitOK || out != "a b c \n" {
				t.Errorf("chunks in a pipe: exit %d, stdout %q\n%s", code, out, errOut)
			}

			r := startPTYSized(t, 60, false, "send", card, "chunks on a terminal")
			if out := r.waitFor(t, "completed in"); r.exit(t) != exitOK || !strings.Contains(out, "a b c") {
				t.Errorf("chunks on a terminal:\n%s", out)
			}

			r = startPTYSized(t, 60, false, "send", card, "input at the prompt")
			r.waitFor(t, "What is your name?")
			if _, err := r.tty.Write([]byte("Ada\n")); err != nil {
				t.Fatal(err)
			}
			if out := r.waitFor(t, "completed in"); r.exit(t) != exitOK || !strings.Contains(out, "Hello, Ada!") {
				t.Errorf("input at the prompt:\n%s", out)
			}

			r = startPTYSized(t, 120, false, "send", card, "hold until ctrl-c")
			task := regexp.MustCompile(`task (\S+)`).FindStringSubmatch(r.waitFor(t, "task "))
			if _, err := r.tty.Write([]byte{0x03}); err != nil {
				t.Fatal(err)
			}
			if code := r.exit(t); code != exitInterrupted {
				t.Errorf("Ctrl-C: exit %d, want %d", code, exitInterrupted)
			}
			if out, errOut, code := runCLI(t, env, "status", card, ansi.Strip(task[1])); code != exitOK || !strings.Contains(out, "cancelled (ended)") {
				t.Errorf("the interrupted task as the agent has it: exit %d\n%s%s", code, out, errOut)
			}

			_, errOut, code := runCLI(t, env, "send", "--detach", card, "hold for a cancel from elsewhere")
			id := regexp.MustCompile(`cancel (cli-[0-9a-f]+)`).FindStringSubmatch(errOut)
			if code != exitOK || id == nil {
				t.Fatalf("send --detach: exit %d\n%s", code, errOut)
			}
			if out, errOut, code := runCLI(t, env, "status", id[1]); code != exitOK || !strings.Contains(out, "working") {
				t.Errorf("status of the detached Work: exit %d\n%s%s", code, out, errOut)
			}
			if _, errOut, code := runCLI(t, env, "cancel", id[1]); code != exitOK || !strings.Contains(errOut, "cancelled task") {
				t.Errorf("cancel: exit %d\n%s", code, errOut)
			}
		})
	}
}
