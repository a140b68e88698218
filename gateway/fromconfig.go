package gateway

import (
	"crypto/subtle"
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
	if len(c.Auth.BearerTokens) > 0 {
		opts.Facade.SecuritySchemes = a2a.NamedSecuritySchemes{"bearer": a2a.HTTPAuthSecurityScheme{Scheme: "Bearer", Description: "a token the gateway's operator gave you"}}
		opts.Facade.SecurityRequirements = a2a.SecurityRequirementsOptions{{"bearer": {}}}
		opts.Facade.Authenticate = bearerCallers(c.Auth.BearerTokens)
	}
	for _, b := range c.Backends {
		ao := a2aport.Options{AgentCardURL: b.Card, ProtocolVersion: b.ProtocolVersion, ProtocolBinding: a2aport.Binding(b.Binding),
			Timeout: b.timeout, ReuseContext: b.ReuseContext, WorkStore: works, Label: b.Name}
		if b.ReuseContext {
			ao.ContextStore = newCallerContexts() // one caller's conversations never evict another's
		}
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
			return Options{}, errors.New("backend " + b.Name + ": " + err.Error())
		}
		opts.Backends = append(opts.Backends, Backend{Name: b.Name, Port: port, CardURL: b.Card, Description: b.Description, Disabled: b.Disabled})
	}
	return opts, nil
}

// bearerCallers accepts a request that carries one of tokens; its caller is the name that token
// goes by (BearerToken.caller), never the token's place in the list: revoking a token or
// reordering the list hands no caller's tasks to another.
func bearerCallers(tokens []BearerToken) func(*http.Request) (string, error) {
	callers := make([]string, len(tokens))
	for i, t := range tokens {
		callers[i] = t.caller()
	}
	return func(r *http.Request) (string, error) {
		got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok {
			return "", errors.New("no bearer token")
		}
		caller := ""
		for i, tok := range tokens { // every token compared, in constant time each
			if subtle.ConstantTimeCompare([]byte(got), []byte(tok.Token)) == 1 {
				caller = callers[i]
			}
		}
		if caller == "" {
			return "", errors.New("unknown bearer token")
		}
		return caller, nil
	}
}
