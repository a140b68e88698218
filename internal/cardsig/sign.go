package cardsig

// Signing, for a server that vouches for the card it serves: the facade, and so the gateway, whose
// card (its own URL, its backends' skills) no backend's signature survives. The WebAssembly module
// only verifies: nothing it runs calls into this file or protoform.go, so the linker leaves them
// out, and neither declares a package-level variable, which would be kept for its initializer.

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/asn1"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net/url"
	"slices"
)

// MinRSABits is the smallest RSA key a Signer takes (NIST SP 800-131A: 2048 bits since 2014).
const MinRSABits = 2048

// ParsePrivateKey reads the first private key of a PEM text: PKCS #8 ("PRIVATE KEY"), SEC 1 ("EC
// PRIVATE KEY") or PKCS #1 ("RSA PRIVATE KEY"); other blocks (openssl's "EC PARAMETERS", a
// certificate) are passed over. An encrypted key is refused (decrypt it into the secret store
// instead). The key is an *ecdsa.PrivateKey, an *rsa.PrivateKey or an ed25519.PrivateKey. No
// error quotes the text, which is a secret.
func ParsePrivateKey(pemText []byte) (crypto.Signer, error) {
	rest := pemText
	for {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			return nil, errors.New("no PEM private key (PRIVATE KEY, EC PRIVATE KEY or RSA PRIVATE KEY) in the text")
		}
		if _, encrypted := block.Headers["DEK-Info"]; encrypted || block.Type == "ENCRYPTED PRIVATE KEY" {
			return nil, fmt.Errorf("the %s is encrypted: give it decrypted (from a secret store)", block.Type)
		}
		var key any
		var err error
		switch block.Type {
		case "PRIVATE KEY":
			key, err = x509.ParsePKCS8PrivateKey(block.Bytes)
		case "EC PRIVATE KEY":
			key, err = x509.ParseECPrivateKey(block.Bytes)
		case "RSA PRIVATE KEY":
			key, err = x509.ParsePKCS1PrivateKey(block.Bytes)
		default:
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("the %s block is not a key x509 reads", block.Type) // x509's error may quote bytes
		}
		switch k := key.(type) {
		case *ecdsa.PrivateKey, *rsa.PrivateKey:
			return k.(crypto.Signer), nil
		case ed25519.PrivateKey:
			return k, nil
		}
		return nil, fmt.Errorf("a %T cannot sign a card: use EC P-256, P-384 or P-521, Ed25519 or RSA", key)
	}
}

// DefaultAlgorithm is the JWS algorithm a key signs with when none is asked for: ES256, ES384 or
// ES512 by the EC curve, EdDSA for Ed25519, RS256 for RSA (the most widely verified; PS256 when
// asked).
func DefaultAlgorithm(pub crypto.PublicKey) (string, error) {
	switch k := pub.(type) {
	case *ecdsa.PublicKey:
		switch k.Curve {
		case elliptic.P256():
			return "ES256", nil
		case elliptic.P384():
			return "ES384", nil
		case elliptic.P521():
			return "ES512", nil
		}
		return "", fmt.Errorf("EC curve %s is not P-256, P-384 or P-521", k.Curve.Params().Name)
	case ed25519.PublicKey:
		return "EdDSA", nil
	case *rsa.PublicKey:
		return "RS256", nil
	}
	return "", fmt.Errorf("a %T key cannot sign a card: use EC P-256, P-384 or P-521, Ed25519 or RSA", pub)
}

// Signer signs Agent Cards with one private key, under one algorithm and key id.
type Signer struct {
	key       crypto.Signer
	alg, kid  string
	jku       string
	protected string // the protected header, base64url
	jwk       publishedKey
}

// NewSigner makes a Signer of key. alg "" is the key's DefaultAlgorithm; kid "" is the key's
// RFC 7638 thumbprint (SHA-256, base64url), which changes with the key; jku, when set, is the
// absolute URL of a JWK Set holding the public key, named in every signature so that a verifier
// may fetch it. The key signs once here, and the signature is checked with its public key: a
// crypto.Signer (a KMS key) whose Public is not its own is refused before any card is signed.
func NewSigner(key crypto.Signer, alg, kid, jku string) (*Signer, error) {
	if key == nil {
		return nil, errors.New("no key")
	}
	pub := key.Public()
	if alg == "" {
		var err error
		if alg, err = DefaultAlgorithm(pub); err != nil {
			return nil, err
		}
	}
	if err := keyFits(alg, pub); err != nil {
		return nil, err
	}
	jwk, err := newPublishedKey(pub)
	if err != nil {
		return nil, err
	}
	if kid == "" {
		kid = jwk.thumbprint()
	}
	if jku != "" {
		if u, err := url.Parse(jku); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil {
			return nil, errors.New("jku must be an absolute http(s) URL")
		}
	}
	jwk.Kid, jwk.Alg, jwk.Use = kid, alg, "sig"
	// typ: @a2a-js/sdk's verifier refuses a signature whose header lacks it.
	header, err := json.Marshal(struct {
		Alg string `json:"alg"`
		JKU string `json:"jku,omitempty"`
		Kid string `json:"kid"`
		Typ string `json:"typ"`
	}{alg, jku, kid, "JOSE"})
	if err != nil {
		return nil, err
	}
	s := &Signer{key: key, alg: alg, kid: kid, jku: jku, protected: base64.RawURLEncoding.EncodeToString(header), jwk: jwk}
	probe := []byte(s.protected + ".cHJvYmU")
	sig, err := s.signInput(probe)
	if err != nil {
		return nil, fmt.Errorf("the key cannot sign %s: %v", alg, err)
	}
	if verifyJWS(alg, pub, probe, sig) != nil {
		return nil, fmt.Errorf("the key's %s signature does not verify with its public key", alg)
	}
	return s, nil
}

// keyFits says why pub cannot sign under alg, if it cannot.
func keyFits(alg string, pub crypto.PublicKey) error {
	if !slices.Contains(Algorithms, alg) {
		return fmt.Errorf("algorithm %q is not one of %v", alg, Algorithms)
	}
	switch k := pub.(type) {
	case *ecdsa.PublicKey:
		if own, err := DefaultAlgorithm(k); err != nil || own != alg {
			return fmt.Errorf("%s cannot sign with an EC %s key", alg, k.Curve.Params().Name)
		}
	case *rsa.PublicKey:
		if alg[0] != 'R' && alg[0] != 'P' {
			return fmt.Errorf("%s cannot sign with an RSA key", alg)
		}
		if k.N.BitLen() < MinRSABits {
			return fmt.Errorf("the RSA key has %d bits, fewer than %d", k.N.BitLen(), MinRSABits)
		}
	case ed25519.PublicKey:
		if alg != "EdDSA" {
			return fmt.Errorf("%s cannot sign with an Ed25519 key", alg)
		}
	default:
		return fmt.Errorf("a %T key cannot sign a card: use EC P-256, P-384 or P-521, Ed25519 or RSA", pub)
	}
	return nil
}

// KeyID is the kid the signatures name.
func (s *Signer) KeyID() string { return s.kid }

// Algorithm is the JWS algorithm the signatures use.
func (s *Signer) Algorithm() string { return s.alg }

// KeySet is the JWK Set ({"keys": [...]}) of the signer's public key, with its kid, alg and use
// "sig": what to publish at the jku, or to give verifiers (a2aport's CardKeys).
func (s *Signer) KeySet() []byte {
	data, _ := json.MarshalIndent(struct {
		Keys []publishedKey `json:"keys"`
	}{[]publishedKey{s.jwk}}, "", "  ") // strings only: it cannot fail
	return append(data, '\n')
}

// JWS is one entry of a card's "signatures": a JWS in the flattened JSON form, its payload detached.
type JWS struct {
	Protected string `json:"protected"`
	Signature string `json:"signature"`
}

// Sign returns card (an Agent Card's JSON object) with its "signatures" member replaced by
// Signatures(card). The other members are written as they were, in key order, indented.
func (s *Signer) Sign(card []byte) ([]byte, error) {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(card, &members); err != nil || members == nil {
		return nil, errors.New("the card is not a JSON object")
	}
	delete(members, "signatures")
	unsigned, err := json.Marshal(members)
	if err != nil {
		return nil, err
	}
	sigs, err := s.Signatures(unsigned) // over the bytes served, less "signatures"
	if err != nil {
		return nil, err
	}
	if members["signatures"], err = json.Marshal(sigs); err != nil {
		return nil, err
	}
	return json.MarshalIndent(members, "", "  ")
}

// Signatures are the signer's signatures of card, an Agent Card's JSON object as it will be
// served, whatever its "signatures" (A2A 1.0 §8.4: each a JWS whose detached payload is the
// RFC 8785 canonical JSON of the card without "signatures").
//
// The first covers the card as written, every member: what this package verifies, as the
// specification reads it. A card with members outside A2A 1.0's proto schema (the 0.3/1.0 union
// the facade serves: url, preferredTransport, 0.3's security scheme members...) or written
// otherwise than proto JSON writes it gets a second one, over the card as @a2a-js/sdk 1.3.0
// canonicalizes it (protoForm): that SDK reads the card into its proto type first, and no
// signature over the members it drops verifies there. The second vouches for the card's A2A 1.0
// members alone; this package's verifier never accepts it for the card as served.
func (s *Signer) Signatures(card []byte) ([]JWS, error) {
	decoded, err := decodeCard(card) // as a verifier reads it
	if err != nil {
		return nil, fmt.Errorf("the card is not a JSON object: %w", err)
	}
	delete(decoded, "signatures")
	whole, err := canonical(decoded)
	if err != nil {
		return nil, fmt.Errorf("the card has no canonical form: %w", err)
	}
	payloads := [][]byte{whole}
	// A card @a2a-js/sdk cannot read (protoForm's error) gets no signature for it.
	if proto, err := protoForm(decoded); err == nil && !bytes.Equal(proto, whole) {
		payloads = append(payloads, proto)
	}
	var sigs []JWS
	for _, p := range payloads {
		sig, err := s.signInput([]byte(s.protected + "." + base64.RawURLEncoding.EncodeToString(p)))
		if err != nil {
			return nil, err
		}
		sigs = append(sigs, JWS{Protected: s.protected, Signature: base64.RawURLEncoding.EncodeToString(sig)})
	}
	return sigs, nil
}

// Token is a JWT of claims (a JSON object) in JWS compact form, signed by the signer's key, its
// protected header naming alg, kid, jku (when the signer has one) and typ JWT: what a server
// signs its push notifications with, for a receiver that verifies them with the published key.
func (s *Signer) Token(claims []byte) (string, error) {
	header, err := json.Marshal(struct {
		Alg string `json:"alg"`
		JKU string `json:"jku,omitempty"`
		Kid string `json:"kid"`
		Typ string `json:"typ"`
	}{s.alg, s.jku, s.kid, "JWT"})
	if err != nil {
		return "", err
	}
	input := base64.RawURLEncoding.EncodeToString(header) + "." + base64.RawURLEncoding.EncodeToString(claims)
	sig, err := s.signInput([]byte(input))
	if err != nil {
		return "", err
	}
	return input + "." + base64.RawURLEncoding.EncodeToString(sig), nil
}

// signInput signs a JWS Signing Input; the signature is in JWS's form (RFC 7518 §3).
func (s *Signer) signInput(input []byte) ([]byte, error) {
	switch s.alg {
	case "EdDSA":
		return s.key.Sign(rand.Reader, input, crypto.Hash(0))
	case "PS256", "PS384", "PS512":
		return s.key.Sign(rand.Reader, digest(s.alg, input), &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthEqualsHash, Hash: hashOf(s.alg)})
	case "RS256", "RS384", "RS512":
		return s.key.Sign(rand.Reader, digest(s.alg, input), hashOf(s.alg))
	}
	// ES256/384/512: crypto.Signer gives ASN.1 DER; JWS wants R and S, each of the curve's size.
	der, err := s.key.Sign(rand.Reader, digest(s.alg, input), hashOf(s.alg))
	if err != nil {
		return nil, err
	}
	var rs struct{ R, S *big.Int }
	if rest, err := asn1.Unmarshal(der, &rs); err != nil || len(rest) > 0 {
		return nil, errors.New("the key's ECDSA signature is not ASN.1 (R, S)")
	}
	pub, ok := s.key.Public().(*ecdsa.PublicKey)
	if !ok {
		return nil, fmt.Errorf("%s needs an EC key", s.alg)
	}
	size := (pub.Curve.Params().BitSize + 7) / 8
	if rs.R.Sign() < 0 || rs.S.Sign() < 0 || rs.R.BitLen() > 8*size || rs.S.BitLen() > 8*size {
		return nil, errors.New("the key's ECDSA signature does not fit its curve")
	}
	out := make([]byte, 2*size)
	rs.R.FillBytes(out[:size])
	rs.S.FillBytes(out[size:])
	return out, nil
}

// publishedKey is a public key as RFC 7517 writes it (RFC 7518 §6 for EC and RSA, RFC 8037 for
// Ed25519).
type publishedKey struct {
	Kty string `json:"kty"`
	Use string `json:"use,omitempty"`
	Alg string `json:"alg,omitempty"`
	Kid string `json:"kid,omitempty"`
	Crv string `json:"crv,omitempty"`
	X   string `json:"x,omitempty"`
	Y   string `json:"y,omitempty"`
	N   string `json:"n,omitempty"`
	E   string `json:"e,omitempty"`
}

func newPublishedKey(pub crypto.PublicKey) (publishedKey, error) {
	b64 := base64.RawURLEncoding.EncodeToString
	switch k := pub.(type) {
	case *ecdsa.PublicKey:
		if _, err := DefaultAlgorithm(k); err != nil {
			return publishedKey{}, err
		}
		point, err := k.Bytes() // 0x04 || X || Y, each of the curve's size
		if err != nil {
			return publishedKey{}, err
		}
		size := (len(point) - 1) / 2
		return publishedKey{Kty: "EC", Crv: k.Curve.Params().Name, X: b64(point[1 : 1+size]), Y: b64(point[1+size:])}, nil
	case *rsa.PublicKey:
		return publishedKey{Kty: "RSA", N: b64(k.N.Bytes()), E: b64(big.NewInt(int64(k.E)).Bytes())}, nil
	case ed25519.PublicKey:
		return publishedKey{Kty: "OKP", Crv: "Ed25519", X: b64(k)}, nil
	}
	return publishedKey{}, fmt.Errorf("a %T key cannot sign a card: use EC P-256, P-384 or P-521, Ed25519 or RSA", pub)
}

// thumbprint is the key's RFC 7638 thumbprint: SHA-256 of its required members, in lexical order.
func (j publishedKey) thumbprint() string {
	var members string
	switch j.Kty {
	case "EC":
		members = fmt.Sprintf(`{"crv":%q,"kty":"EC","x":%q,"y":%q}`, j.Crv, j.X, j.Y)
	case "RSA":
		members = fmt.Sprintf(`{"e":%q,"kty":"RSA","n":%q}`, j.E, j.N)
	default:
		members = fmt.Sprintf(`{"crv":%q,"kty":"OKP","x":%q}`, j.Crv, j.X)
	}
	sum := sha256.Sum256([]byte(members))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}
