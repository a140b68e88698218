package cardsig

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func corpus(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "internal", "a2aclient", "testdata", "cards", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func trustedKeys(t *testing.T) Keys {
	t.Helper()
	set, err := ParseKeySet(corpus(t, "signing-keys.jwks.json"))
	if err != nil {
		t.Fatal(err)
	}
	return Keys{Set: set}
}

// Cards signed by @a2a-js/sdk 1.3.0's own signing code (js/test/cards/generate.mjs) verify; the
// same cards changed in any member fail.
func TestSDKSignedCards(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		file, kid, alg string
		uncovered      bool // the SDK's signer left out members given in ts-proto form
	}{
		{"signed-a2a-js-1.3.0-served-es256.json", "es-key", "ES256", true},
		{"signed-a2a-js-1.3.0-tojson-rs256.json", "rs-key", "RS256", false},
		{"signed-a2a-js-1.3.0-tojson-two.json", "ed-key", "EdDSA", false},
	} {
		raw := corpus(t, tc.file)
		res, err := Verify(context.Background(), raw, trustedKeys(t))
		if err != nil || res.KeyID != tc.kid || res.Algorithm != tc.alg || (len(res.Uncovered) > 0) != tc.uncovered {
			t.Errorf("%s: Verify() = %+v, %v; want %s (%s)", tc.file, res, err, tc.kid, tc.alg)
		}
		if tc.uncovered && !slices.Contains(res.Uncovered, "securitySchemes.bearer.scheme") {
			t.Errorf("%s: Uncovered = %v, want the ts-proto security schemes named", tc.file, res.Uncovered)
		}
		for _, tamper := range [][2]string{
			{`"name": "full card"`, `"name": "fuII card"`},
			{`"tenant": "acme"`, `"tenant": "evil"`},
			{`"streaming": true`, `"streaming": false`},
			{`"level": 2`, `"level": 3`},
			{`"https://docs.example"`, `"https://docs.example.evil"`},
		} {
			changed := strings.Replace(string(raw), tamper[0], tamper[1], 1)
			if changed == string(raw) {
				t.Fatalf("%s: %s not found", tc.file, tamper[0])
			}
			var e *Error
			if _, err := Verify(context.Background(), []byte(changed), trustedKeys(t)); !errors.As(err, &e) || e.Unsigned {
				t.Errorf("%s with %s: Verify() = %v, want no signature to verify", tc.file, tamper[1], err)
			}
		}
	}
}

func TestUnsignedAndUnverifiable(t *testing.T) {
	t.Parallel()
	var e *Error
	var card map[string]any
	if err := json.Unmarshal(corpus(t, "a2a-go-v2.4.0.json"), &card); err != nil {
		t.Fatal(err)
	}
	delete(card, "signatures")
	unsigned, _ := json.Marshal(card)
	if _, err := Verify(context.Background(), unsigned, trustedKeys(t)); !errors.As(err, &e) || !e.Unsigned {
		t.Errorf("an unsigned card: %v", err)
	}
	// The corpus card carries a made-up signature with no kid.
	if _, err := Verify(context.Background(), corpus(t, "a2a-js-1.3.0-tojson.json"), trustedKeys(t)); !errors.As(err, &e) || e.Unsigned ||
		!strings.Contains(err.Error(), "lacks alg or kid") {
		t.Errorf("a made-up signature: %v", err)
	}
	// No trusted key and no jku: nothing verifies.
	if _, err := Verify(context.Background(), corpus(t, "signed-a2a-js-1.3.0-tojson-rs256.json"), Keys{}); err == nil ||
		!strings.Contains(err.Error(), `no trusted key "rs-key"`) {
		t.Errorf("without keys: %v", err)
	}
}

// A key set with a private or symmetric key is refused: a key that can sign cannot vouch for a card.
func TestPrivateKeysAreRefused(t *testing.T) {
	t.Parallel()
	for name, set := range map[string]string{
		"symmetric":   `{"keys":[{"kty":"oct","kid":"k","k":"c2VjcmV0"}]}`,
		"private EC":  `{"keys":[{"kty":"EC","kid":"k","crv":"P-256","x":"oXZGyVu-qF2pzx1IgLQa7cX_CoiH0-dr6WNe3zEbbOI","y":"2Nnh8PV3szGvIoBUU8uEzWw6huETXOzfqUhWuFojDWQ","d":"AAAA"}]}`,
		"private OKP": `{"keys":[{"kty":"OKP","kid":"k","crv":"Ed25519","x":"JQ9WtYyv7V6RtIllioUnPgsXxo3sNGzRVAXDOVJ-lzM","d":"AAAA"}]}`,
	} {
		if _, err := ParseKeySet([]byte(set)); err == nil || !strings.Contains(err.Error(), "not a public key") {
			t.Errorf("%s: ParseKeySet() = %v, want not a public key", name, err)
		}
	}
}

// The jku of the protected header is fetched through the caller's function.
func TestKeysFromJKU(t *testing.T) {
	t.Parallel()
	trusted := trustedKeys(t).Set
	var asked string
	keys := Keys{FromJKU: func(_ context.Context, jku string) (KeySet, error) { asked = jku; return trusted, nil }}
	if _, err := Verify(context.Background(), corpus(t, "signed-a2a-js-1.3.0-tojson-rs256.json"), keys); err == nil || asked != "" {
		t.Errorf("a signature without jku: Verify() = %v, asked %q; want no fetch and no key", err, asked)
	}
	res, err := Verify(context.Background(), corpus(t, "signed-a2a-js-1.3.0-tojson-jku.json"), keys)
	if err != nil || res.KeyID != "es-key" || asked != "https://keys.example/jwks.json" {
		t.Errorf("Verify() = %+v, %v, asked %q; want the key from the jku", res, err, asked)
	}
}
