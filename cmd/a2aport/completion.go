package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
)

// Shell completion: each shell's script asks the binary (a2aport __complete WORDS…) what may
// follow, so the scripts stay a few lines and the commands, flags and the ids of the Works that
// run now come from one place. The binary answers one candidate per line, "word\tdescription";
// no candidate lets the shell complete file names.

var completionCommand = &subcommand{
	name: "completion", args: "bash|zsh|fish", summary: "print the shell completion script",
	about: `Prints the script that completes a2aport's commands, flags and the ids of running Works
(for status, resume and cancel) in that shell.`,
	examples: `$ source <(a2aport completion bash)                        # bash, now; add it to ~/.bashrc to keep it
$ a2aport completion zsh > "${fpath[1]}/_a2aport"            # zsh, then restart the shell
$ a2aport completion fish > ~/.config/fish/completions/a2aport.fish`,
	operands: operandShell,
	run: func(_ context.Context, args []string, s streams) int {
		script, ok := completionScripts[strings.Join(args, " ")]
		if !ok {
			usageError(s.stderr, "completion", "name one shell: bash, zsh or fish")
			return exitUsage
		}
		fmt.Fprint(s.stdout, script)
		return exitOK
	},
}

var completionScripts = map[string]string{
	"bash": `# a2aport completion for bash: source <(a2aport completion bash)
_a2aport() {
  local IFS=$'\n'
  local words
  words=$(a2aport __complete "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null | cut -f1)
  COMPREPLY=($(compgen -W "$words" -- "${COMP_WORDS[COMP_CWORD]}"))
}
complete -o default -o nosort -F _a2aport a2aport
`,
	"zsh": `#compdef a2aport
# a2aport completion for zsh: a2aport completion zsh > "${fpath[1]}/_a2aport"
_a2aport() {
  local -a candidates
  local line
  for line in "${(@f)$(a2aport __complete "${(@)words[2,CURRENT]}" 2>/dev/null)}"; do
    [[ -n $line ]] && candidates+=("${${line%%$'\t'*}//:/\\:}:${line#*$'\t'}")
  done
  if (( ${#candidates} )); then
    _describe -V a2aport candidates
  else
    _files
  fi
}
compdef _a2aport a2aport
`,
	"fish": `# a2aport completion for fish: a2aport completion fish > ~/.config/fish/completions/a2aport.fish
function __a2aport_complete
    set -l words (commandline -opc) (commandline -ct)
    set -l candidates (a2aport __complete $words[2..-1] 2>/dev/null)
    if test (count $candidates) -gt 0
        printf '%s\n' $candidates
    else
        __fish_complete_path (commandline -ct)
    end
end
complete -c a2aport -f -k -a '(__a2aport_complete)'
`,
}

// complete writes the candidates for the last of words (the one being typed, maybe empty), the
// words before it being what follows "a2aport" on the command line.
func complete(w io.Writer, words []string) {
	if len(words) == 0 {
		words = []string{""}
	}
	typed, before := words[len(words)-1], words[:len(words)-1]
	offer := func(word, about string) {
		if strings.HasPrefix(word, typed) {
			fmt.Fprintf(w, "%s\t%s\n", word, cleanLine(about))
		}
	}
	if len(before) == 0 {
		seen := map[string]bool{}
		for _, c := range commands {
			first, _, group := strings.Cut(c.name, " ")
			if !seen[first] && (!group || lookup(first) == nil) {
				seen[first] = true
				offer(first, c.summary)
			}
		}
		return
	}
	c := lookup(before[0])
	if len(before) > 1 && lookup(before[0]+" "+before[1]) != nil { // a command of two words
		c, before = lookup(before[0]+" "+before[1]), before[1:]
	} else if subs := subcommandsOf(before[0]); len(before) == 1 && len(subs) > 0 && !strings.HasPrefix(typed, "-") {
		for _, sub := range subs {
			offer(sub, lookup(before[0]+" "+sub).summary)
		}
		return
	}
	if c == nil {
		return
	}
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	if c.flags != nil {
		c.flags(fs)
	}
	if len(before) > 1 { // the value of a flag that takes one
		if f := fs.Lookup(strings.TrimLeft(before[len(before)-1], "-")); f != nil && strings.HasPrefix(before[len(before)-1], "-") && !isBoolFlag(f) {
			for _, v := range flagChoices[f.Name] {
				offer(v, "")
			}
			return // else a file, a duration, a value: the shell's own completion
		}
	}
	if strings.HasPrefix(typed, "-") {
		fs.VisitAll(func(f *flag.Flag) {
			_, usage := flag.UnquoteUsage(f)
			offer("--"+f.Name, usage)
		})
		return
	}
	switch c.operands {
	case operandCommand:
		for _, c := range commands {
			offer(c.name, c.summary)
		}
	case operandShell:
		for _, sh := range []string{"bash", "fish", "zsh"} {
			offer(sh, "")
		}
	case operandWork:
		if works, err := savedWorks(); err == nil && positional(before[1:], fs) == 0 {
			for _, work := range works {
				offer(work.WorkID, fmt.Sprintf("%s · task %s · %s", work.State, orDefault(work.RemoteTaskID, "-"), work.Card))
			}
		}
	}
}

// flagChoices are the values of the flags that take one of a few words, which completion offers.
var flagChoices = map[string][]string{
	"color":    {"auto", "always", "never"},
	"binding":  {"jsonrpc", "rest", "jsonrpc,rest"},
	"raw-base": {"card", "interface"},
}

// positional counts the positional arguments among words (flag values left out).
func positional(words []string, fs *flag.FlagSet) int {
	n := 0
	for i := 0; i < len(words); i++ {
		word := words[i]
		if !strings.HasPrefix(word, "-") || word == "-" {
			n++
			continue
		}
		if f := fs.Lookup(strings.TrimLeft(word, "-")); f != nil && !isBoolFlag(f) && !strings.Contains(word, "=") {
			i++ // its value
		}
	}
	return n
}

func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}
