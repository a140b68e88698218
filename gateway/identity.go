package gateway

import (
	"context"
	"crypto/subtle"
	"errors"
	"log/slog"
	"net/http"
	"strings"
)

// Identity is who calls the gateway: the caller's name, whose tasks are its own, its tenant, and
// the claims its token carried (a JWT's; none for a static bearer token), which access rules may
// ask for.
type Identity struct {
	Caller string
	// Tenant is the organisation the caller belongs to ("" for none): the JWT's tenant claim, or
	// the tenant configured with a static token. It is the identity's: a tenant a request names
	// (A2A 1.0's tenant field) is request data and decides nothing.
	Tenant string
	Claims map[string]any
}

// identified is what identify found for a request: an identity, or why there is none.
type identified struct {
	id  Identity
	err error
}

type identityKey struct{}

// identify names the caller of every request once, before the facade sees it, and leaves the
// answer in the request's context: the facade's Authenticate refuses with its error, and
// Authorize reads the claims. It refuses nothing itself: the card stays public.
// Why a token was refused goes to the debug log, never to the caller.
func identify(fn func(*http.Request) (Identity, error), logger *slog.Logger, next http.Handler) http.Handler {
	if fn == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, err := fn(r)
		if err != nil && !errors.Is(err, errNoCredentials) {
			logger.Debug("caller refused", "reason", printable(err.Error(), maxLoggedReason), "remote", r.RemoteAddr)
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), identityKey{}, identified{id, err})))
	})
}

// authenticated is the facade's Authenticate for a gateway with Options.Identify.
func authenticated(r *http.Request) (string, error) {
	found, ok := r.Context().Value(identityKey{}).(identified)
	if !ok {
		return "", errors.New("the request was not identified")
	}
	return found.id.Caller, found.err
}

// identityOf is the identity identify found for the request of ctx (zero when none).
func identityOf(ctx context.Context) Identity {
	found, _ := ctx.Value(identityKey{}).(identified)
	return found.id
}

// errNoCredentials is a request without an Authorization the gateway takes.
var errNoCredentials = errors.New("no bearer token")

// callers identifies a configured gateway's callers: by one of the static bearer tokens, else by a
// JWT its identity provider issued.
type callers struct {
	tokens []BearerToken
	names  []string // tokens[i]'s caller
	jwt    *jwtVerifier
	mtls   bool // a verified client certificate names a caller that sends no token
}

func newCallers(tokens []BearerToken, jwt *jwtVerifier, mtls bool) *callers {
	c := &callers{tokens: tokens, jwt: jwt, mtls: mtls}
	for _, t := range tokens {
		c.names = append(c.names, t.caller())
	}
	return c
}

// identify names the caller of r. A static token's caller is the name that token goes by
// (BearerToken.caller), never its place in the list: revoking a token or reordering the list hands
// no caller's tasks to another. A JWT's caller is "jwt:" and its caller claim, a client
// certificate's "mtls:" and its subject, which no static name can be (validCaller has no ':'). A
// token, when sent, decides: a certificate names the caller of a request without one.
func (c *callers) identify(r *http.Request) (Identity, error) {
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok || got == "" {
		if id, ok := certificateCaller(r); ok && c.mtls {
			return id, nil
		}
		return Identity{}, errNoCredentials
	}
	found := -1
	for i, tok := range c.tokens { // every token compared, in constant time each
		if subtle.ConstantTimeCompare([]byte(got), []byte(tok.Token)) == 1 {
			found = i
		}
	}
	if found >= 0 {
		return Identity{Caller: c.names[found], Tenant: c.tokens[found].Tenant}, nil
	}
	if c.jwt == nil {
		return Identity{}, errors.New("unknown bearer token")
	}
	return c.jwt.identify(r.Context(), got)
}
