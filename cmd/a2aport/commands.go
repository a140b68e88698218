package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

// subcommand is one of the commands: what help and completion say of it, and what runs it. A table of
// them, not a CLI library: seven commands with standard flags need a help text and completion,
// which this file and help.go give in a few hundred lines (docs/rationale.md says why).
type subcommand struct {
	name     string
	args     string // the positional arguments, as the usage line shows them
	summary  string // one line, for the command list
	about    string // what it does, a paragraph or two
	examples string // lines of "$ a2aport ..." with comments
	groups   []flagGroup
	operands operand // what its positional arguments are, for completion
	flags    func(*flag.FlagSet)
	run      func(context.Context, []string, streams) int
}

// flagGroup names flags shown together in a command's help; a flag in none is under "Other".
type flagGroup struct {
	title string
	names []string
}

// operand is the kind of a command's positional arguments, for completion.
type operand int

const (
	operandNone    operand = iota
	operandURL             // an agent's URL: nothing to offer
	operandWork            // a recorded Work's id
	operandCommand         // a command's name (help)
	operandShell           // bash, zsh or fish (completion)
)

var (
	connectionFlags = flagGroup{"Connection", []string{"token", "header", "credential", "extension"}}
	runtimeFlags    = flagGroup{"Runtime", []string{"module", "native", "wasm-dir"}}
	outputFlags     = flagGroup{"Output", []string{"json", "out", "color"}}
)

// commands is every subcommand, in the order help lists them.
var commands []*subcommand

func init() {
	commands = []*subcommand{cardCommand, cardGetCommand, sendCommand, taskGetCommand, taskCancelCommand, taskListCommand,
		taskSubscribeCommand, taskDownloadCommand, pushConfigCommand, statusCommand, resumeCommand, cancelCommand, configShowCommand, authLoginCommand,
		conformanceCommand, agentCommand, gatewayCommand, completionCommand, versionCommand, helpCommand}
}

// subcommandsOf is the second words of the commands whose first word is group (task: get, list, …).
func subcommandsOf(group string) []string {
	var out []string
	for _, c := range commands {
		if first, second, ok := strings.Cut(c.name, " "); ok && first == group {
			out = append(out, second)
		}
	}
	return out
}

func lookup(name string) *subcommand {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// interruptible is the context of a command that serves until Ctrl-C or SIGTERM.
func interruptible(run func(context.Context, []string, streams) int) func(context.Context, []string, streams) int {
	return func(ctx context.Context, args []string, s streams) int {
		ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
		defer stop()
		return run(ctx, args, s)
	}
}

// errHelp: the command's help was asked for and shown.
var errHelp = errors.New("help shown")

// parseArgs parses a command's flags (anywhere among its arguments) with register's definitions
// and returns its positional arguments. -h shows its help on stdout (errHelp); a mistake says so
// on stderr with the usage line.
func parseArgs(name string, args []string, s streams, register func(*flag.FlagSet)) ([]string, error) {
	_, pos, err := parseFlags(name, args, s, register)
	return pos, err
}

// parseFlags is parseArgs that also returns the parsed flags.
func parseFlags(name string, args []string, s streams, register func(*flag.FlagSet)) (*flag.FlagSet, []string, error) {
	c := lookup(name)
	fs := flag.NewFlagSet("a2aport "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // the errors are written below, with the usage line
	register(fs)
	pos, err := parseFlagsAnywhere(fs, args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		writeHelp(s.stdout, c)
		return nil, nil, errHelp
	case err != nil:
		usageError(s.stderr, name, err.Error())
		return nil, nil, err
	}
	return fs, pos, nil
}

// usageError writes a mistake in a command's use, its usage line and where its help is.
func usageError(w io.Writer, name, msg string) {
	c := lookup(name)
	fmt.Fprintf(w, "a2aport %s: %s\nusage: a2aport %s %s\nRun 'a2aport help %s' for its flags and examples.\n", c.name, msg, c.name, c.args, c.name)
}

// usageCode is the exit status of a command whose arguments did not parse.
func usageCode(err error) int {
	if errors.Is(err, errHelp) {
		return exitOK
	}
	return exitUsage
}

// parseFlagsAnywhere parses flags given before, between or after the positional arguments, and
// returns those ("--" ends the flags).
func parseFlagsAnywhere(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}
