package gateway

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/MicahParks/keyfunc/v3"
	"github.com/golang-jwt/jwt/v5"
	"golang.org/x/time/rate"
)

// JWTConfig takes callers by JSON Web Tokens an identity provider issued (auth.jwt): signed by a
// key of its published JWK Set, for one of Audiences, unexpired. The set is read at start, read
// again when a token names a key it does not hold (a rotation), at most once a minute, and every
// ten minutes. Tokens are checked by github.com/golang-jwt/jwt/v5 with keys from
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
	now    func() time.Time
	// verified are tokens checked lately: a signature costs 60-100 us (BenchmarkIdentify), and a
	// caller sends the same token with every request of a conversation.
	verified verifiedTokens
}

// verifiedTokens remembers tokens that verified, by their hash, until the earlier of their expiry
// and a minute on: a key the provider withdraws stops its tokens at the JWK Set's next reading
// (every ten minutes) and at most a minute after.
type verifiedTokens struct {
	mu sync.Mutex
	by map[[32]byte]verifiedToken
}

type verifiedToken struct {
	id    Identity
	until time.Time
}

// maxVerifiedTokens bounds the memory of verified tokens: past it, they are all forgotten.
const maxVerifiedTokens = 10_000

// verifiedFor is how long a token that verified is taken without checking it again.
const verifiedFor = time.Minute

func (t *verifiedTokens) get(key [32]byte, now time.Time) (Identity, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	v, ok := t.by[key]
	if !ok || !now.Before(v.until) {
		return Identity{}, false
	}
	return v.id, true
}

func (t *verifiedTokens) put(key [32]byte, id Identity, until time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.by == nil || len(t.by) >= maxVerifiedTokens {
		t.by = map[[32]byte]verifiedToken{}
	}
	t.by[key] = verifiedToken{id, until}
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
		RefreshInterval:           10 * time.Minute, // a withdrawn key goes within ten minutes
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
	v := &jwtVerifier{keys: keys, claim: claim(c), tenant: c.TenantClaim, stop: stop, now: time.Now}
	opts := []jwt.ParserOption{jwt.WithValidMethods(algs), jwt.WithAudience(c.Audiences...), jwt.WithLeeway(c.clockSkew),
		jwt.WithExpirationRequired(), jwt.WithTimeFunc(func() time.Time { return v.now() })}
	if c.Issuer != "" {
		opts = append(opts, jwt.WithIssuer(c.Issuer))
	}
	v.parser = jwt.NewParser(opts...)
	return v, nil
}

// claim is the claim that names the caller.
func claim(c JWTConfig) string {
	if c.CallerClaim == "" {
		return "sub"
	}
	return c.CallerClaim
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
	key, now := sha256.Sum256([]byte(token)), v.now()
	if id, ok := v.verified.get(key, now); ok {
		return id, nil
	}
	id, exp, err := v.verify(ctx, token)
	if err != nil {
		return Identity{}, err
	}
	until := now.Add(verifiedFor)
	if exp.Before(until) {
		until = exp
	}
	v.verified.put(key, id, until)
	return id, nil
}

// verify checks token's signature and claims: its caller, and when it expires.
func (v *jwtVerifier) verify(ctx context.Context, token string) (Identity, time.Time, error) {
	claims := jwt.MapClaims{}
	if _, err := v.parser.ParseWithClaims(token, claims, v.keys.KeyfuncCtx(ctx)); err != nil {
		return Identity{}, time.Time{}, fmt.Errorf("%w: %w", errBadToken, err)
	}
	exp, err := claims.GetExpirationTime()
	if err != nil || exp == nil {
		return Identity{}, time.Time{}, fmt.Errorf("%w: it has no expiry", errBadToken)
	}
	id, err := v.identity(claims)
	return id, exp.Time, err
}

// identity is the caller the claims of a verified token name.
func (v *jwtVerifier) identity(claims jwt.MapClaims) (Identity, error) {
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
