package gateway

import (
	"errors"
	"net/url"

	"github.com/a2aport/a2aport/facade"
	"github.com/a2aport/a2aport/internal/cardsig"
)

// The gateway's card signing key (signing:). The gateway rewrites its card (its own URL, its
// backends' skills), so no backend's signature survives it: with a key, the gateway signs the
// card it serves (facade.CardSigning) and a caller that verifies it knows the card is the
// operator's. It vouches for the gateway's card, not for the backends behind it.

// SigningConfig is the key the gateway signs its card with; without Key the card is not signed.
type SigningConfig struct {
	// Key is the PEM private key (PKCS #8, SEC 1 or PKCS #1, not encrypted; EC P-256/384/521,
	// Ed25519 or RSA of 2048 bits or more), normally "${file:/run/secrets/card-key.pem}".
	Key string `yaml:"key"`
	// KeyID is the signatures' kid (default: the key's RFC 7638 thumbprint).
	KeyID string `yaml:"keyId"`
	// Algorithm is the JWS algorithm (default: ES256/ES384/ES512 by the curve, EdDSA, RS256;
	// PS256 and the other RSA ones when asked).
	Algorithm string `yaml:"algorithm"`
	// JKU is where verifiers find the public key, a JWK Set (default: the gateway publishes it at
	// publicURL + /.well-known/a2aport-card-keys.json).
	JKU string `yaml:"jku"`
}

// check validates the signing block. Its messages never hold the key (nor a piece of it).
func (s *SigningConfig) check(fail func(field, msg string) error) error {
	if s.Key == "" {
		if s.KeyID != "" || s.Algorithm != "" || s.JKU != "" {
			return fail("signing.key", "keyId, algorithm and jku need a key")
		}
		return nil
	}
	key, err := cardsig.ParsePrivateKey([]byte(s.Key))
	if err != nil {
		return fail("signing.key", err.Error()) // ParsePrivateKey never quotes the text
	}
	if s.JKU != "" {
		if u, err := url.Parse(s.JKU); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil {
			return fail("signing.jku", "must be an absolute http(s) URL without user info")
		}
	}
	// The same checks New makes of the key with the algorithm; a jku stands in when it is the default.
	if _, err := cardsig.NewSigner(key, s.Algorithm, s.KeyID, "https://gateway.invalid/keys.json"); err != nil {
		field := "signing.key"
		if s.Algorithm != "" {
			field = "signing.algorithm"
		}
		return fail(field, err.Error())
	}
	return nil
}

// cardSigning is the facade's option the block describes (nil without a key).
func (s *SigningConfig) cardSigning() (*facade.CardSigning, error) {
	if s.Key == "" {
		return nil, nil
	}
	key, err := facade.ParseCardKey([]byte(s.Key))
	if err != nil {
		return nil, errors.New("signing.key: " + err.Error())
	}
	return &facade.CardSigning{Key: key, KeyID: s.KeyID, Algorithm: s.Algorithm, JKU: s.JKU}, nil
}
