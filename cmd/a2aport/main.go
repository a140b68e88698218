package main

import (
	"context"
	"fmt"
	"os"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:], streams{os.Stdin, os.Stdout, os.Stderr}))
}

func run(args []string, s streams) int {
	if len(args) == 0 {
		writeTopHelp(s.stderr)
		return exitUsage
	}
	switch args[0] {
	case "-h", "--help":
		writeTopHelp(s.stdout)
		return exitOK
	case "-v", "--version":
		fmt.Fprintln(s.stdout, versionLine())
		return exitOK
	case "__complete": // the shell completion scripts' question (completion.go)
		complete(s.stdout, args[1:])
		return exitOK
	}
	if len(args) > 1 { // a command of two words: card get, task list, …
		if c := lookup(args[0] + " " + args[1]); c != nil {
			return c.run(context.Background(), args[2:], s)
		}
	}
	if c := lookup(args[0]); c != nil {
		return c.run(context.Background(), args[1:], s)
	}
	if subs := subcommandsOf(args[0]); len(subs) > 0 {
		fmt.Fprintf(s.stderr, "a2aport %s: name one of its commands: %s\nRun 'a2aport help %s' for them.\n", args[0], strings.Join(subs, ", "), args[0])
		return exitUsage
	}
	fmt.Fprintf(s.stderr, "a2aport: unknown command %q\nRun 'a2aport help' for the commands.\n", args[0])
	return exitUsage
}
