package gateway

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/a2aport/a2aport"

	"github.com/a2aport/a2aport/adapter"
	"github.com/a2aport/a2aport/facade"
)

// Options are the gateway options c describes: an adapter for each backend (recording its Works
// in works, when set, so that another node of a cluster can resume them), the card, the callers'
// authentication. The caller adds the cluster (Facade.Cluster) and serves the handler.
func (c *Config) Options(works a2aport.WorkStore) (Options, error) {
	base := c.PublicURL
	if base == "" {
		base = "http://" + c.Listen
	}
	opts := Options{
		Facade: facade.Options{BaseURL: base, Name: c.Name, Description: c.Description, Version: c.Version,
			AllowedOrigins: c.AllowedOrigins, KeepAlive: c.keepAlive,
			Limits: facade.Limits{MaxTasksPerCaller: c.Limits.MaxTasksPerCaller, MaxStreamsPerCaller: c.Limits.MaxStreamsPerCaller,
				MaxRequestBytes: c.Limits.MaxRequestBytes, MaxFinishedTasks: c.Limits.MaxFinishedTasks, FinishedTaskRetention: c.Limits.retention}},
		Default: c.Default, SeparateAdmin: c.AdminListen != "",
	}
	signing, err := c.Signing.cardSigning()
	if err != nil {
		return Options{}, err
	}
	opts.Facade.CardSigning = signing
	opts.Facade.Push = c.Push.pushOptions(nil) // gateway.New adds the metrics' count
	tracer, err := c.Tracing.tracerProvider(context.Background())
	if err != nil {
		return Options{}, err
	}
	opts.Tracer = tracer // before the backends: their adapters' transports make client spans with it
	if err := c.authOptions(&opts); err != nil {
		shutdownTracer(opts.Tracer)
		return Options{}, err
	}
	opts.Access, opts.RateLimits = c.Access, c.RateLimits
	for _, b := range c.Backends {
		ao := a2aport.Options{AgentCardURL: b.Card, ProtocolVersion: b.ProtocolVersion, ProtocolBinding: a2aport.Binding(b.Binding),
			Timeout: b.timeout, ReuseContext: b.ReuseContext, WorkStore: works, Label: b.Name,
			HeaderFunc: originHeaders(b.Card, b.AllowedOrigins, b.Headers), AllowedOrigins: b.AllowedOrigins}
		if b.ReuseContext {
			ao.ContextStore = newCallerContexts() // one caller's conversations never evict another's
		}
		ao.Transport = TracedTransport(opts.Tracer, b.Name, nil) // a client span per request with traces on; else nil: the default
		if len(b.Credentials) > 0 {
			ao.Credentials = map[string]a2aport.Credential{}
			for scheme, cr := range b.Credentials {
				ao.Credentials[scheme] = a2aport.Credential{Token: cr.Token, Username: cr.Username, Password: cr.Password,
					ClientID: cr.ClientID, ClientSecret: cr.ClientSecret, Scopes: cr.Scopes, TokenURL: cr.TokenURL}
			}
		}
		port, err := adapter.New(ao)
		if err != nil {
			for _, made := range opts.Backends {
				_ = made.Port.Close()
			}
			for _, release := range opts.release {
				release()
			}
			shutdownTracer(opts.Tracer)
			return Options{}, errors.New("backend " + b.Name + ": " + err.Error())
		}
		var cardHeaders http.Header
		for name, value := range b.Headers {
			if cardHeaders == nil {
				cardHeaders = http.Header{}
			}
			cardHeaders.Set(name, value)
		}
		opts.Backends = append(opts.Backends, Backend{Name: b.Name, Port: port, CardURL: b.Card, CardHeaders: cardHeaders, Description: b.Description, Disabled: b.Disabled})
	}
	return opts, nil
}

// authOptions are the callers' authentication: static bearer tokens and JWTs, each declared on
// the card (the card stays public), the caller named by Identify.
func (c *Config) authOptions(opts *Options) error {
	schemes := a2a.NamedSecuritySchemes{}
	var verifier *jwtVerifier
	if len(c.Auth.BearerTokens) > 0 {
		schemes["bearer"] = a2a.HTTPAuthSecurityScheme{Scheme: "Bearer", Description: "a token the gateway's operator gave you"}
	}
	if j := c.Auth.JWT; j.enabled() {
		var err error
		if verifier, err = newJWTVerifier(context.Background(), j, http.DefaultClient); err != nil {
			return err
		}
		opts.release = append(opts.release, verifier.stop)
		if j.Issuer != "" {
			schemes["oidc"] = a2a.OpenIDConnectSecurityScheme{OpenIDConnectURL: strings.TrimSuffix(j.Issuer, "/") + "/.well-known/openid-configuration",
				Description: "an access token of this identity provider, for the audience " + j.Audiences[0]}
		} else {
			schemes["jwt"] = a2a.HTTPAuthSecurityScheme{Scheme: "Bearer", BearerFormat: "JWT", Description: "a JWT of the gateway's identity provider"}
		}
	}
	if c.Auth.MTLS.enabled() {
		schemes["mtls"] = a2a.MutualTLSSecurityScheme{Description: "a client certificate of an authority the gateway's operator trusts"}
	}
	if len(schemes) == 0 {
		return nil
	}
	opts.Facade.SecuritySchemes = schemes
	for _, name := range []a2a.SecuritySchemeName{"bearer", "oidc", "jwt", "mtls"} { // any one of them will do
		if _, ok := schemes[name]; ok {
			opts.Facade.SecurityRequirements = append(opts.Facade.SecurityRequirements, a2a.SecurityRequirements{name: {}})
		}
	}
	opts.Identify = newCallers(c.Auth.BearerTokens, verifier, c.Auth.MTLS.enabled()).identify
	return nil
}
