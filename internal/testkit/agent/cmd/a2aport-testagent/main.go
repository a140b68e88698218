// Command a2aport-testagent runs the a2aport test agent (package
// github.com/a2aport/a2aport/internal/testkit/agent) as a standalone process, for
// integration tests written in other languages or run from a browser.
//
// Usage:
//
//	a2aport-testagent [-addr 127.0.0.1:0] [-lifetime 10m]
//
// Once listening it prints one JSON line to stdout:
//
//	{"url":"http://127.0.0.1:PORT","cards":{"v1-jsonrpc-stream":"<card url>",...},"special":{"grpc-only":"<card url>",...},
//	 "secrets":{"bearer":"...",...}}
//
// It then serves until SIGINT or SIGTERM, or until the lifetime has passed,
// so that a forgotten process cannot linger. It never reads stdin.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/a2aport/a2aport/internal/testkit/agent"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args[1:], os.Stdout)
	switch {
	case errors.Is(err, flag.ErrHelp):
	case err != nil:
		fmt.Fprintln(os.Stderr, "a2aport-testagent:", err)
		os.Exit(2)
	}
}

// announcement is the JSON line printed once the agent listens.
type announcement struct {
	URL     string            `json:"url"`
	Cards   map[string]string `json:"cards"`   // by variant name
	Special map[string]string `json:"special"` // by special card name
	// Secrets are what the secured cards accept, for tests in other languages.
	Secrets map[string]string `json:"secrets"`
}

// run serves the agent until ctx ends or the lifetime passes.
func run(ctx context.Context, args []string, stdout io.Writer) error {
	flags := flag.NewFlagSet("a2aport-testagent", flag.ContinueOnError)
	addr := flags.String("addr", "127.0.0.1:0", "loopback `address` to listen on; port 0 picks a free port")
	lifetime := flags.Duration("lifetime", 10*time.Minute, "exit after this `duration`")
	if err := flags.Parse(args); err != nil {
		return err
	}
	if flags.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", flags.Args())
	}
	if *lifetime <= 0 {
		return errors.New("-lifetime must be positive")
	}

	srv, err := agent.StartAt(*addr)
	if err != nil {
		return err
	}
	defer srv.Close()

	a := announcement{URL: srv.URL(), Cards: map[string]string{}, Special: map[string]string{}, Secrets: map[string]string{
		"bearer": agent.BearerToken, "basicUser": agent.BasicUser, "basicPassword": agent.BasicPassword, "apiKey": agent.APIKey,
		"clientId": agent.ClientID, "clientSecret": agent.ClientSecret, "openIdToken": agent.OpenIDToken, "oauthScope": agent.OAuthScope}}
	for _, v := range append(agent.Variants(), agent.PushVariants()...) {
		a.Cards[v.Name()] = srv.CardURL(v)
	}
	for _, name := range agent.SpecialCards() {
		a.Special[name] = srv.SpecialCardURL(name)
	}
	if err := json.NewEncoder(stdout).Encode(a); err != nil {
		return fmt.Errorf("announcing the agent: %w", err)
	}

	timer := time.NewTimer(*lifetime)
	defer timer.Stop()
	select {
	case <-ctx.Done():
	case <-timer.C:
	}
	return nil
}
