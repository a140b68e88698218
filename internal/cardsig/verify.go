package cardsig

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
)

// Keys are where verification finds public keys: Set (trusted, by kid), then, when FromJKU is set,
// the JWK Set a signature's "jku" names (the caller decides which URLs it fetches).
type Keys struct {
	Set     KeySet
	FromJKU func(ctx context.Context, jku string) (KeySet, error)
}

// Result says which signature verified.
type Result struct {
	KeyID     string
	Algorithm string
	// Uncovered are members of the card the verified signature does not cover (see the package
	// documentation), by path such as "securitySchemes.bearer.scheme".
	Uncovered []string
}

// Error says why a card did not verify: it has no signature, or none of them verifies.
type Error struct {
	Unsigned bool
	Reasons  []string // one per signature
}

func (e *Error) Error() string {
	if e.Unsigned {
		return "the Agent Card is not signed"
	}
	return "no signature of the Agent Card verifies: " + strings.Join(e.Reasons, "; ")
}

// signature is one entry of the card's "signatures".
type signature struct {
	Protected string `json:"protected"`
	Signature string `json:"signature"`
}

// protectedHeader is what a2aport reads of a signature's protected header; the unprotected
// "header" is not read (nothing in it is signed).
type protectedHeader struct {
	Alg  string          `json:"alg"`
	Kid  string          `json:"kid"`
	JKU  string          `json:"jku"`
	Crit json.RawMessage `json:"crit"`
}

// Signed reports whether the card in raw carries signatures.
func Signed(raw []byte) (bool, error) {
	card, err := decodeCard(raw)
	if err != nil {
		return false, err
	}
	sigs, _ := card["signatures"].([]any)
	return len(sigs) > 0, nil
}

// Verify checks the signatures of the card in raw (its JSON as received) and returns the first
// that verifies with a key from keys.
func Verify(ctx context.Context, raw []byte, keys Keys) (Result, error) {
	card, err := decodeCard(raw)
	if err != nil {
		return Result{}, fmt.Errorf("the Agent Card is not valid JSON: %w", err)
	}
	list, _ := card["signatures"].([]any)
	if len(list) == 0 {
		return Result{}, &Error{Unsigned: true}
	}
	candidates, err := forms(card)
	if err != nil {
		return Result{}, &Error{Reasons: []string{"the card has no canonical form: " + err.Error()}}
	}
	e := &Error{}
	for i, entry := range list {
		res, err := verifyOne(ctx, entry, candidates, keys)
		if err == nil {
			return res, nil
		}
		e.Reasons = append(e.Reasons, fmt.Sprintf("signature %d: %v", i+1, err))
	}
	return Result{}, e
}

func verifyOne(ctx context.Context, entry any, candidates []form, keys Keys) (Result, error) {
	data, _ := json.Marshal(entry)
	var sig signature
	if err := json.Unmarshal(data, &sig); err != nil || sig.Protected == "" || sig.Signature == "" {
		return Result{}, fmt.Errorf("not a JWS (protected and signature are required)")
	}
	headerJSON, err := base64.RawURLEncoding.DecodeString(sig.Protected)
	var h protectedHeader
	if err != nil || json.Unmarshal(headerJSON, &h) != nil {
		return Result{}, fmt.Errorf("the protected header is not base64url JSON")
	}
	if h.Alg == "" || h.Kid == "" {
		return Result{}, fmt.Errorf("the protected header lacks alg or kid")
	}
	if h.Crit != nil { // RFC 7515 §4.1.11: extensions the verifier must understand; a2aport knows none
		return Result{}, fmt.Errorf("the protected header names critical extensions %s", h.Crit)
	}
	sigBytes, err := b64(sig.Signature)
	if err != nil {
		return Result{}, fmt.Errorf("the signature is not base64url")
	}
	key, err := findKey(ctx, h, keys)
	if err != nil {
		return Result{}, err
	}
	var mismatch error
	for _, f := range candidates {
		input := sig.Protected + "." + base64.RawURLEncoding.EncodeToString(f.payload)
		if mismatch = verifyJWS(h.Alg, key, []byte(input), sigBytes); mismatch == nil {
			return Result{KeyID: h.Kid, Algorithm: h.Alg, Uncovered: f.uncovered}, nil
		}
	}
	return Result{}, fmt.Errorf("%s with key %q: %v", h.Alg, h.Kid, mismatch)
}

// findKey returns the public key kid names: a trusted one, else one from the jku set.
func findKey(ctx context.Context, h protectedHeader, keys Keys) (any, error) {
	if found, ok := keys.Set.Find(h.Kid); ok {
		return found.Public, nil
	}
	if h.JKU == "" || keys.FromJKU == nil {
		return nil, fmt.Errorf("no trusted key %q", h.Kid)
	}
	set, err := keys.FromJKU(ctx, h.JKU)
	if err != nil {
		return nil, fmt.Errorf("key %q from jku: %v", h.Kid, err)
	}
	if found, ok := set.Find(h.Kid); ok {
		return found.Public, nil
	}
	return nil, fmt.Errorf("the jku key set has no key %q", h.Kid)
}
