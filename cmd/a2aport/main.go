package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	os.Exit(run(os.Args[1:], streams{os.Stdin, os.Stdout, os.Stderr}))
}

const usage = `a2aport talks to an A2A agent.

  a2aport card URL [--json]                      show the agent's card and how a2aport would use it
  a2aport send URL "instruction" [flags]         run a piece of work and stream what happens
  a2aport agent [--addr 127.0.0.1:8080]          serve the demo agent on loopback
  a2aport gateway --config gateway.yaml          serve many agents behind one A2A endpoint

Run a command with -h for its flags.
`

func run(args []string, s streams) int {
	if len(args) == 0 {
		fmt.Fprint(s.stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "card":
		return runCard(context.Background(), args[1:], s.stdout, s.stderr)
	case "send":
		return runSend(context.Background(), args[1:], s)
	case "agent":
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		return runAgent(ctx, args[1:], s.stdout, s.stderr)
	case "gateway":
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		return runGateway(ctx, args[1:], s.stdout, s.stderr)
	case "-h", "--help", "help":
		fmt.Fprint(s.stdout, usage)
		return exitOK
	}
	fmt.Fprintf(s.stderr, "a2aport: unknown command %q\n\n%s", args[0], usage)
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
