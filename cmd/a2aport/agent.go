package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/a2aport/a2aport/internal/demoagent"
)

var agentCommand = &subcommand{
	name: "agent", args: "", summary: "serve the demo agent on loopback",
	about: `Serves a2aport's demo agent (a scripted research assistant that streams short markdown reports
and asks a question when it needs one) on a loopback address until Ctrl-C: something to try send,
status, resume and cancel on.`,
	examples: `$ a2aport agent &
$ a2aport send http://127.0.0.1:8080 "Compare tea and coffee"
$ a2aport agent --addr 127.0.0.1:0                 # a free port, printed at the start`,
	groups:   []flagGroup{{"Agent", []string{"addr"}}},
	operands: operandNone,
	flags:    func(fs *flag.FlagSet) { fs.String("addr", agentAddr, agentAddrUsage) },
	run: interruptible(func(ctx context.Context, args []string, s streams) int {
		return runAgent(ctx, args, s.stdout, s.stderr)
	}),
}

const (
	agentAddr      = "127.0.0.1:8080"
	agentAddrUsage = "loopback `address` to listen on (port 0 picks a free one)"
)

// runAgent serves the browser example's demo agent alone, on loopback, until ctx ends.
func runAgent(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var addr *string
	pos, err := parseArgs("agent", args, streams{stdout: stdout, stderr: stderr}, func(fs *flag.FlagSet) { addr = fs.String("addr", agentAddr, agentAddrUsage) })
	if err != nil {
		return usageCode(err)
	}
	if len(pos) > 0 {
		usageError(stderr, "agent", "takes no arguments")
		return exitUsage
	}
	host, _, err := net.SplitHostPort(*addr)
	if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
		fmt.Fprintf(stderr, "a2aport agent: -addr %q must be a loopback address such as 127.0.0.1:8080\n", *addr)
		return exitUsage
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(stderr, "a2aport agent:", err)
		return exitError
	}
	base := "http://" + ln.Addr().String()
	stopping := make(chan struct{})
	srv := &http.Server{Handler: demoagent.Handler(base, demoagent.Options{Stopping: stopping}), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stdout, "a2aport demo agent on %s\n  A2A 1.0 card: %s%s\n  A2A 0.3 card: %s%s\n", base, base, demoagent.CardPath, base, demoagent.V03CardPath)
	errs := make(chan error, 1)
	go func() { errs <- srv.Serve(ln) }()
	select {
	case err := <-errs:
		fmt.Fprintln(stderr, "a2aport agent:", err)
		return exitError
	case <-ctx.Done():
	}
	close(stopping) // running tasks end, so that their streams close
	shutdown, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		fmt.Fprintln(stderr, "a2aport agent:", err)
	}
	return exitOK
}
