package tests

import (
	"strings"
	"testing"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/internal/testkit/agent"
)

// TestOriginPolicy: a card whose interface is on another origin (the same test agent, named
// through localhost) is refused by default, naming the policy, and works once AllowedOrigins
// allows that origin, natively and in the module.
func TestOriginPolicy(t *testing.T) {
	t.Parallel()
	card := server.SpecialCardURL(agent.CardOtherOrigin)
	other := strings.Replace(agentOrigin(t), "127.0.0.1", "localhost", 1)
	for _, impl := range implementations {
		t.Run(impl.name+"/refused", func(t *testing.T) {
			t.Parallel()
			_, err := newPort(t, impl, a2aport.Options{AgentCardURL: card}).Start(testContext(t))
			wantCode(t, err, a2aport.ErrNoCompatibleTransport)
			if !strings.Contains(err.Error(), "origin policy") {
				t.Errorf("error = %v, want it to name the origin policy", err)
			}
		})
		t.Run(impl.name+"/allowed", func(t *testing.T) {
			t.Parallel()
			p := newPort(t, impl, a2aport.Options{AgentCardURL: card, AllowedOrigins: []string{other}})
			out, err := p.Submit(testContext(t), newWork("alice", "complete elsewhere"))
			if err != nil || !strings.Contains(out.Content, "echo: complete elsewhere") {
				t.Fatalf("Submit() = %+v, %v", out, err)
			}
		})
	}
}
