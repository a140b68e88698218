//go:build a2aport_nolegacy

package adapter

import (
	"net/http"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
)

const legacySupported = false

func legacyTransports(*http.Client) []a2aclient.FactoryOption { return nil }

func parseLegacyCard([]byte) (*a2a.AgentCard, error) { panic("unreachable: LegacyCompat is refused") }
