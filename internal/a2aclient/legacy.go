//go:build !a2aport_nolegacy

package a2aclient

import (
	"context"
	"net/http"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
)

// legacySupported reports whether this build links A2A 0.3 support. The a2aport_nolegacy build
// tag drops it: the compat layer links gRPC and more than doubles the WebAssembly module.
const legacySupported = true

// legacyClient is a2a-go's client of a 0.3 interface, on its compat transports and an
// http.Client that sends and follows redirects as the adapter's own client does (this build
// links http.Client anyway: the compat layer needs it).
func (a *Adapter) legacyClient(ctx context.Context, card *a2a.AgentCard, iface *a2a.AgentInterface, extensions []string) (agentClient, error) {
	client := &http.Client{Transport: a.http.Transport, CheckRedirect: a.http.CheckRedirect}
	opts := []a2aclient.FactoryOption{
		a2aclient.WithDefaultsDisabled(),
		a2av0.WithJSONRPCTransport(a2av0.JSONRPCTransportConfig{Client: client}),
		a2av0.WithRESTTransport(a2av0.RESTTransportConfig{Client: client}),
		a2aclient.WithConfig(a2aclient.Config{AcceptedOutputModes: a.s.AcceptedOutputModes}),
	}
	if len(extensions) > 0 {
		opts = append(opts, a2aclient.WithCallInterceptors(extensionActivator{uris: extensions}))
	}
	only := *card
	only.SupportedInterfaces = []*a2a.AgentInterface{iface}
	return a2aclient.NewFactory(opts...).CreateFromCard(ctx, &only)
}

// extensionActivator asks for the active extensions on every call (A2A-Extensions).
type extensionActivator struct {
	a2aclient.PassthroughInterceptor
	uris []string
}

func (e extensionActivator) Before(ctx context.Context, req *a2aclient.Request) (context.Context, any, error) {
	req.ServiceParams.Append(a2a.SvcParamExtensions, e.uris...)
	return ctx, nil, nil
}

// parseLegacyCard reads a card in 0.3 format, 1.0 format, or the union of both.
func parseLegacyCard(body []byte) (*a2a.AgentCard, error) {
	return a2av0.NewAgentCardParser()(body)
}
