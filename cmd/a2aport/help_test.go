package main

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestHelp: every command has a help text with examples, the same from `help X` and `X -h`
// (on stdout, exit 0), which shows each of its flags in a named group.
func TestHelp(t *testing.T) {
	t.Parallel()
	for _, c := range commands {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			help, _, code := runCLI(t, nil, "help", c.name)
			if code != exitOK || !strings.HasPrefix(help, "Usage: a2aport "+c.name) {
				t.Fatalf("help %s: exit %d\n%s", c.name, code, help)
			}
			if c.name != "help" && !strings.Contains(help, "Examples:\n  $ a2aport") && !strings.Contains(help, "Examples:\n  $ source") {
				t.Errorf("help %s has no examples:\n%s", c.name, help)
			}
			if c.flags == nil {
				return
			}
			dashH, _, code := runCLI(t, nil, c.name, "-h")
			if code != exitOK || dashH != help {
				t.Errorf("%s -h: exit %d, and not the help text:\n%s", c.name, code, dashH)
			}
			fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
			c.flags(fs)
			fs.VisitAll(func(f *flag.Flag) {
				if !slices.ContainsFunc(c.groups, func(g flagGroup) bool { return slices.Contains(g.names, f.Name) }) {
					t.Errorf("%s: --%s is in no group of its help", c.name, f.Name)
				}
				dashes := "--"
				if len(f.Name) == 1 { // a short flag: -o
					dashes = "-"
				}
				if !strings.Contains(help, "  "+dashes+f.Name+" ") && !strings.Contains(help, "  "+dashes+f.Name+"\n") {
					t.Errorf("%s: --%s is not in its help", c.name, f.Name)
				}
			})
		})
	}
	top, _, code := runCLI(t, nil, "--help")
	if code != exitOK || !strings.Contains(top, exitTable()) {
		t.Errorf("--help: exit %d, without the exit statuses:\n%s", code, top)
	}
	for _, c := range commands {
		if !strings.Contains(top, "  "+c.name+"  ") {
			t.Errorf("--help does not list %s", c.name)
		}
	}
	if _, errOut, code := runCLI(t, nil, "send", "--frobnicate"); code != exitUsage || !strings.Contains(errOut, "usage: a2aport send URL") || !strings.Contains(errOut, "a2aport help send") {
		t.Errorf("an unknown flag: exit %d\n%s", code, errOut)
	}
}

// TestExitTable: the README's table of exit statuses is help's, and each status of it is one a
// test sees the binary return.
func TestExitTable(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), exitTable()) {
		t.Errorf("README.md does not hold help's table of exit statuses:\n%s", exitTable())
	}
	tested := map[int]bool{exitInterrupted: true} // TestInterruptCancelsRemotely
	for _, c := range exitCases("") {
		tested[c.code] = true
	}
	for _, e := range exitStatuses {
		if !tested[e.code] {
			t.Errorf("exit status %d (%s) is in no exit case", e.code, e.meaning)
		}
	}
}

// TestCompletion: each shell's script, run by that shell, completes commands, flags, the values
// of --color and the ids of the running Works, and leaves file names to the shell.
func TestCompletion(t *testing.T) {
	t.Parallel()
	env := []string{"XDG_CACHE_HOME=" + t.TempDir(), "PATH=" + filepath.Dir(binary) + string(os.PathListSeparator) + os.Getenv("PATH")}
	_, errOut, code := runCLI(t, env, "send", "--detach", server.CardURL(stream), "input for completion")
	if code != exitOK {
		t.Fatalf("send --detach: exit %d\n%s", code, errOut)
	}
	works := listed(t, env)
	if len(works) != 1 {
		t.Fatalf("listed %v", works)
	}
	id := works[0]["workId"].(string)
	shells := map[string]struct {
		program string
		args    func(script string, words ...string) []string
	}{
		"bash": {"bash", func(script string, words ...string) []string {
			quoted := make([]string, len(words))
			for i, w := range words {
				quoted[i] = "'" + w + "'"
			}
			return []string{"-c", "source " + script + "; COMP_WORDS=(" + strings.Join(quoted, " ") + "); COMP_CWORD=" + strconv.Itoa(len(words)-1) +
				`; _a2aport; printf '%s\n' "${COMPREPLY[@]}"`}
		}},
		"zsh": {"zsh", func(script string, words ...string) []string {
			quoted := make([]string, len(words))
			for i, w := range words {
				quoted[i] = "'" + w + "'"
			}
			// The completion system's functions, as the script calls them: what it offers is printed.
			return []string{"-f", "-c", `compdef() {}; _describe() { shift; print -l -- "${(@P)2%%:*}" }; _files() { print FILES }; source ` + script +
				"; words=(" + strings.Join(quoted, " ") + "); CURRENT=" + strconv.Itoa(len(words)) + "; _a2aport"}
		}},
		"fish": {"fish", func(script string, words ...string) []string {
			return []string{"--no-config", "-c", "source " + script + "; complete -C '" + strings.Join(words, " ") + "' | cut -f1"}
		}},
	}
	for name, sh := range shells {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if _, err := exec.LookPath(sh.program); err != nil {
				t.Skipf("%s is not installed (make deps installs it)", sh.program)
			}
			script, _, code := runCLI(t, nil, "completion", name)
			if code != exitOK {
				t.Fatalf("completion %s: exit %d", name, code)
			}
			path := filepath.Join(t.TempDir(), "a2aport."+name)
			if err := os.WriteFile(path, []byte(script), 0o600); err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				words []string
				want  []string
			}{
				{[]string{"a2aport", "st"}, []string{"status"}},
				{[]string{"a2aport", "resume", ""}, []string{id}},
				{[]string{"a2aport", "send", "--col"}, []string{"--color"}},
				{[]string{"a2aport", "send", "--color", "n"}, []string{"never"}},
				{[]string{"a2aport", "completion", "f"}, []string{"fish"}},
				{[]string{"a2aport", "confo"}, []string{"conformance"}},
				{[]string{"a2aport", "conformance", "--su"}, []string{"--suite"}},
				{[]string{"a2aport", "conformance", "--binding", "r"}, []string{"rest"}},
				{[]string{"a2aport", "task", "d"}, []string{"download"}},
				{[]string{"a2aport", "task", "download", "--ov"}, []string{"--overwrite"}},
				{[]string{"a2aport", "send", "--verb"}, []string{"--verbose"}},
			} {
				cmd := exec.Command(sh.program, sh.args(path, c.words...)...)
				cmd.Env = append(slices.Clone(childEnv), env...)
				out, err := cmd.CombinedOutput()
				got := strings.Fields(string(out))
				if err != nil || !slices.Equal(got, c.want) {
					t.Errorf("%q: %v, offered %q; want %q", strings.Join(c.words, " "), err, out, c.want)
				}
			}
		})
	}
}
