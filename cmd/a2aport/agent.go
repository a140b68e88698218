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

// runAgent serves the browser example's demo agent alone, on loopback, until ctx ends.
func runAgent(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("a2aport agent", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "loopback `address` to listen on (port 0 picks a free one)")
	if pos, err := parseFlagsAnywhere(fs, args); err != nil || len(pos) > 0 {
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
