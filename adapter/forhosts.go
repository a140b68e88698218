package adapter

import "encoding/json"

//go:generate go run ../internal/jsgen -closed ../js/src/closed.js

// What a host that runs the adapter inside the WebAssembly module (the wazero host, through the
// module's exports) needs of this package: applications never call these. They live here, not
// behind internal/, because they are made of this package's types and unexported state.

// HostCredentials is what a host that runs the adapter in the module keeps on its side, without
// any value: the module chooses the card's requirement set from it and tells the host, with each
// request, which schemes to apply.
type HostCredentials struct {
	Token         bool              `json:"token,omitempty"`         // Options.Token is set
	Headers       bool              `json:"headers,omitempty"`       // Options.Headers or HeaderFunc is set
	Schemes       map[string]string `json:"schemes,omitempty"`       // Options.Credentials: name → form (token, basic, clientCredentials, transport)
	TokenProvider bool              `json:"tokenProvider,omitempty"` // Options.TokenProvider is set
}

// NewHostCredentials describes what opts hold for a host that keeps them.
func NewHostCredentials(opts Options) *HostCredentials {
	h := &HostCredentials{Token: opts.Token != "", Headers: len(opts.Headers) > 0 || opts.HeaderFunc != nil,
		TokenProvider: opts.TokenProvider != nil}
	for name, c := range opts.Credentials {
		form, _ := c.Form() // an invalid credential fails validation in the module, as natively
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

// CheckInput reports INVALID_WORK when the Work's structured input does not encode as JSON. The
// hosts check it before a Work crosses to the module, which could not read it.
func CheckInput(w Work) error {
	if len(w.Input) == 0 {
		return nil
	}
	if _, err := json.Marshal(w.Input); err != nil {
		return newError(CodeInvalidWork, "work %q: input does not encode as JSON: %v", w.ID, err)
	}
	return nil
}

// ClosedError is the error every call of a closed adapter fails with, natively and through the
// module alike.
func ClosedError() *Error { return newError(CodeAdapterClosed, "the adapter is closed") }

// ClosedPort returns a Port that answers every call as a closed Adapter does, for a host whose
// adapter is gone (its module instance released): the adapter is the one owner of those answers,
// and the JS package's are generated from this Port (js/src/closed.js, by internal/jsgen).
// Describe gives only the protocol and label; Close and Detach do nothing.
func ClosedPort(label string) Port {
	return &Adapter{s: &settings{Options: Options{Label: label}}, closed: true,
		runs: map[string]*run{}, listeners: map[int]func(Event){}}
}
