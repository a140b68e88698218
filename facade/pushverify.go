package facade

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/MicahParks/keyfunc/v3"
	"github.com/golang-jwt/jwt/v5"
	"golang.org/x/time/rate"
)

// PushVerification is what a receiver of signed pushes trusts: the facade's published keys, the
// facade itself and the webhook the push was meant for.
type PushVerification struct {
	// JWKSURL is the facade's published key set (BaseURL + CardKeysPath, or its CardSigning.JKU).
	JWKSURL string
	// Issuer is the facade's BaseURL, as its pushes name it.
	Issuer string
	// Webhook is the URL the receiver registered: a push signed for another is refused.
	Webhook string
	// Client fetches the key set (nil: http.DefaultClient).
	Client *http.Client
}

// PushVerifier checks the signature of pushes a facade sent (PushOptions.Sign), for the Go
// program that receives them. Close it when done: it reads the key set again from time to time.
type PushVerifier struct {
	keys   keyfunc.Keyfunc
	parser *jwt.Parser
	stop   context.CancelFunc

	mu   sync.Mutex
	seen map[string]time.Time // signature ids taken, until they expire
}

// ErrPushNotVerified is every refusal of PushVerifier.Verify; its text says which check failed.
var ErrPushNotVerified = errors.New("the push notification's signature does not verify")

// NewPushVerifier reads the key set and makes a verifier.
func NewPushVerifier(ctx context.Context, v PushVerification) (*PushVerifier, error) {
	if v.JWKSURL == "" || v.Issuer == "" || v.Webhook == "" {
		return nil, errors.New("facade: a PushVerification needs JWKSURL, Issuer and Webhook")
	}
	client := v.Client
	if client == nil {
		client = http.DefaultClient
	}
	refresh, stop := context.WithCancel(context.WithoutCancel(ctx))
	fail := false
	keys, err := keyfunc.NewDefaultOverrideCtx(refresh, []string{v.JWKSURL}, keyfunc.Override{Client: client,
		RefreshUnknownKID: rate.NewLimiter(rate.Every(time.Minute), 1), RateLimitWaitMax: 100 * time.Millisecond,
		NoErrorReturnFirstHTTPReq: &fail, RefreshInterval: 10 * time.Minute,
		RefreshErrorHandlerFunc: func(string) func(context.Context, error) { return func(context.Context, error) {} }})
	if err != nil {
		stop()
		return nil, fmt.Errorf("facade: the push key set could not be read: %w", err)
	}
	parser := jwt.NewParser(jwt.WithValidMethods([]string{"ES256", "ES384", "ES512", "EdDSA", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512"}),
		jwt.WithIssuer(v.Issuer), jwt.WithAudience(v.Webhook), jwt.WithExpirationRequired(), jwt.WithIssuedAt(), jwt.WithLeeway(30*time.Second))
	return &PushVerifier{keys: keys, parser: parser, stop: stop, seen: map[string]time.Time{}}, nil
}

// Close stops reading the key set.
func (p *PushVerifier) Close() { p.stop() }

// Verify checks the signature r carries for body (the push's whole body, read by the caller):
// signed by a published key, by this issuer, for this webhook, unexpired, over this body and for
// the delivery id in PushIDHeader, and not seen before (a replay of a push within its life is
// refused). A delivery sent again (a retry, or by the node that adopted it) is signed anew and
// verifies: drop it by its PushIDHeader if it was handled.
func (p *PushVerifier) Verify(r *http.Request, body []byte) error {
	token := r.Header.Get(PushSignatureHeader)
	if token == "" {
		return fmt.Errorf("%w: it has none (%s)", ErrPushNotVerified, PushSignatureHeader)
	}
	claims := jwt.MapClaims{}
	if _, err := p.parser.ParseWithClaims(token, claims, p.keys.KeyfuncCtx(r.Context())); err != nil {
		return fmt.Errorf("%w: %w", ErrPushNotVerified, err)
	}
	sum := sha256.Sum256(body)
	want, _ := claims["request_body_sha256"].(string)
	if subtle.ConstantTimeCompare([]byte(want), []byte(hex.EncodeToString(sum[:]))) != 1 {
		return fmt.Errorf("%w: it was made for another body", ErrPushNotVerified)
	}
	if pushID, _ := claims["push_id"].(string); pushID != r.Header.Get(PushIDHeader) {
		return fmt.Errorf("%w: it was made for another delivery (%s)", ErrPushNotVerified, PushIDHeader)
	}
	id, _ := claims["jti"].(string)
	exp, err := claims.GetExpirationTime()
	if id == "" || err != nil || exp == nil {
		return fmt.Errorf("%w: it has no id or expiry", ErrPushNotVerified)
	}
	now := time.Now()
	p.mu.Lock()
	defer p.mu.Unlock()
	for k, until := range p.seen {
		if now.After(until.Add(time.Minute)) {
			delete(p.seen, k)
		}
	}
	if _, replay := p.seen[id]; replay {
		return fmt.Errorf("%w: it was received before (a replay)", ErrPushNotVerified)
	}
	p.seen[id] = exp.Time
	return nil
}
