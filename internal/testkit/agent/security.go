package agent

import (
	"crypto/rand"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// Names of the secured cards, for [Server.SpecialCardURL]: each is the v1-jsonrpc-stream agent
// at its own path, behind a check of the security its card declares (and enforced: a request
// without the secret gets 401 with a WWW-Authenticate challenge).
const (
	CardBearer       = "secure-bearer"        // HTTP bearer: BearerToken
	CardBasic        = "secure-basic"         // HTTP basic: BasicUser, BasicPassword
	CardAPIKeyHeader = "secure-apikey-header" // API key in the X-Api-Key header: APIKey
	CardAPIKeyQuery  = "secure-apikey-query"  // API key in the api_key query parameter: APIKey
	CardAPIKeyCookie = "secure-apikey-cookie" // API key in the session cookie: APIKey
	CardOAuth2       = "secure-oauth2"        // OAuth2 client credentials (scope agent:run) at /oauth/token
	CardOpenID       = "secure-oidc"          // OpenID Connect: OpenIDToken
	// CardEither asks for the API key and basic together, or else bearer.
	CardEither = "secure-either"
)

// The secrets the secured endpoints accept.
const (
	BearerToken   = "test-bearer-4f1c9a"
	BasicUser     = "tester"
	BasicPassword = "test-password-9d2e7b"
	APIKey        = "test-apikey-77b0e1"
	ClientID      = "test-client"
	ClientSecret  = "test-client-secret-3a5f"
	OpenIDToken   = "test-oidc-c0de42"
	// OAuthScope is the scope the OAuth2 card's requirement names; the token endpoint refuses
	// requests that do not ask for it.
	OAuthScope = "agent:run"
)

// securedCards lists the secured cards.
var securedCards = []string{CardBearer, CardBasic, CardAPIKeyHeader, CardAPIKeyQuery, CardAPIKeyCookie, CardOAuth2, CardOpenID, CardEither}

// securedPath is where the secured endpoint of card name is served.
func securedPath(name string) string { return "/secure/" + name }

// securedCard is the card of the secured endpoint name.
func securedCard(baseURL, name string) *a2a.AgentCard {
	card := newCard(true, &a2a.AgentInterface{URL: baseURL + securedPath(name),
		ProtocolBinding: a2a.TransportProtocolJSONRPC, ProtocolVersion: a2a.Version})
	schemes := a2a.NamedSecuritySchemes{
		"bearer": a2a.HTTPAuthSecurityScheme{Scheme: "Bearer"},
		"basic":  a2a.HTTPAuthSecurityScheme{Scheme: "Basic"},
		"key":    a2a.APIKeySecurityScheme{Location: a2a.APIKeySecuritySchemeLocationHeader, Name: "X-Api-Key"},
	}
	var reqs a2a.SecurityRequirementsOptions
	switch name {
	case CardBearer, CardBasic:
		scheme := strings.TrimPrefix(name, "secure-")
		reqs = a2a.SecurityRequirementsOptions{{a2a.SecuritySchemeName(scheme): {}}}
	case CardAPIKeyHeader, CardAPIKeyQuery, CardAPIKeyCookie:
		in := strings.TrimPrefix(name, "secure-apikey-")
		param := map[string]string{"header": "X-Api-Key", "query": "api_key", "cookie": "session"}[in]
		schemes["key"] = a2a.APIKeySecurityScheme{Location: a2a.APIKeySecuritySchemeLocation(in), Name: param}
		reqs = a2a.SecurityRequirementsOptions{{"key": {}}}
	case CardOAuth2:
		schemes["oauth"] = a2a.OAuth2SecurityScheme{Flows: a2a.ClientCredentialsOAuthFlow{
			TokenURL: baseURL + "/oauth/token", Scopes: map[string]string{OAuthScope: "run work"}}}
		reqs = a2a.SecurityRequirementsOptions{{"oauth": {OAuthScope}}}
	case CardOpenID:
		schemes["oidc"] = a2a.OpenIDConnectSecurityScheme{OpenIDConnectURL: baseURL + "/.well-known/openid-configuration"}
		reqs = a2a.SecurityRequirementsOptions{{"oidc": {}}}
	case CardEither:
		reqs = a2a.SecurityRequirementsOptions{{"key": {}, "basic": {}}, {"bearer": {}}}
	}
	card.SecuritySchemes, card.SecurityRequirements = schemes, reqs
	return card
}

// authorized reports whether r satisfies the security of card name, and the challenge to answer
// when it does not.
func (o *oauthServer) authorized(name string, r *http.Request) (bool, string) {
	bearer := func(want string) bool { return r.Header.Get("Authorization") == "Bearer "+want }
	basic := func() bool { u, p, ok := r.BasicAuth(); return ok && u == BasicUser && p == BasicPassword }
	const realm = ` realm="a2aport-test"`
	switch name {
	case CardBearer:
		return bearer(BearerToken), "Bearer" + realm + `, error="invalid_token"`
	case CardBasic:
		return basic(), "Basic" + realm
	case CardAPIKeyHeader:
		return r.Header.Get("X-Api-Key") == APIKey, "ApiKey" + realm
	case CardAPIKeyQuery:
		return r.URL.Query().Get("api_key") == APIKey, "ApiKey" + realm
	case CardAPIKeyCookie:
		c, err := r.Cookie("session")
		return err == nil && c.Value == APIKey, "ApiKey" + realm
	case CardOAuth2:
		token, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		return o.valid(token), "Bearer" + realm + `, scope="` + OAuthScope + `"`
	case CardOpenID:
		return bearer(OpenIDToken), "Bearer" + realm
	case CardEither:
		return (r.Header.Get("X-Api-Key") == APIKey && basic()) || bearer(BearerToken), "Basic" + realm + ", Bearer" + realm
	}
	return false, ""
}

// secured serves the A2A endpoint api for card name to authorized requests only.
func (o *oauthServer) secured(name string, api http.Handler) http.Handler {
	return http.StripPrefix(securedPath(name), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ok, challenge := o.authorized(name, r); !ok {
			w.Header().Set("WWW-Authenticate", challenge)
			http.Error(w, "authentication required", http.StatusUnauthorized)
			return
		}
		api.ServeHTTP(w, r)
	}))
}

// oauthServer is a small OAuth2 token endpoint: the client-credentials grant only, the client
// authenticated with HTTP basic or in the form, tokens valid until revoked.
type oauthServer struct {
	mu     sync.Mutex
	issued int
	tokens map[string]bool
}

func (o *oauthServer) valid(token string) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.tokens[token]
}

// ServeHTTP answers /oauth/token, /oauth/revoke (revokes every token issued so far) and, for
// tests in other languages, GET /oauth/issued ({"issued": N}).
func (o *oauthServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet && r.URL.Path == "/oauth/issued" {
		o.mu.Lock()
		n := o.issued
		o.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]int{"issued": n})
		return
	}
	if r.Method != http.MethodPost {
		http.Error(w, "POST only", http.StatusMethodNotAllowed)
		return
	}
	if r.URL.Path == "/oauth/revoke" {
		o.mu.Lock()
		o.tokens = nil
		o.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
		return
	}
	refuse := func(status int, code string) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(map[string]string{"error": code})
	}
	if err := r.ParseForm(); err != nil {
		refuse(http.StatusBadRequest, "invalid_request")
		return
	}
	id, secret, ok := r.BasicAuth()
	if !ok {
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	switch {
	case r.PostForm.Get("grant_type") != "client_credentials":
		refuse(http.StatusBadRequest, "unsupported_grant_type")
		return
	case id != ClientID || secret != ClientSecret:
		refuse(http.StatusUnauthorized, "invalid_client")
		return
	case !slices.Contains(strings.Fields(r.PostForm.Get("scope")), OAuthScope):
		refuse(http.StatusBadRequest, "invalid_scope")
		return
	}
	token := "oauth-" + rand.Text()
	o.mu.Lock()
	o.issued++
	if o.tokens == nil {
		o.tokens = map[string]bool{}
	}
	o.tokens[token] = true
	o.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(map[string]any{"access_token": token, "token_type": "Bearer", "expires_in": 3600})
}

// TokenValid reports whether token was issued by the OAuth2 token endpoint and not revoked, for
// tests that put other agents behind the same endpoint.
func (s *Server) TokenValid(token string) bool { return s.oauth.valid(token) }

// TokensIssued returns how many tokens the OAuth2 token endpoint has issued.
func (s *Server) TokensIssued() int {
	s.oauth.mu.Lock()
	defer s.oauth.mu.Unlock()
	return s.oauth.issued
}

// RevokeTokens makes every token issued so far invalid, as POST /oauth/revoke does.
func (s *Server) RevokeTokens() {
	s.oauth.mu.Lock()
	defer s.oauth.mu.Unlock()
	s.oauth.tokens = nil
}
