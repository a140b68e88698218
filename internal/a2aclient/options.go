package a2aclient

import (
	"net/url"
	"strings"
	"time"

	"github.com/a2aport/a2aport"

	"github.com/a2aport/a2aport/internal/cardsig"
	"github.com/a2aport/a2aport/internal/credentials"
)

const (
	// probeConfirm is how long a probe that found the task ahead of its stream waits for the
	// stream to deliver (an event may be on its way) before it declares the stream dead.
	probeConfirm = time.Second
	// maxSSEEvent is a2a-go's own limit for one line of a stream, which no option can raise.
	maxSSEEvent = 10 << 20
	// maxRecoveryBackoff caps the doubling backoff between recovery attempts.
	maxRecoveryBackoff = 4 * time.Second
	// maxRetryAfter caps how long an agent's Retry-After can make a Work wait before a retry.
	maxRetryAfter = time.Minute
	// closeGrace bounds the best-effort remote cancels that Close sends.
	closeGrace = 5 * time.Second
)

// settings are Options validated and with defaults applied.
type settings struct {
	a2aport.Options
	hostHeld *credentials.Held // set by a host that keeps the credentials (NewHosted)
	cardURL  *url.URL
	legacy   bool
	store    a2aport.ContextStore
	cardKeys cardsig.KeySet
}

// validate checks o (and what a host holds) and applies the defaults.
func validate(o a2aport.Options, hostHeld *credentials.Held) (*settings, error) {
	s := &settings{Options: o, hostHeld: hostHeld}
	switch {
	case o.AgentCardURL == "" && o.AgentCard == nil:
		return nil, newError(a2aport.CodeInvalidOptions, "options need AgentCardURL or AgentCard")
	case o.AgentCardURL != "" && o.AgentCard != nil:
		return nil, newError(a2aport.CodeInvalidOptions, "options take AgentCardURL or AgentCard, not both")
	}
	if o.AgentCardURL != "" {
		u, err := parseCardURL(o.AgentCardURL)
		if err != nil {
			return nil, err
		}
		s.cardURL = u
	}
	if err := applyNumbers(&s.Options); err != nil { // options_gen.go, from the option table
		return nil, err
	}
	if err := checkWebhookURL(o.PushWebhookURL); err != nil {
		return nil, err
	}
	for name := range o.Headers {
		if strings.TrimSpace(name) == "" {
			return nil, newError(a2aport.CodeInvalidOptions, "Headers contain an empty header name")
		}
	}
	if err := validateCredentials(o, hostHeld); err != nil {
		return nil, err
	}
	if err := validateCardVerification(s); err != nil {
		return nil, err
	}
	if s.Transport == nil {
		s.Transport = defaultTransport
	}
	if s.Clock == nil {
		s.Clock = a2aport.RealClock()
	}
	s.legacy = o.LegacyCompat == a2aport.LegacyCompatOn
	switch o.ProtocolVersion {
	case "", "1.0":
	case "0.3":
		if !s.legacy {
			return nil, newError(a2aport.CodeInvalidOptions, "ProtocolVersion \"0.3\" needs LegacyCompat")
		}
	default:
		return nil, newError(a2aport.CodeInvalidOptions, "ProtocolVersion must be \"1.0\" or \"0.3\", got %q", o.ProtocolVersion)
	}
	for _, origin := range o.AllowedOrigins {
		if !validOrigin(origin) {
			return nil, newError(a2aport.CodeInvalidOptions, "AllowedOrigins: %q is not an origin (scheme://host[:port], default port left out, or \"*\")", origin)
		}
	}
	for _, uri := range o.Extensions {
		if strings.TrimSpace(uri) == "" {
			return nil, newError(a2aport.CodeInvalidOptions, "Extensions contain an empty URI")
		}
	}
	switch o.LegacyCompat {
	case a2aport.LegacyCompatOn, a2aport.LegacyCompatOff:
	default:
		return nil, newError(a2aport.CodeInvalidOptions, "LegacyCompat must be LegacyCompatOn or LegacyCompatOff, got %d", o.LegacyCompat)
	}
	switch o.ProtocolBinding {
	case "", a2aport.BindingJSONRPC, a2aport.BindingHTTPJSON:
	case a2aport.BindingGRPC: // an A2A binding a2aport does not speak: discovery says so
	default:
		return nil, newError(a2aport.CodeInvalidOptions, "ProtocolBinding must be \"JSONRPC\", \"HTTP+JSON\" or \"GRPC\", got %q", o.ProtocolBinding)
	}
	s.store = o.ContextStore
	if s.store == nil {
		s.store = a2aport.NewMemoryContextStore(a2aport.MemoryContextStoreOptions{Clock: s.Clock})
	}
	return s, nil
}

// parseCardURL accepts only absolute http(s) URLs without userinfo: credentials belong in Token or Headers.
func parseCardURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, newError(a2aport.CodeInvalidOptions, "AgentCardURL is not a valid URL")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, newError(a2aport.CodeInvalidOptions, "AgentCardURL must be an absolute http or https URL, got scheme %q", u.Scheme)
	}
	if u.Host == "" {
		return nil, newError(a2aport.CodeInvalidOptions, "AgentCardURL has no host")
	}
	if u.User != nil {
		return nil, newError(a2aport.CodeInvalidOptions, "AgentCardURL must not contain userinfo; use Token or Headers for credentials")
	}
	if u.Path == "" || u.Path == "/" {
		// The agent's base URL, as other A2A clients take it: its card is where A2A publishes
		// it, at the well-known path (RFC 8615).
		u.Path, u.RawPath = a2aport.WellKnownCardPath, ""
	}
	return u, nil
}
