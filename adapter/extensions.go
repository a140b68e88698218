package adapter

import (
	"context"
	"slices"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
)

// activeExtensions are the extensions a card declares that the options activate. A required one
// that the options leave out fails discovery: the agent would refuse every call.
func (a *Adapter) activeExtensions(card *a2a.AgentCard) ([]string, error) {
	var active []string
	for _, ext := range card.Capabilities.Extensions {
		switch {
		case slices.Contains(a.s.Extensions, ext.URI):
			active = append(active, ext.URI)
		case ext.Required:
			return nil, newError(CodeExtensionRequired, "the agent requires the extension %q: activate it with the Extensions option", ext.URI)
		}
	}
	return active, nil
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
