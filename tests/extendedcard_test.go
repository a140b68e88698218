package tests

import (
	"strings"
	"testing"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/internal/testkit/agent"
)

// TestExtendedCard: a card that offers an extended card gets it read, with the caller's
// credentials, and used (describe() says so, and shows its name); without credentials the public
// card stays in use. Natively and in the module.
func TestExtendedCard(t *testing.T) {
	t.Parallel()
	card := server.SpecialCardURL(agent.CardExtended)
	for _, impl := range implementations {
		t.Run(impl.name+"/with credentials", func(t *testing.T) {
			t.Parallel()
			p := newPort(t, impl, a2aport.Options{AgentCardURL: card, Token: secretToken})
			if _, err := p.Start(testContext(t)); err != nil {
				t.Fatal(err)
			}
			d := p.Describe()
			if !d.ExtendedCard || d.AgentName != agent.ExtendedCardName || len(d.CardNotes) != 0 {
				t.Errorf("Describe() = %+v, want the extended card in use", d)
			}
			asked := false
			for _, r := range server.Requests() {
				asked = asked || (r.A2AMethod == "GetExtendedAgentCard" && r.Header.Get("Authorization") == "Bearer "+secretToken)
			}
			if !asked {
				t.Error("no GetExtendedAgentCard request carried the credentials")
			}
			out, err := p.Submit(testContext(t), newWork("alice", "complete extended"))
			if err != nil || !strings.Contains(out.Content, "echo: complete extended") {
				t.Errorf("Submit() = %+v, %v", out, err)
			}
			for _, text := range d.CardNotes {
				if strings.Contains(text, secretToken) {
					t.Errorf("credential leaked into %q", text)
				}
			}
		})
		t.Run(impl.name+"/without credentials", func(t *testing.T) {
			t.Parallel()
			p := newPort(t, impl, a2aport.Options{AgentCardURL: card})
			if _, err := p.Start(testContext(t)); err != nil {
				t.Fatal(err)
			}
			if d := p.Describe(); d.ExtendedCard || d.AgentName == agent.ExtendedCardName {
				t.Errorf("Describe() = %+v, want the public card", d)
			}
		})
	}
}
