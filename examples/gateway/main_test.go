package main

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/a2aport/a2aport"

	"github.com/a2aport/a2aport/adapter"
	"github.com/a2aport/a2aport/tests/agent"
)

// The gateway bridges versions both ways: a 0.3 agent reached by a 1.0 client, a 1.0 agent by a
// 0.3 client (a2aport's adapter pinned to each).
func TestGatewayBridgesVersions(t *testing.T) {
	server, err := agent.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close()
	for _, tc := range []struct{ upstream, client string }{{"0.3", "1.0"}, {"1.0", "0.3"}} {
		t.Run(tc.upstream+" agent, "+tc.client+" client", func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			upstream := server.CardURL(agent.Variant{Version: tc.upstream, Binding: "JSONRPC", Streaming: true})
			r, w := io.Pipe()
			done := make(chan error, 1)
			go func() { done <- run(ctx, []string{"-upstream", upstream, "-addr", "127.0.0.1:0"}, w) }()
			lines := bufio.NewScanner(r)
			card := ""
			for card == "" && lines.Scan() {
				if rest, ok := strings.CutPrefix(lines.Text(), "card: "); ok {
					card = rest
				}
			}
			go func() { _, _ = io.Copy(io.Discard, r) }()
			p, err := adapter.New(a2aport.Options{AgentCardURL: card, ProtocolVersion: tc.client})
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = p.Close() }()
			out, err := p.Submit(ctx, a2aport.Work{ID: "w", OwnerID: "o", Instruction: "complete across the gateway"})
			if err != nil || !strings.Contains(out.Content, "echo: complete across the gateway") {
				t.Errorf("Submit() = %+v, %v", out, err)
			}
			if d := p.Describe(); d.ProtocolVersion != tc.client {
				t.Errorf("the client spoke %s", d.ProtocolVersion)
			}
			cancel()
			if err := <-done; err != nil {
				t.Errorf("run() = %v", err)
			}
		})
	}
}
