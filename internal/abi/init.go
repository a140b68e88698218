package abi

import (
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/a2aport/a2aport/internal/a2aclient"
	"github.com/a2aport/a2aport/internal/credentials"

	"github.com/a2aport/a2aport"
)

// NewInit is opts as a host sends them to the module: what stays in the host (credentials,
// transport, clock, the context store itself) is left out, durations travel in milliseconds.
func NewInit(opts a2aport.Options) (Init, error) {
	in := Init{
		WireOptions: wireOptions(opts), LegacyCompat: legacyOnWire(opts.LegacyCompat), CardKeys: opts.CardKeys,
		HostContextStore: opts.ContextStore != nil, HostWorkStore: opts.WorkStore != nil, HostCredentials: credentials.HeldBy(opts),
	}
	if len(opts.CardKeys) > 0 && !json.Valid(opts.CardKeys) {
		// It crosses as raw JSON: refuse it here, as adapter.New would.
		return Init{}, &a2aport.Error{Code: a2aport.CodeInvalidOptions, Message: "CardKeys is neither a JWK Set nor a JWK: not JSON"}
	}
	if opts.AgentCard != nil {
		card, err := json.Marshal(opts.AgentCard)
		if err != nil {
			return Init{}, &a2aport.Error{Code: a2aport.CodeInvalidOptions, Message: "AgentCard cannot be encoded: " + err.Error()}
		}
		in.AgentCard = card
	}
	return in, nil
}

// Options is the module's side of NewInit: the adapter options, without what the module's
// bridge supplies (transport, clock, the host's context and work stores).
func (in *Init) Options() (a2aport.Options, error) {
	opts := a2aport.Options{LegacyCompat: legacyFromWire(in.LegacyCompat), CardKeys: []byte(in.CardKeys)}
	in.WireOptions.apply(&opts)
	if len(in.AgentCard) > 0 {
		// Read as a fetched card is: the forms other implementations write (the 1.0 JSON,
		// @a2a-js/sdk's proto objects, 0.3) all work, and what cannot be read is said in words.
		card, _, err := a2aclient.ReadCard(in.AgentCard)
		var e *a2aport.Error
		if errors.As(err, &e) && e.Code == a2aport.CodeDiscoveryFailed {
			return a2aport.Options{}, &a2aport.Error{Code: a2aport.CodeInvalidOptions, Err: err,
				Message: "the in-memory agentCard cannot be read: " + strings.TrimPrefix(e.Message, "Agent Card cannot be read: ")}
		}
		if err != nil { // the card needs what this build lacks (A2A 0.3): the host's cue to load the full module
			return a2aport.Options{}, err
		}
		opts.AgentCard = card
	}
	return opts, nil
}

// wireMs is d in whole milliseconds, keeping its sign: a duration under a millisecond must not
// turn into "not set" (0) on the way.
func wireMs(d time.Duration) int64 {
	switch {
	case d > 0 && d < time.Millisecond:
		return 1
	case d < 0 && d > -time.Millisecond:
		return -1
	}
	return d.Milliseconds()
}

// legacyOnWire is Options.LegacyCompat as the module and the JS package take it: legacyCompat
// false, or absent for the default (on).
func legacyOnWire(l a2aport.LegacyCompat) *bool {
	if l == a2aport.LegacyCompatOn {
		return nil
	}
	on := false
	return &on
}

// legacyFromWire is legacyOnWire's reverse.
func legacyFromWire(on *bool) a2aport.LegacyCompat {
	if on != nil && !*on {
		return a2aport.LegacyCompatOff
	}
	return a2aport.LegacyCompatOn
}
