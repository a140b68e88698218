//go:build !a2aport_nolegacy

package adapter

import (
	"net/http"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
)

// legacySupported reports whether this build links A2A 0.3 support. The a2aport_nolegacy build
// tag drops it: the compat layer links gRPC and more than doubles the WebAssembly module.
const legacySupported = true

func legacyTransports(client *http.Client) []a2aclient.FactoryOption {
	return []a2aclient.FactoryOption{
		a2av0.WithJSONRPCTransport(a2av0.JSONRPCTransportConfig{Client: client}),
		a2av0.WithRESTTransport(a2av0.RESTTransportConfig{Client: client}),
	}
}

// parseLegacyCard reads a card in 0.3 format, 1.0 format, or the union of both.
func parseLegacyCard(body []byte) (*a2a.AgentCard, error) {
	return a2av0.NewAgentCardParser()(body)
}
