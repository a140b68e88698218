package gateway

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// TestVerifiedTokensExpire: a token that verified is taken again without its signature being
// checked, but never past its own expiry, nor more than verifiedFor after it was checked; the
// memory of verified tokens is bounded.
func TestVerifiedTokensExpire(t *testing.T) {
	t.Parallel()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	point, err := key.PublicKey.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	b64 := base64.RawURLEncoding.EncodeToString
	set, _ := json.Marshal(map[string]any{"keys": []map[string]string{{"kty": "EC", "crv": "P-256", "kid": "k", "alg": "ES256", "x": b64(point[1:33]), "y": b64(point[33:])}}})
	var reads atomic.Int32
	jwks := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { reads.Add(1); _, _ = w.Write(set) }))
	defer jwks.Close()
	cfg := JWTConfig{JWKSURL: jwks.URL, Audiences: []string{"g"}, ClockSkew: "0s"}
	if err := cfg.check(func(field, msg string) error { t.Fatal(field, msg); return nil }); err != nil {
		t.Fatal(err)
	}
	v, err := newJWTVerifier(context.Background(), cfg, http.DefaultClient)
	if err != nil {
		t.Fatal(err)
	}
	defer v.stop()
	t0 := time.Now()
	clock := t0
	v.now = func() time.Time { return clock }
	token := func(sub string, exp time.Time) string {
		tok := jwt.NewWithClaims(jwt.SigningMethodES256, jwt.MapClaims{"sub": sub, "aud": "g", "exp": exp.Unix()})
		tok.Header["kid"] = "k"
		s, err := tok.SignedString(key)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	short, long := token("short", t0.Add(30*time.Second)), token("long", t0.Add(time.Hour))
	for _, at := range []struct {
		after       time.Duration
		short, long bool
	}{{0, true, true}, {20 * time.Second, true, true}, {31 * time.Second, false, true}, {59 * time.Second, false, true}, {61 * time.Second, false, true}} {
		clock = t0.Add(at.after)
		if _, err := v.identify(context.Background(), short); (err == nil) != at.short {
			t.Errorf("at +%v the short token: %v, want taken %v", at.after, err, at.short)
		}
		if _, err := v.identify(context.Background(), long); (err == nil) != at.long {
			t.Errorf("at +%v the long token: %v, want taken %v", at.after, err, at.long)
		}
	}
	if got := v.verified.by[sha256Of(long)].until; !got.Equal(t0.Add(61*time.Second + verifiedFor)) {
		t.Errorf("the long token was checked again at +61s and is remembered until %v, want %v", got.Sub(t0), 61*time.Second+verifiedFor)
	}
	for i := range maxVerifiedTokens + 5 {
		v.verified.put([32]byte{byte(i), byte(i >> 8), byte(i >> 16)}, Identity{}, clock.Add(time.Minute))
	}
	if n := len(v.verified.by); n > maxVerifiedTokens {
		t.Errorf("%d verified tokens remembered, want at most %d", n, maxVerifiedTokens)
	}
}

func sha256Of(s string) [32]byte { return sha256.Sum256([]byte(s)) }
