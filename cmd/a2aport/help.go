package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
)

// writeTopHelp is `a2aport help`: the commands, and the exit statuses every command shares.
func writeTopHelp(w io.Writer) {
	fmt.Fprint(w, "a2aport talks to an A2A agent: it shows its card, runs a piece of work and streams what happens,\nand follows, resumes or cancels that work later from another shell.\n\nUsage: a2aport COMMAND [arguments] [flags]\n\nCommands:\n")
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, c := range commands {
		fmt.Fprintf(tw, "  %s\t%s\n", c.name, c.summary)
	}
	_ = tw.Flush()
	fmt.Fprint(w, "\nExamples:\n", indent(sendCommand.examples), "\nExit status:\n", exitTable(), "\nRun 'a2aport help COMMAND' (or a2aport COMMAND -h) for a command's flags and examples.\n")
}

// exitTable is the table of exit statuses, as help and the README show it.
func exitTable() string {
	var b strings.Builder
	for _, e := range exitStatuses {
		fmt.Fprintf(&b, "  %-4d %s\n", e.code, e.meaning)
	}
	return b.String()
}

// writeHelp is a command's help: usage, what it does, examples, its flags by group.
func writeHelp(w io.Writer, c *subcommand) {
	fmt.Fprintf(w, "Usage: a2aport %s %s\n\n%s\n", c.name, c.args, strings.TrimSpace(c.about))
	if c.examples != "" {
		fmt.Fprint(w, "\nExamples:\n", indent(c.examples))
	}
	if c.flags == nil {
		return
	}
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	c.flags(fs)
	effective := effectiveSettings(c, fs)
	shown := map[string]bool{}
	for _, g := range append(slices.Clone(c.groups), flagGroup{title: "Other"}) {
		var lines []string
		fs.VisitAll(func(f *flag.Flag) {
			if shown[f.Name] || (g.title != "Other" && !slices.Contains(g.names, f.Name)) {
				return
			}
			shown[f.Name] = true
			lines = append(lines, flagLine(f, effective[f.Name]))
		})
		if len(lines) > 0 {
			fmt.Fprintf(w, "\n%s flags:\n%s", g.title, strings.Join(lines, ""))
		}
	}
	fmt.Fprintln(w, "\nFlags may come before, between or after the arguments; -- ends them.")
}

// effectiveSettings are the options of a command of the specification that the environment or
// a dotenv file sets here, by name: help shows them beside the built-in defaults, so a caller
// sees what will happen before overriding it (SPEC.md §6.5).
func effectiveSettings(c *subcommand, fs *flag.FlagSet) map[string]setting {
	out := map[string]setting{}
	if !slices.ContainsFunc(c.groups, func(g flagGroup) bool { return g.title == agentFlagGroup.title }) {
		return out
	}
	settings, err := resolveSettings(fs, os.Getenv(settingsEnv("config")), io.Discard)
	if err != nil {
		return out // a broken file is named when the command runs
	}
	for _, s := range settings {
		if s.source != "default" {
			out[s.name] = s
		}
	}
	return out
}

// flagLine is one flag as help shows it: its name and argument, then its use, its default and
// the value a setting gives it here, wrapped to fit 100 columns.
func flagLine(f *flag.Flag, set setting) string {
	arg, usage := flag.UnquoteUsage(f)
	name := "--" + f.Name
	if len(f.Name) == 1 {
		name = "-" + f.Name
	}
	if arg != "" {
		name += " " + strings.ToUpper(arg)
	}
	if def := f.DefValue; def != "" && def != "false" && def != "0" && def != "0s" {
		usage += fmt.Sprintf(" (default %s)", def)
	}
	if set.source != "" {
		usage += fmt.Sprintf(" (here: %s, from %s)", orDefault(set.shown(), `""`), set.source)
	}
	const column, width = 28, 100
	var b strings.Builder
	line := fmt.Sprintf("  %-*s", column-3, name)
	if len(name) > column-4 { // no room beside it: the use goes below
		b.WriteString(line + "\n")
		line = strings.Repeat(" ", column-1)
	}
	for _, word := range strings.Fields(usage) {
		if len(line)+1+len(word) > width && strings.TrimSpace(line) != "" && len(line) > column {
			b.WriteString(line + "\n")
			line = strings.Repeat(" ", column-1)
		}
		line += " " + word
	}
	return b.String() + line + "\n"
}

func indent(s string) string {
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		b.WriteString("  " + line + "\n")
	}
	return b.String()
}

var helpCommand = &subcommand{
	name: "help", args: "[COMMAND]", summary: "show the commands, or one command's help",
	about:    "Shows the commands and the exit statuses, or one command's usage, examples and flags.",
	operands: operandCommand,
	run: func(_ context.Context, args []string, s streams) int {
		if len(args) == 0 {
			writeTopHelp(s.stdout)
			return exitOK
		}
		if c := lookup(strings.Join(args, " ")); c != nil {
			writeHelp(s.stdout, c)
			return exitOK
		}
		if subs := subcommandsOf(args[0]); len(subs) > 0 && len(args) == 1 {
			fmt.Fprintf(s.stdout, "Commands of a2aport %s:\n", args[0])
			for _, sub := range subs {
				c := lookup(args[0] + " " + sub)
				fmt.Fprintf(s.stdout, "  %-24s %s\n", c.name, c.summary)
			}
			return exitOK
		}
		fmt.Fprintf(s.stderr, "a2aport help: unknown command %q\n", strings.Join(args, " "))
		return exitUsage
	},
}
