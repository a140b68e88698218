package cardsig

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	jose "github.com/go-jose/go-jose/v4"
)

// signingKeys are one private key per algorithm, of the kind the algorithm needs.
func signingKeys(t *testing.T) map[string]any {
	t.Helper()
	ec := func(c elliptic.Curve) *ecdsa.PrivateKey {
		k, err := ecdsa.GenerateKey(c, rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	_, edKey, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]any{"ES256": ec(elliptic.P256()), "ES384": ec(elliptic.P384()), "ES512": ec(elliptic.P521()), "EdDSA": edKey}
	for _, alg := range []string{"RS256", "RS384", "RS512", "PS256", "PS384", "PS512"} {
		keys[alg] = rsaKey
	}
	return keys
}

// publicJWK is go-jose's JWK of the public half of private.
func publicJWK(t *testing.T, private any, kid string) []byte {
	t.Helper()
	var pub any
	switch k := private.(type) {
	case *ecdsa.PrivateKey:
		pub = &k.PublicKey
	case *rsa.PrivateKey:
		pub = &k.PublicKey
	case ed25519.PrivateKey:
		pub = k.Public()
	}
	data, err := json.Marshal(jose.JSONWebKey{Key: pub, KeyID: kid})
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// Signatures made by go-jose, an independent JOSE implementation, verify for every algorithm with
// the public key read from go-jose's own JWK; the same signature over other bytes, with a key of
// another algorithm, or under another algorithm's name does not.
func TestVerifyAgainstGoJose(t *testing.T) {
	t.Parallel()
	keys := signingKeys(t)
	for _, alg := range Algorithms {
		signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.SignatureAlgorithm(alg), Key: keys[alg]}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, size := range []int{0, 1, 1000} {
			payload := []byte(strings.Repeat("card ", size))
			signed, err := signer.Sign(payload)
			if err != nil {
				t.Fatal(err)
			}
			compact, err := signed.CompactSerialize()
			if err != nil {
				t.Fatal(err)
			}
			parts := strings.Split(compact, ".")
			input, sig := []byte(parts[0]+"."+parts[1]), must(b64(parts[2]))
			key, err := ParseKey(publicJWK(t, keys[alg], "k"))
			if err != nil {
				t.Fatalf("%s: ParseKey(go-jose's JWK) = %v", alg, err)
			}
			if err := verifyJWS(alg, key.Public, input, sig); err != nil {
				t.Errorf("%s over %d bytes: %v", alg, len(payload), err)
			}
			if err := verifyJWS(alg, key.Public, append(input, 'x'), sig); err == nil {
				t.Errorf("%s: a signature verified over other bytes", alg)
			}
			for other, otherKey := range keys {
				if fmt.Sprintf("%T", otherKey) == fmt.Sprintf("%T", keys[alg]) && other[:2] != "ES" {
					continue // RSA algorithms share one key
				}
				wrong, _ := ParseKey(publicJWK(t, otherKey, "w"))
				if other != alg && verifyJWS(alg, wrong.Public, input, sig) == nil {
					t.Errorf("%s verified with the %s key", alg, other)
				}
				if other != alg && verifyJWS(other, key.Public, input, sig) == nil {
					t.Errorf("an %s signature verified as %s", alg, other)
				}
			}
		}
	}
}

// Keys that are not what their members say are refused with the reason.
func TestParseKeyRefuses(t *testing.T) {
	t.Parallel()
	for jwk, want := range map[string]string{
		`{"kty":"EC","crv":"P-256","x":"AAAA","y":"AAAA"}`: "32 bytes",
		`{"kty":"EC","crv":"P-256","x":"oXZGyVu-qF2pzx1IgLQa7cX_CoiH0-dr6WNe3zEbbOI","y":"oXZGyVu-qF2pzx1IgLQa7cX_CoiH0-dr6WNe3zEbbOI"}`: "not on the curve",
		`{"kty":"EC","crv":"secp256k1","x":"AA","y":"AA"}`: "not P-256",
		`{"kty":"RSA","n":"AQAB","e":"AAAAAAE"}`:           "at most 4 bytes",
		`{"kty":"RSA","n":"AQAB","e":"Ag"}`:                "odd",
		`{"kty":"OKP","crv":"X25519","x":"AA"}`:            "not Ed25519",
		`{"kty":"OKP","crv":"Ed25519","x":"AA"}`:           "32 bytes",
		`{"kty":"XYZ"}`:                                    "not a signing key",
		`[1]`:                                              "not a JWK",
	} {
		if _, err := ParseKey([]byte(jwk)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseKey(%s) = %v, want %q", jwk, err, want)
		}
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
