package cardsig

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	_ "crypto/sha256" // the hashes of the algorithms below
	_ "crypto/sha512"
	"errors"
	"fmt"
	"math/big"
)

// Algorithms are the JWS algorithms (RFC 7518 §3) a card signature may use: asymmetric ones only
// (a shared secret would let anyone who can verify also sign).
var Algorithms = []string{"ES256", "ES384", "ES512", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "EdDSA"}

// hashOf is the hash an algorithm's name ends with.
func hashOf(alg string) crypto.Hash {
	switch alg[len(alg)-3:] {
	case "256":
		return crypto.SHA256
	case "384":
		return crypto.SHA384
	}
	return crypto.SHA512
}

// verifyJWS checks sig over input (the JWS Signing Input: protected header "." payload, both
// base64url) with key under alg, and that the key is of alg's kind: an ES256 signature verifies
// only with a P-256 key, an RS256 one only with an RSA key.
func verifyJWS(alg string, key any, input, sig []byte) error {
	switch alg {
	case "ES256", "ES384", "ES512":
		pub, ok := key.(*ecdsa.PublicKey)
		want := map[string]elliptic.Curve{"ES256": elliptic.P256(), "ES384": elliptic.P384(), "ES512": elliptic.P521()}[alg]
		if !ok || pub.Curve != want {
			return fmt.Errorf("%s needs an EC %s key", alg, want.Params().Name)
		}
		size := (want.Params().BitSize + 7) / 8
		if len(sig) != 2*size { // R and S, each of the curve's size (RFC 7518 §3.4)
			return errors.New("the signature does not match the card")
		}
		r, s := new(big.Int).SetBytes(sig[:size]), new(big.Int).SetBytes(sig[size:])
		if !ecdsa.Verify(pub, digest(alg, input), r, s) {
			return errors.New("the signature does not match the card")
		}
		return nil
	case "RS256", "RS384", "RS512", "PS256", "PS384", "PS512":
		pub, ok := key.(*rsa.PublicKey)
		if !ok {
			return fmt.Errorf("%s needs an RSA key", alg)
		}
		var err error
		if alg[0] == 'R' {
			err = rsa.VerifyPKCS1v15(pub, hashOf(alg), digest(alg, input), sig)
		} else { // the salt is as long as the hash (RFC 7518 §3.5)
			err = rsa.VerifyPSS(pub, hashOf(alg), digest(alg, input), sig, &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthEqualsHash})
		}
		if err != nil {
			return errors.New("the signature does not match the card")
		}
		return nil
	case "EdDSA":
		pub, ok := key.(ed25519.PublicKey)
		if !ok {
			return errors.New("EdDSA needs an Ed25519 key")
		}
		if !ed25519.Verify(pub, input, sig) {
			return errors.New("the signature does not match the card")
		}
		return nil
	}
	return fmt.Errorf("alg %q is not one of %v", alg, Algorithms)
}

func digest(alg string, input []byte) []byte {
	h := hashOf(alg).New()
	h.Write(input)
	return h.Sum(nil)
}
