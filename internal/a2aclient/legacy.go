//go:build !a2aport_nolegacy

package a2aclient

import (
	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/a2aport/a2aport/internal/binding"
)

// legacySupported reports whether this build speaks A2A 0.3. The a2aport_nolegacy build tag
// leaves it out.
const legacySupported = true

// parseLegacyCard reads a card in 0.3 format, 1.0 format, or the union of both.
func parseLegacyCard(body []byte) (*a2a.AgentCard, error) {
	return binding.ParseCompatCard(body)
}
