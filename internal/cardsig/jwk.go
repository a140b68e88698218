package cardsig

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strings"
)

// The public keys of RFC 7517 (JWK) that sign cards: EC P-256/384/521, RSA and Ed25519. a2aport
// reads them itself rather than through a JOSE library: verifying needs a few dozen lines, and the
// library linked X.509, ASN.1 and its own JSON package into the WebAssembly module every page
// downloads.

// Key is one trusted public key.
type Key struct {
	ID     string // the JWK's "kid"
	Public any    // *ecdsa.PublicKey, *rsa.PublicKey or ed25519.PublicKey
}

// KeySet is a JWK Set, read.
type KeySet []Key

// Find returns the key with kid, if the set has it.
func (s KeySet) Find(kid string) (Key, bool) {
	for _, k := range s {
		if k.ID == kid {
			return k, true
		}
	}
	return Key{}, false
}

// jwk holds the members of a JWK that a2aport reads; private members are only looked for.
type jwk struct {
	Kty string `json:"kty"`
	Kid string `json:"kid"`
	Crv string `json:"crv"`
	X   string `json:"x"`
	Y   string `json:"y"`
	N   string `json:"n"`
	E   string `json:"e"`
	D   string `json:"d"`
	K   string `json:"k"`
}

// ParseKeySet reads a JWK Set ({"keys": [...]}). Every key must be a public key of a kind
// ParseKey reads: a set with a private or symmetric key among its keys is refused whole.
func ParseKeySet(data []byte) (KeySet, error) {
	var set struct {
		Keys []json.RawMessage `json:"keys"`
	}
	if err := json.Unmarshal(data, &set); err != nil {
		return nil, fmt.Errorf("not a JWK Set: %w", err)
	}
	if set.Keys == nil {
		return nil, errors.New(`not a JWK Set: no "keys"`)
	}
	out := make(KeySet, 0, len(set.Keys))
	for _, raw := range set.Keys {
		k, err := ParseKey(raw)
		if err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	return out, nil
}

// ParseKey reads one JWK. A private or symmetric key is refused: a key that can sign is no key
// to trust a card with.
func ParseKey(data []byte) (Key, error) {
	var j jwk
	if err := json.Unmarshal(data, &j); err != nil {
		return Key{}, fmt.Errorf("not a JWK: %w", err)
	}
	if j.D != "" || j.K != "" || j.Kty == "oct" {
		return Key{}, fmt.Errorf("key %q is not a public key", j.Kid)
	}
	var pub any
	var err error
	switch j.Kty {
	case "EC":
		pub, err = ecKey(j)
	case "RSA":
		pub, err = rsaKey(j)
	case "OKP":
		pub, err = okpKey(j)
	default:
		err = fmt.Errorf("kty %q is not a signing key a2aport reads", j.Kty)
	}
	if err != nil {
		return Key{}, fmt.Errorf("key %q: %w", j.Kid, err)
	}
	return Key{ID: j.Kid, Public: pub}, nil
}

func ecKey(j jwk) (*ecdsa.PublicKey, error) {
	var curve elliptic.Curve
	switch j.Crv {
	case "P-256":
		curve = elliptic.P256()
	case "P-384":
		curve = elliptic.P384()
	case "P-521":
		curve = elliptic.P521()
	default:
		return nil, fmt.Errorf("EC curve %q is not P-256, P-384 or P-521", j.Crv)
	}
	size := (curve.Params().BitSize + 7) / 8
	x, errX := fixed(j.X, size)
	y, errY := fixed(j.Y, size)
	if errX != nil || errY != nil {
		return nil, fmt.Errorf("x and y must be base64url of %d bytes each", size)
	}
	point := append(append([]byte{4}, x...), y...)
	pub, err := ecdsa.ParseUncompressedPublicKey(curve, point)
	if err != nil {
		return nil, errors.New("the point is not on the curve")
	}
	return pub, nil
}

func rsaKey(j jwk) (*rsa.PublicKey, error) {
	n, errN := b64(j.N)
	e, errE := b64(j.E)
	if errN != nil || errE != nil || len(n) == 0 || len(e) == 0 || len(e) > 4 {
		return nil, errors.New("n and e must be base64url big-endian integers, e at most 4 bytes")
	}
	exp := 0
	for _, b := range e {
		exp = exp<<8 | int(b)
	}
	if exp < 3 || exp%2 == 0 {
		return nil, errors.New("the exponent must be odd and at least 3")
	}
	return &rsa.PublicKey{N: new(big.Int).SetBytes(n), E: exp}, nil
}

func okpKey(j jwk) (ed25519.PublicKey, error) {
	if j.Crv != "Ed25519" {
		return nil, fmt.Errorf("OKP curve %q is not Ed25519", j.Crv)
	}
	x, err := fixed(j.X, ed25519.PublicKeySize)
	if err != nil {
		return nil, fmt.Errorf("x must be base64url of %d bytes", ed25519.PublicKeySize)
	}
	return ed25519.PublicKey(x), nil
}

// b64 decodes base64url, with or without padding (RFC 7515 writes none; some encoders add it).
func b64(s string) ([]byte, error) {
	return base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
}

// fixed decodes base64url of exactly size bytes.
func fixed(s string, size int) ([]byte, error) {
	b, err := b64(s)
	if err == nil && len(b) != size {
		err = fmt.Errorf("%d bytes, want %d", len(b), size)
	}
	return b, err
}
