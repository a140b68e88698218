package a2aclient

import (
	"slices"

	"github.com/a2aport/a2aport"

	"github.com/a2aproject/a2a-go/v2/a2a"
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
			return nil, newError(a2aport.CodeExtensionRequired, "the agent requires the extension %q: activate it with the Extensions option", ext.URI)
		}
	}
	return active, nil
}
