// Command browser is the a2aport browser demo: one loopback server with a page that drives a
// remote A2A agent through the a2aport JS package, the package itself, and an embedded demo
// agent to talk to.
//
// Usage (from the repository root, after `make build.wasm`):
//
//	go run ./examples/browser [-addr 127.0.0.1:8080] [-wasm-dir bin] [-js-dir js] [-lifetime 0]
//
// It prints the page's URL on its first line of output, then the agent's card URLs, and serves
// until interrupted or until -lifetime has passed. See README.md.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/a2aport/a2aport/internal/demoagent"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "a2aport demo:", err)
		}
		os.Exit(2)
	}
}

// run parses args, serves the demo and announces it on stdout.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	flags := flag.NewFlagSet("a2aport-demo", flag.ContinueOnError)
	flags.SetOutput(stderr)
	var cfg config
	flags.StringVar(&cfg.addr, "addr", "127.0.0.1:8080", "loopback `address` to serve on; port 0 picks a free port")
	flags.StringVar(&cfg.wasmDir, "wasm-dir", "bin", "`directory` holding a2aport.wasm")
	flags.StringVar(&cfg.jsDir, "js-dir", "js", "`directory` of the a2aport JS package (its src/ is served)")
	lifetime := flags.Duration("lifetime", 0, "stop after this `duration`; 0 serves until interrupted")
	flags.Func("relay", "an `origin` (https://agent.example) the page may reach through this server's /relay, for agents that do not allow other origins (repeatable)", func(o string) error {
		if _, err := newRelay([]string{o}); err != nil {
			return err
		}
		cfg.relay = append(cfg.relay, o)
		return nil
	})
	if err := flags.Parse(args); err != nil {
		return err
	}
	if flags.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", flags.Args())
	}
	if *lifetime < 0 {
		return errors.New("-lifetime must not be negative")
	}
	if err := checkPackage(cfg.jsDir, cfg.wasmDir); err != nil {
		fmt.Fprintln(stderr, "warning:", err)
	}

	s, ln, err := listen(cfg)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "a2aport demo: open %s/\n", s.url)
	fmt.Fprintf(stdout, "  A2A 1.0 agent card: %s%s\n", s.url, demoagent.CardPath)
	fmt.Fprintf(stdout, "  A2A 0.3 agent card: %s%s\n", s.url, demoagent.V03CardPath)

	if *lifetime > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *lifetime)
		defer cancel()
	}
	return s.serve(ctx, ln)
}
