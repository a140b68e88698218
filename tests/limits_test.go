package tests

import (
	"testing"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/internal/testkit/agent"
)

// A card past MaxCardBytes fails Start with A2A_RESPONSE_TOO_LARGE, natively and in the module.
func TestCardOverItsLimit(t *testing.T) {
	t.Parallel()
	for _, impl := range implementations {
		t.Run(impl.name, func(t *testing.T) {
			t.Parallel()
			p := newPort(t, impl, a2aport.Options{AgentCardURL: server.CardURL(agent.Variants()[0]), MaxCardBytes: 100})
			_, err := p.Start(testContext(t))
			wantCode(t, err, a2aport.ErrResponseTooLarge)
		})
	}
}
