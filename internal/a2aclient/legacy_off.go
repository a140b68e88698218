//go:build a2aport_nolegacy

package a2aclient

import (
	"encoding/json"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

const legacySupported = false

// parseLegacyCard reads a 1.0 card; a card in 0.3 shape (its interfaces in url,
// preferredTransport, additionalInterfaces) needs the build that speaks 0.3.
func parseLegacyCard(body []byte) (*a2a.AgentCard, error) {
	var shape struct {
		SupportedInterfaces  json.RawMessage `json:"supportedInterfaces"`
		URL                  string          `json:"url"`
		AdditionalInterfaces json.RawMessage `json:"additionalInterfaces"`
	}
	if json.Unmarshal(body, &shape) == nil && len(shape.SupportedInterfaces) == 0 && (shape.URL != "" || len(shape.AdditionalInterfaces) > 0) {
		return nil, legacyBuildRequired()
	}
	return parseCurrentCard(body)
}
