package a2aclient

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"

	"github.com/a2aport/a2aport"

	"github.com/a2aport/a2aport/internal/cardsig"
)

// parseCardKeys reads Options.CardKeys: a JWK Set ({"keys": [...]}) or one JWK, public keys only.
func parseCardKeys(data []byte) (cardsig.KeySet, error) {
	if len(data) == 0 {
		return nil, nil
	}
	var probe struct {
		Keys json.RawMessage `json:"keys"`
	}
	if err := json.Unmarshal(data, &probe); err == nil && probe.Keys != nil {
		return cardsig.ParseKeySet(data)
	}
	key, err := cardsig.ParseKey(data)
	if err != nil {
		return nil, err
	}
	return cardsig.KeySet{key}, nil
}

func validateCardKeys(s *settings) error {
	keys, err := parseCardKeys(s.CardKeys)
	if err != nil {
		return newError(a2aport.CodeInvalidOptions, "CardKeys: %v", err)
	}
	for _, k := range keys {
		if k.ID == "" {
			return newError(a2aport.CodeInvalidOptions, "CardKeys: a key has no kid, and signatures name their key by kid")
		}
	}
	if s.VerifyCard != a2aport.VerifyCardOff && len(keys) == 0 && !s.CardKeysFromJKU {
		return newError(a2aport.CodeInvalidOptions, "VerifyCard %q needs CardKeys or CardKeysFromJKU", s.VerifyCard)
	}
	s.cardKeys = keys
	return nil
}

// checkSignature verifies the card in raw as VerifyCard asks; nil when it is off.
func (a *Adapter) checkSignature(ctx context.Context, raw []byte) (*a2aport.CardSignature, error) {
	if a.s.VerifyCard == a2aport.VerifyCardOff {
		return nil, nil
	}
	keys := cardsig.Keys{Set: a.s.cardKeys}
	if a.s.CardKeysFromJKU {
		keys.FromJKU = a.fetchKeySet
	}
	res, err := cardsig.Verify(ctx, raw, keys)
	var sigErr *cardsig.Error
	switch {
	case errors.As(err, &sigErr) && sigErr.Unsigned && a.s.VerifyCard == a2aport.VerifyCardIfSigned:
		return &a2aport.CardSignature{Status: "unsigned"}, nil
	case ctx.Err() != nil:
		return nil, a.ctxError(ctx)
	case err != nil:
		return nil, &a2aport.Error{Code: a2aport.CodeCardSignatureInvalid, Message: a.redact(err.Error()), Err: err}
	}
	return &a2aport.CardSignature{Status: "verified", KeyID: res.KeyID, Algorithm: res.Algorithm, Uncovered: res.Uncovered}, nil
}

// fetchKeySet GETs the JWK Set a signature's jku names, where the origin policy lets requests go.
func (a *Adapter) fetchKeySet(ctx context.Context, jku string) (cardsig.KeySet, error) {
	var set cardsig.KeySet
	if why := a.refusedInterface(jku); why != "" {
		return set, errors.New("jku " + jku + " refused: " + why)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, jku, nil)
	if err != nil {
		return set, err
	}
	req.Header.Set("Accept", "application/jwk-set+json, application/json")
	resp, err := a.http.Do(req)
	if err != nil {
		return set, err
	}
	defer func() { _ = resp.Body.Close() }() // read to its limit or abandoned; nothing to report
	body, err := io.ReadAll(io.LimitReader(resp.Body, int64(a.s.MaxCardBytes)+1))
	switch {
	case err != nil:
		return set, err
	case resp.StatusCode != http.StatusOK:
		return set, errors.New("jku " + jku + " answered " + resp.Status)
	case len(body) > a.s.MaxCardBytes:
		return set, errors.New("the key set is larger than MaxCardBytes")
	}
	return cardsig.ParseKeySet(body)
}
