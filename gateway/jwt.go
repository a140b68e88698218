package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/MicahParks/keyfunc/v3"
	"github.com/golang-jwt/jwt/v5"
	"golang.org/x/time/rate"
)

// JWTConfig takes callers by JSON Web Tokens an identity provider issued (auth.jwt): signed by a
// key of its published JWK Set, for one of Audiences, unexpired. The set is read at start and read
// again when a token names a key it does not hold (a rotation), at most once a minute, and every
// hour. Tokens are checked by github.com/golang-jwt/jwt/v5 with keys from
// github.com/MicahParks/keyfunc/v3: nothing here parses a token.
type JWTConfig struct {
	// Issuer is the provider's issuer URL: its OpenID Connect discovery document
	// (Issuer/.well-known/openid-configuration) names the JWK Set, and a token's "iss" must be it.
	Issuer string `yaml:"issuer"`
	// JWKSURL is the JWK Set's URL, in place of discovery (with Issuer too: "iss" is still checked).
	JWKSURL string `yaml:"jwksURL"`
	// Audiences: a token's "aud" must hold one of them (required: a token issued for another
	// service is not one for this gateway).
	Audiences []string `yaml:"audiences"`
	// Algorithms a token may be signed with (default RS256 and ES256; "none" never).
	Algorithms []string `yaml:"algorithms"`
	// ClockSkew is how far the clocks of the provider and the gateway may disagree (default 30s).
	ClockSkew string `yaml:"clockSkew"`
	clockSkew time.Duration
	// CallerClaim is the claim whose value names the caller (default "sub"); the caller is
	// "jwt:" and that value.
	CallerClaim string `yaml:"callerClaim"`
	// TenantClaim, when set, is the claim whose value is the caller's tenant (a token without it
	// is refused). The caller is then "jwt:", the tenant (escaped), ":" and the caller claim: the
	// same subject in two tenants is two callers, whose tasks and conversations are apart.
	TenantClaim string `yaml:"tenantClaim"`
}

// enabled reports whether the configuration asks for JWTs at all.
func (j *JWTConfig) enabled() bool { return j.Issuer != "" || j.JWKSURL != "" }

// jwtAlgorithms are the algorithms a configuration may allow: asymmetric ones, whose keys a JWK
// Set publishes (an HMAC secret would have to be shared with every token holder's issuer).
var jwtAlgorithms = map[string]bool{"RS256": true, "RS384": true, "RS512": true, "PS256": true, "PS384": true, "PS512": true,
	"ES256": true, "ES384": true, "ES512": true, "EdDSA": true}

func (j *JWTConfig) check(fail func(field, msg string) error) error {
	if !j.enabled() {
		if len(j.Audiences) > 0 || len(j.Algorithms) > 0 || j.ClockSkew != "" || j.CallerClaim != "" || j.TenantClaim != "" {
			return fail("auth.jwt", "needs an issuer or a jwksURL")
		}
		return nil
	}
	for field, u := range map[string]string{"auth.jwt.issuer": j.Issuer, "auth.jwt.jwksURL": j.JWKSURL} {
		if u == "" {
			continue
		}
		if p, err := url.Parse(u); err != nil || (p.Scheme != "https" && p.Scheme != "http") || p.Host == "" || p.User != nil {
			return fail(field, "must be an absolute http(s) URL without user info")
		}
	}
	if len(j.Audiences) == 0 {
		return fail("auth.jwt.audiences", "name at least one audience: a token issued for another service is not one for this gateway")
	}
	for i, a := range j.Algorithms {
		if !jwtAlgorithms[a] {
			return fail(fmt.Sprintf("auth.jwt.algorithms[%d]", i), "must be one of RS256, RS384, RS512, PS256, PS384, PS512, ES256, ES384, ES512, EdDSA")
		}
	}
	j.clockSkew = 30 * time.Second
	if j.ClockSkew != "" {
		var err error
		if j.clockSkew, err = time.ParseDuration(j.ClockSkew); err != nil || j.clockSkew < 0 {
			return fail("auth.jwt.clockSkew", "must be a duration such as 30s")
		}
	}
	return nil
}

// jwtVerifier checks a configuration's tokens.
type jwtVerifier struct {
	keys   keyfunc.Keyfunc
	parser *jwt.Parser
	claim  string
	tenant string             // the tenant's claim, or ""
	stop   context.CancelFunc // ends the key set's refreshes
}

// newJWTVerifier reads the provider's discovery document (when the configuration names an issuer
// and no JWK Set) and its JWK Set, through client. It fails when either cannot be read: a gateway
// that could take no caller is not started.
func newJWTVerifier(ctx context.Context, c JWTConfig, client *http.Client) (*jwtVerifier, error) {
	jwks := c.JWKSURL
	if jwks == "" {
		var err error
		if jwks, err = discoverJWKS(ctx, c.Issuer, client); err != nil {
			return nil, err
		}
	}
	refreshCtx, stop := context.WithCancel(context.Background())
	wait, fail := 100*time.Millisecond, false
	keys, err := keyfunc.NewDefaultOverrideCtx(refreshCtx, []string{jwks}, keyfunc.Override{
		Client: client,
		// A token signed by a key the set does not hold yet reads the set again, at most once a
		// minute, and waits no longer than a moment for it: an unknown key is not a way to make
		// the gateway fetch at will, nor to hold requests.
		RefreshUnknownKID:         rate.NewLimiter(rate.Every(time.Minute), 1),
		RateLimitWaitMax:          wait,
		NoErrorReturnFirstHTTPReq: &fail,
		HTTPTimeout:               10 * time.Second,
		RefreshErrorHandlerFunc:   func(string) func(context.Context, error) { return func(context.Context, error) {} },
	})
	if err != nil {
		stop()
		return nil, fmt.Errorf("auth.jwt: the JWK Set could not be read: %w", err)
	}
	algs := c.Algorithms
	if len(algs) == 0 {
		algs = []string{"RS256", "ES256"}
	}
	opts := []jwt.ParserOption{jwt.WithValidMethods(algs), jwt.WithAudience(c.Audiences...), jwt.WithLeeway(c.clockSkew),
		jwt.WithExpirationRequired()}
	if c.Issuer != "" {
		opts = append(opts, jwt.WithIssuer(c.Issuer))
	}
	claim := c.CallerClaim
	if claim == "" {
		claim = "sub"
	}
	return &jwtVerifier{keys: keys, parser: jwt.NewParser(opts...), claim: claim, tenant: c.TenantClaim, stop: stop}, nil
}

// discoverJWKS reads issuer's OpenID Connect discovery document: the JWK Set it names, when the
// document is the issuer's own.
func discoverJWKS(ctx context.Context, issuer string, client *http.Client) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(issuer, "/")+"/.well-known/openid-configuration", nil)
	if err != nil {
		return "", err
	}
	resp, err := client.Do(req)
	if err != nil {
		return "", fmt.Errorf("auth.jwt: the issuer's discovery document could not be read: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("auth.jwt: the issuer's discovery document answered %s", resp.Status)
	}
	var doc struct {
		Issuer  string `json:"issuer"`
		JWKSURI string `json:"jwks_uri"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&doc); err != nil {
		return "", fmt.Errorf("auth.jwt: the issuer's discovery document is not JSON: %w", err)
	}
	if doc.Issuer != issuer {
		return "", errors.New("auth.jwt: the discovery document names another issuer")
	}
	if u, err := url.Parse(doc.JWKSURI); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return "", errors.New("auth.jwt: the discovery document names no usable jwks_uri")
	}
	return doc.JWKSURI, nil
}

// maxClaimedCaller bounds the caller a token names: it keys tasks, limits and logs.
const maxClaimedCaller = 256

// errBadToken is every refusal of a JWT: which check failed is the operator's to learn (the
// debug log), not the caller's.
var errBadToken = errors.New("the bearer token is not one this gateway takes")

// identify checks token and names its caller.
func (v *jwtVerifier) identify(ctx context.Context, token string) (Identity, error) {
	claims := jwt.MapClaims{}
	if _, err := v.parser.ParseWithClaims(token, claims, v.keys.KeyfuncCtx(ctx)); err != nil {
		return Identity{}, fmt.Errorf("%w: %w", errBadToken, err)
	}
	name, ok := claims[v.claim].(string)
	if !ok || name == "" || len(name) > maxClaimedCaller {
		return Identity{}, fmt.Errorf("%w: its %q claim is not a name of at most %d bytes", errBadToken, v.claim, maxClaimedCaller)
	}
	if v.tenant == "" {
		return Identity{Caller: "jwt:" + name, Claims: claims}, nil
	}
	tenant, ok := claims[v.tenant].(string)
	if !ok || tenant == "" || len(tenant) > maxClaimedCaller {
		return Identity{}, fmt.Errorf("%w: its %q claim is not a tenant of at most %d bytes", errBadToken, v.tenant, maxClaimedCaller)
	}
	return Identity{Caller: "jwt:" + url.QueryEscape(tenant) + ":" + name, Tenant: tenant, Claims: claims}, nil
}
