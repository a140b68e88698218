package main

import (
	"bufio"
	"context"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/adapter"
	"github.com/a2aport/a2aport/internal/testkit/agent"
)

// `a2aport gateway --upstream` bridges versions both ways: a 0.3 agent reached by a 1.0 client,
// a 1.0 agent by a 0.3 client (a2aport's adapter pinned to each).
func TestGatewayUpstreamBridgesVersions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ upstream, client string }{{"0.3", "1.0"}, {"1.0", "0.3"}} {
		t.Run(tc.upstream+" agent, "+tc.client+" client", func(t *testing.T) {
			t.Parallel()
			upstream := server.CardURL(agent.Variant{Version: tc.upstream, Binding: "JSONRPC", Streaming: true})
			cmd := command(t, "gateway", "--upstream", upstream, "--listen", "127.0.0.1:0", "--lifetime", "1m")
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			var logs strings.Builder
			cmd.Stderr = &logs
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			lines := bufio.NewScanner(out)
			card := ""
			for card == "" && lines.Scan() {
				if rest, ok := strings.CutPrefix(lines.Text(), "card: "); ok {
					card = rest
				}
			}
			if card == "" {
				t.Fatalf("no card line; stderr %s", logs.String())
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			p, err := adapter.New(a2aport.Options{AgentCardURL: card, ProtocolVersion: tc.client})
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = p.Close() }()
			got, err := p.Submit(ctx, a2aport.Work{ID: "w", OwnerID: "o", Instruction: "complete across the gateway"})
			if err != nil || !strings.Contains(got.Content, "echo: complete across the gateway") {
				t.Errorf("Submit() = %+v, %v", got, err)
			}
			if d := p.Describe(); d.ProtocolVersion != tc.client {
				t.Errorf("the client spoke %s, want %s", d.ProtocolVersion, tc.client)
			}
			_ = cmd.Process.Signal(syscall.SIGTERM)
			if err := cmd.Wait(); err != nil {
				t.Errorf("after SIGTERM: %v; stderr %s", err, logs.String())
			}
		})
	}
}

// The gateway takes a configuration file or one upstream, and says which flag is wrong.
func TestGatewayUpstreamUsage(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"gateway"}, "want --config FILE or --upstream CARD_URL"},
		{[]string{"gateway", "--config", "x.yaml", "--upstream", "http://127.0.0.1:1/"}, "want --config FILE or --upstream CARD_URL"},
		{[]string{"gateway", "--config", "x.yaml", "--allow-origin", "https://a.example"}, "(with --allow-origin)"},
		{[]string{"gateway", "--upstream", "ftp://agent.example/"}, "--upstream: must be the absolute http(s) URL"},
		{[]string{"gateway", "--upstream", "http://127.0.0.1:1/", "--allow-origin", "not an origin"}, "--allow-origin: "},
	} {
		_, stderr, code := runCLI(t, nil, c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, stderr, exitUsage, c.want)
		}
	}
}
