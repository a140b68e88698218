package main

import (
	"context"
	"fmt"
	"os"
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
	case "__complete": // the shell completion scripts' question (completion.go)
		complete(s.stdout, args[1:])
		return exitOK
	}
	if c := lookup(args[0]); c != nil {
		return c.run(context.Background(), args[1:], s)
	}
	fmt.Fprintf(s.stderr, "a2aport: unknown command %q\nRun 'a2aport help' for the commands.\n", args[0])
	return exitUsage
}
