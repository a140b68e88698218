package gateway

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"math/big"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// BenchmarkIdentify is what naming a caller costs per request: a static bearer token (the
// baseline: constant-time compares) against a JWT whose ES256 or RS256 signature is checked (its
// key already read), and one the gateway verified lately (remembered). The ratio printed is to
// the static token of the same run.
func BenchmarkIdentify(b *testing.B) {
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		b.Fatal(err)
	}
	rk, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		b.Fatal(err)
	}
	b64 := base64.RawURLEncoding.EncodeToString
	point, err := ec.PublicKey.Bytes()
	if err != nil {
		b.Fatal(err)
	}
	set, _ := json.Marshal(map[string]any{"keys": []map[string]string{
		{"kty": "EC", "crv": "P-256", "kid": "ec", "alg": "ES256", "x": b64(point[1:33]), "y": b64(point[33:])},
		{"kty": "RSA", "kid": "rsa", "alg": "RS256", "n": b64(rk.N.Bytes()), "e": b64(big.NewInt(int64(rk.E)).Bytes())},
	}})
	jwks := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(set) }))
	defer jwks.Close()
	cfg := JWTConfig{JWKSURL: jwks.URL, Audiences: []string{"gateway"}}
	if err := cfg.check(func(field, msg string) error { b.Fatal(field, msg); return nil }); err != nil {
		b.Fatal(err)
	}
	v, err := newJWTVerifier(context.Background(), cfg, http.DefaultClient)
	if err != nil {
		b.Fatal(err)
	}
	defer v.stop()
	sign := func(method jwt.SigningMethod, kid string, key any) string {
		t := jwt.NewWithClaims(method, jwt.MapClaims{"sub": "alice", "aud": "gateway", "exp": time.Now().Add(time.Hour).Unix()})
		t.Header["kid"] = kid
		s, err := t.SignedString(key)
		if err != nil {
			b.Fatal(err)
		}
		return s
	}
	tokens := []BearerToken{{Name: "ci", Token: "a-static-token-of-some-length-0001"}, {Name: "ops", Token: "a-static-token-of-some-length-0002"}}
	callers := newCallers(tokens, v, false)
	var baseline float64
	es, rs := sign(jwt.SigningMethodES256, "ec", ec), sign(jwt.SigningMethodRS256, "rsa", rk)
	for _, c := range []struct {
		name, token string
		forget      bool
	}{
		{"static token", tokens[1].Token, false},
		{"JWT ES256 checked", es, true}, {"JWT RS256 checked", rs, true},
		{"JWT ES256 remembered", es, false}, {"JWT RS256 remembered", rs, false},
	} {
		req := httptest.NewRequest(http.MethodPost, "/a2a", nil)
		req.Header.Set("Authorization", "Bearer "+c.token)
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if c.forget {
					v.verified.by = nil
				}
				if _, err := callers.identify(req); err != nil {
					b.Fatal(err)
				}
			}
			ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
			if c.name == "static token" {
				baseline = ns
			} else if baseline > 0 {
				b.ReportMetric(ns/baseline, "x-static")
			}
		})
	}
}
