package credentials

import "github.com/a2aport/a2aport"

// Held is what a host that runs the adapter in the module keeps on its side, without
// any value: the module chooses the card's requirement set from it and tells the host, with each
// request, which schemes to apply.
type Held struct {
	Token         bool              `json:"token,omitempty"`         // Options.Token is set
	Headers       bool              `json:"headers,omitempty"`       // Options.Headers or HeaderFunc is set
	Schemes       map[string]string `json:"schemes,omitempty"`       // Options.Credentials: name → form (token, basic, clientCredentials, transport)
	TokenProvider bool              `json:"tokenProvider,omitempty"` // Options.TokenProvider is set
}

// HeldBy describes what opts hold for a host that keeps them.
func HeldBy(opts a2aport.Options) *Held {
	h := &Held{Token: opts.Token != "", Headers: len(opts.Headers) > 0 || opts.HeaderFunc != nil,
		TokenProvider: opts.TokenProvider != nil}
	for name, c := range opts.Credentials {
		form, _ := FormOf(c) // an invalid credential fails validation in the module, as natively
		if h.Schemes == nil {
			h.Schemes = map[string]string{}
		}
		h.Schemes[name] = string(form)
	}
	if !h.Token && !h.Headers && !h.TokenProvider && len(h.Schemes) == 0 {
		return nil
	}
	return h
}
