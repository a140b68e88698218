package cardsig

import (
	"context"
	"crypto"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"io"
	"strings"
	"testing"

	jose "github.com/go-jose/go-jose/v4"
)

// Signing is checked against the verifier of this package, against go-jose (an independent JOSE
// implementation) and against what @a2a-js/sdk 1.3.0 signed (the corpus): a signer that agreed
// only with its own verifier could be wrong in the same way twice.

// unionCard is a card as the facade serves it: the 0.3/1.0 union, security schemes in both shapes,
// non-ASCII text and a number in an extension's params.
const unionCard = `{
  "additionalInterfaces": [{"transport": "HTTP+JSON", "url": "https://agents.example/a2a/v03/rest"}],
  "capabilities": {"streaming": true, "extensions": [{"uri": "https://ext.example", "required": false, "params": {"level": 2.50, "note": ""}}]},
  "defaultInputModes": ["text/plain"],
  "defaultOutputModes": ["text/plain"],
  "description": "Wetter für Zürich — \u2028 and <tags> & \"quotes\"",
  "name": "gateway",
  "preferredTransport": "JSONRPC",
  "protocolVersion": "0.3",
  "security": [{"bearer": []}],
  "securityRequirements": [{"schemes": {"bearer": []}}],
  "securitySchemes": {"bearer": {"type": "http", "scheme": "Bearer", "description": "a token",
    "httpAuthSecurityScheme": {"scheme": "Bearer", "description": "a token"}}},
  "skills": [{"id": "weather/forecast", "name": "forecast", "description": "the weather", "tags": ["weather"], "examples": []}],
  "supportedInterfaces": [
    {"url": "https://agents.example/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
    {"url": "https://agents.example/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "0.3"}
  ],
  "url": "https://agents.example/a2a",
  "version": "1.0.0",
  "signatures": [{"protected": "eyJhbGciOiJFUzI1NiJ9", "signature": "c2lnbmF0dXJl"}]
}`

// keyPEM writes key in one PEM form: pkcs8, sec1 (EC) or pkcs1 (RSA).
func keyPEM(t *testing.T, key any, form string) []byte {
	t.Helper()
	var der []byte
	var err error
	typ := "PRIVATE KEY"
	switch form {
	case "pkcs8":
		der, err = x509.MarshalPKCS8PrivateKey(key)
	case "sec1":
		typ = "EC PRIVATE KEY"
		der, err = x509.MarshalECPrivateKey(key.(*ecdsa.PrivateKey))
	case "pkcs1":
		typ = "RSA PRIVATE KEY"
		der = x509.MarshalPKCS1PrivateKey(key.(*rsa.PrivateKey))
	}
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der})
}

func ecKeyOf(t *testing.T, c elliptic.Curve) *ecdsa.PrivateKey {
	t.Helper()
	k, err := ecdsa.GenerateKey(c, rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func rsaKeyOf(t *testing.T, bits int) *rsa.PrivateKey {
	t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, bits)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// sigEntries are the signatures of a signed card, with their protected headers read.
func sigEntries(t *testing.T, signed []byte) ([]signature, []map[string]string) {
	t.Helper()
	var card struct {
		Signatures []signature `json:"signatures"`
	}
	if err := json.Unmarshal(signed, &card); err != nil {
		t.Fatal(err)
	}
	var headers []map[string]string
	for _, s := range card.Signatures {
		var h map[string]string
		if err := json.Unmarshal(must(base64.RawURLEncoding.DecodeString(s.Protected)), &h); err != nil {
			t.Fatal(err)
		}
		headers = append(headers, h)
	}
	return card.Signatures, headers
}

// Every key kind, in every PEM form it comes in, signs a card that this package verifies with the
// published JWK Set, and that go-jose verifies too (the served form with the first signature, the
// SDK's form with the second, which alone does not verify the card as served); the kid is the
// key's RFC 7638 thumbprint as go-jose computes it. A changed skill, URL, name or number, a 0.3
// member, or an empty member filled, makes the card fail.
func TestSignRoundTrip(t *testing.T) {
	t.Parallel()
	p256, p384, p521, rsa2048 := ecKeyOf(t, elliptic.P256()), ecKeyOf(t, elliptic.P384()), ecKeyOf(t, elliptic.P521()), rsaKeyOf(t, 2048)
	_, ed, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		key       any
		forms     []string
		alg, want string
	}{
		{p256, []string{"pkcs8", "sec1"}, "", "ES256"},
		{p384, []string{"pkcs8", "sec1"}, "", "ES384"},
		{p521, []string{"pkcs8", "sec1"}, "", "ES512"},
		{ed, []string{"pkcs8"}, "", "EdDSA"},
		{rsa2048, []string{"pkcs8", "pkcs1"}, "", "RS256"},
		{rsa2048, []string{"pkcs1"}, "PS256", "PS256"},
		{rsa2048, []string{"pkcs8"}, "RS512", "RS512"},
		{rsa2048, []string{"pkcs8"}, "PS384", "PS384"},
	} {
		for _, form := range tc.forms {
			name := tc.want + "/" + form
			key, err := ParsePrivateKey(keyPEM(t, tc.key, form))
			if err != nil {
				t.Fatalf("%s: ParsePrivateKey: %v", name, err)
			}
			s, err := NewSigner(key, tc.alg, "", "https://agents.example/.well-known/keys.json")
			if err != nil {
				t.Fatalf("%s: NewSigner: %v", name, err)
			}
			signed, err := s.Sign([]byte(unionCard))
			if err != nil {
				t.Fatalf("%s: Sign: %v", name, err)
			}
			set, err := ParseKeySet(s.KeySet())
			if err != nil {
				t.Fatalf("%s: ParseKeySet(KeySet()): %v", name, err)
			}
			res, err := Verify(context.Background(), signed, Keys{Set: set})
			if err != nil || res.KeyID != s.KeyID() || res.Algorithm != tc.want || len(res.Uncovered) > 0 {
				t.Errorf("%s: Verify() = %+v, %v", name, res, err)
			}
			sigs, headers := sigEntries(t, signed)
			if len(sigs) != 2 {
				t.Fatalf("%s: %d signatures, want the served form's and the SDK's", name, len(sigs))
			}
			for _, h := range headers {
				if h["alg"] != tc.want || h["kid"] != s.KeyID() || h["jku"] != "https://agents.example/.well-known/keys.json" || h["typ"] != "JOSE" {
					t.Errorf("%s: protected header %v", name, h)
				}
			}
			checkWithGoJose(t, name, signed, s.KeySet(), tc.want)
			card, err := decodeCard(signed)
			if err != nil {
				t.Fatal(err)
			}
			rewritten, _ := json.Marshal(card) // other spacing, order and escaping: the same card
			if _, err := Verify(context.Background(), rewritten, Keys{Set: set}); err != nil {
				t.Errorf("%s: the card written again: %v", name, err)
			}
			card["signatures"] = card["signatures"].([]any)[1:]
			sdkOnly, _ := json.Marshal(card)
			if _, err := Verify(context.Background(), sdkOnly, Keys{Set: set}); err == nil {
				t.Errorf("%s: the SDK form's signature verified the card as served", name)
			}
			for what, tamper := range map[string]func(card map[string]any){
				"a skill": func(c map[string]any) { skill(c)["description"] = "the weather, and your files" },
				"an interface URL": func(c map[string]any) {
					c["supportedInterfaces"].([]any)[0].(map[string]any)["url"] = "https://evil.example/a2a"
				},
				"0.3's url":       func(c map[string]any) { c["url"] = "https://evil.example/a2a" },
				"the name":        func(c map[string]any) { c["name"] = "Gateway" },
				"a number":        func(c map[string]any) { extension(c)["params"].(map[string]any)["level"] = json.Number("2.51") },
				"an empty member": func(c map[string]any) { extension(c)["params"].(map[string]any)["note"] = "x" },
			} {
				card, err := decodeCard(signed)
				if err != nil {
					t.Fatal(err)
				}
				tamper(card)
				changed, _ := json.Marshal(card)
				var e *Error
				if _, err := Verify(context.Background(), changed, Keys{Set: set}); !errors.As(err, &e) || e.Unsigned {
					t.Errorf("%s: with %s changed, Verify() = %v; want no signature to verify", name, what, err)
				}
			}
		}
	}
}

func skill(card map[string]any) map[string]any { return card["skills"].([]any)[0].(map[string]any) }

func extension(card map[string]any) map[string]any {
	return card["capabilities"].(map[string]any)["extensions"].([]any)[0].(map[string]any)
}

// checkWithGoJose verifies each signature of signed with go-jose, the key read by go-jose from
// keySet: the first over the card as served, the second over the SDK's form.
func checkWithGoJose(t *testing.T, name string, signed, keySet []byte, alg string) {
	t.Helper()
	var set jose.JSONWebKeySet
	if err := json.Unmarshal(keySet, &set); err != nil {
		t.Fatalf("%s: go-jose reads the key set: %v", name, err)
	}
	sigs, headers := sigEntries(t, signed)
	found := set.Key(headers[0]["kid"])
	if len(found) != 1 || found[0].Use != "sig" || found[0].Algorithm != alg {
		t.Fatalf("%s: go-jose found %+v for kid %q", name, found, headers[0]["kid"])
	}
	thumb, err := found[0].Thumbprint(crypto.SHA256)
	if err != nil || base64.RawURLEncoding.EncodeToString(thumb) != headers[0]["kid"] {
		t.Errorf("%s: the kid is not the key's RFC 7638 thumbprint", name)
	}
	card, err := decodeCard(signed)
	if err != nil {
		t.Fatal(err)
	}
	candidates, err := forms(card)
	if err != nil {
		t.Fatal(err)
	}
	delete(card, "signatures")
	proto, err := protoForm(card)
	if err != nil {
		t.Fatal(err)
	}
	for i, payload := range [][]byte{candidates[0].payload, proto} {
		flat, _ := json.Marshal(map[string]string{"protected": sigs[i].Protected, "signature": sigs[i].Signature, "payload": ""}) // detached
		jws, err := jose.ParseSignedJSON(string(flat), []jose.SignatureAlgorithm{jose.SignatureAlgorithm(alg)})
		if err != nil {
			t.Fatalf("%s: go-jose parses signature %d: %v", name, i+1, err)
		}
		if err := jws.DetachedVerify(payload, found[0].Key); err != nil {
			t.Errorf("%s: go-jose verifies signature %d: %v", name, i+1, err)
		}
		if jws.DetachedVerify(append(payload, ' '), found[0].Key) == nil {
			t.Errorf("%s: go-jose verified signature %d over other bytes", name, i+1)
		}
	}
}

// protoForm is the payload @a2a-js/sdk 1.3.0 signs: every card its own signing code signed (the
// corpus, made by js/test/cards/generate.mjs) verifies over protoForm of the card as written,
// the one served by its card handler (oneofs in ts-proto form) too.
func TestProtoFormIsTheSDKs(t *testing.T) {
	t.Parallel()
	set := trustedKeys(t).Set
	for _, file := range []string{"signed-a2a-js-1.3.0-served-es256.json", "signed-a2a-js-1.3.0-tojson-rs256.json",
		"signed-a2a-js-1.3.0-tojson-two.json", "signed-a2a-js-1.3.0-tojson-jku.json"} {
		card, err := decodeCard(corpus(t, file))
		if err != nil {
			t.Fatal(err)
		}
		list := card["signatures"].([]any)
		delete(card, "signatures")
		payload, err := protoForm(card)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		verified := 0
		for _, entry := range list {
			e := entry.(map[string]any)
			var h protectedHeader
			_ = json.Unmarshal(must(b64(e["protected"].(string))), &h)
			key, ok := set.Find(h.Kid)
			if !ok {
				continue // the corpus's card with a signature by a key nobody has
			}
			input := e["protected"].(string) + "." + base64.RawURLEncoding.EncodeToString(payload)
			if err := verifyJWS(h.Alg, key.Public, []byte(input), must(b64(e["signature"].(string)))); err != nil {
				t.Errorf("%s: the SDK's signature by %s does not verify over protoForm:\n%s", file, h.Kid, payload)
			}
			verified++
		}
		if verified == 0 {
			t.Errorf("%s: no signature checked", file)
		}
	}
}

// protoForm reads a card as ts-proto does: members outside the schema and proto defaults go, the
// first member of a oneof set is the one read, snake_case names are read, values are coerced
// as JavaScript's String and Boolean do; a null where a message goes cannot be read.
func TestProtoFormReadsAsTSProto(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`{"name":"a","url":"https://x","protocolVersion":"0.3","x-extra":{"a":1}}`:                                                                                        `{"name":"a"}`,
		`{"capabilities":{"streaming":false,"extensions":[{"uri":"u","required":false,"params":{"k":"","n":1.0}}]}}`:                                                      `{"capabilities":{"extensions":[{"params":{"n":1},"uri":"u"}],"streaming":false}}`,
		`{"securitySchemes":{"s":{"type":"http","mtlsSecurityScheme":{"description":"m"},"httpAuthSecurityScheme":{"scheme":"Bearer"}}}}`:                                 `{"securitySchemes":{"s":{"httpAuthSecurityScheme":{"scheme":"Bearer"}}}}`,
		`{"securitySchemes":{"o":{"oauth2SecurityScheme":{"flows":{"implicit":{"authorizationUrl":"i"},"password":{"tokenUrl":"p"}}}}}}`:                                  `{"securitySchemes":{"o":{"oauth2SecurityScheme":{"flows":{"implicit":{"authorizationUrl":"i"}}}}}}`,
		`{"security_schemes":{"k":{"api_key_security_scheme":{"location":"header"}}},"default_input_modes":["a"],"supportedInterfaces":[{"protocol_binding":"JSONRPC"}]}`: `{"defaultInputModes":["a"],"securitySchemes":{"k":{"apiKeySecurityScheme":{"location":"header"}}},"supportedInterfaces":[{"protocolBinding":"JSONRPC"}]}`,
		`{"securityRequirements":[{"schemes":{"a":[],"b":{"list":["read"]},"c":null}}]}`:                                                                                  `{"securityRequirements":[{"schemes":{"b":{"list":["read"]}}}]}`,
		`{"version":1.50,"name":true,"skills":[{"id":"s","tags":[1,null,"x"],"examples":"not a list"}]}`:                                                                  `{"name":"true","skills":[{"id":"s","tags":["1","null","x"]}],"version":"1.5"}`,
		`{"provider":"acme","capabilities":{"pushNotifications":"yes","extendedAgentCard":0}}`:                                                                            `{"capabilities":{"extendedAgentCard":false,"pushNotifications":true}}`,
		`{"signatures":[{"protected":"x","signature":"y"}],"iconUrl":""}`:                                                                                                 `{}`,
	} {
		card, err := decodeCard([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		delete(card, "signatures")
		got, err := protoForm(card)
		if err != nil || string(got) != want {
			t.Errorf("protoForm(%s) = %s, %v; want %s", in, got, err, want)
		}
	}
	card, _ := decodeCard([]byte(`{"skills":[null]}`))
	if _, err := protoForm(card); err == nil {
		t.Error("protoForm read a null skill, which the SDK throws on")
	}
}

// Sign replaces the signatures a card has; a card that is already in the SDK's form gets one
// signature, which both readings verify; a card that the SDK cannot read gets the served form's
// alone; a card that is not a JSON object is refused.
func TestSignForms(t *testing.T) {
	t.Parallel()
	s, err := NewSigner(ecKeyOf(t, elliptic.P256()), "", "card-key", "")
	if err != nil {
		t.Fatal(err)
	}
	set, _ := ParseKeySet(s.KeySet())
	sdkCard, _ := decodeCard(corpus(t, "signed-a2a-js-1.3.0-tojson-rs256.json"))
	delete(sdkCard, "signatures")
	sdkForm, err := protoForm(sdkCard)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		card string
		sigs int
	}{
		{string(corpus(t, "signed-a2a-js-1.3.0-tojson-rs256.json")), 2}, // a requirement without scopes is no member of the SDK's form
		{string(sdkForm), 1},
		{unionCard, 2},
		{`{"name":"x","skills":[null]}`, 1},
	} {
		signed, err := s.Sign([]byte(tc.card))
		if err != nil {
			t.Fatal(err)
		}
		sigs, headers := sigEntries(t, signed)
		if len(sigs) != tc.sigs || headers[0]["kid"] != "card-key" || headers[0]["jku"] != "" {
			t.Errorf("Sign(%.40s...) = %d signatures %v; want %d by card-key, no jku", tc.card, len(sigs), headers, tc.sigs)
		}
		if res, err := Verify(context.Background(), signed, Keys{Set: set}); err != nil || res.KeyID != "card-key" {
			t.Errorf("Verify(Sign(%.40s...)) = %+v, %v", tc.card, res, err)
		}
	}
	for _, bad := range []string{`[]`, `null`, `"card"`, `{"a":`} {
		if _, err := s.Sign([]byte(bad)); err == nil {
			t.Errorf("Sign(%s) signed", bad)
		}
	}
}

// Keys and algorithms that do not go together are refused, with the reason and never the key.
func TestSignerRefuses(t *testing.T) {
	t.Parallel()
	p256, rsa2048 := ecKeyOf(t, elliptic.P256()), rsaKeyOf(t, 2048)
	_, ed, _ := ed25519.GenerateKey(rand.Reader)
	for _, tc := range []struct {
		key  crypto.Signer
		alg  string
		jku  string
		want string
	}{
		{p256, "ES384", "", "ES384 cannot sign with an EC P-256 key"},
		{p256, "RS256", "", "cannot sign with an EC"},
		{rsa2048, "ES256", "", "ES256 cannot sign with an RSA key"},
		{rsa2048, "EdDSA", "", "cannot sign with an RSA key"},
		{ed, "ES256", "", "ES256 cannot sign with an Ed25519 key"},
		{ed, "HS256", "", `algorithm "HS256" is not one of`},
		{rsaKeyOf(t, 1024), "", "", "1024 bits, fewer than 2048"},
		{ecKeyOf(t, elliptic.P224()), "", "", "P-224 is not P-256"},
		{nil, "", "", "no key"},
		{p256, "", "keys.json", "jku must be an absolute http(s) URL"},
		{p256, "", "ftp://keys.example/k.json", "jku must be an absolute http(s) URL"},
		{wrongSigner{p256, ecKeyOf(t, elliptic.P256())}, "", "", "does not verify with its public key"},
	} {
		if _, err := NewSigner(tc.key, tc.alg, "", tc.jku); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("NewSigner(%T, %q, %q) = %v; want %q", tc.key, tc.alg, tc.jku, err, tc.want)
		}
	}
}

// wrongSigner signs with one key and says it is another (a misconfigured KMS key).
type wrongSigner struct{ public, private *ecdsa.PrivateKey }

func (w wrongSigner) Public() crypto.PublicKey { return w.public.Public() }
func (w wrongSigner) Sign(r io.Reader, digest []byte, opts crypto.SignerOpts) ([]byte, error) {
	return w.private.Sign(r, digest, opts)
}

// ParsePrivateKey takes the PEM forms keys come in, passes over blocks that are no key, and
// refuses what it cannot sign with, without quoting the text.
func TestParsePrivateKey(t *testing.T) {
	t.Parallel()
	p256 := ecKeyOf(t, elliptic.P256())
	params := pem.EncodeToMemory(&pem.Block{Type: "EC PARAMETERS", Bytes: []byte{6, 8, 42, 134, 72, 206, 61, 3, 1, 7}})
	if key, err := ParsePrivateKey(append(params, keyPEM(t, p256, "sec1")...)); err != nil || !p256.Equal(key) {
		t.Errorf("openssl ecparam's output: %v", err)
	}
	x25519, err := x509.MarshalPKCS8PrivateKey(must(ecdh.X25519().GenerateKey(rand.Reader)))
	if err != nil {
		t.Fatal(err)
	}
	garbage := base64.StdEncoding.EncodeToString([]byte("not DER: SECRET SECRET SECRET"))
	for text, want := range map[string]string{
		"": "no PEM private key",
		"-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n":                                                                                           "no PEM private key",
		"-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIB\n-----END ENCRYPTED PRIVATE KEY-----\n":                                                                       "encrypted",
		"-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,00000000000000000000000000000000\n\nMIIB\n-----END RSA PRIVATE KEY-----\n": "encrypted",
		"-----BEGIN PRIVATE KEY-----\n" + garbage + "\n-----END PRIVATE KEY-----\n":                                                                                "not a key x509 reads",
		string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: x25519})):                                                                                 "cannot sign a card",
	} {
		_, err := ParsePrivateKey([]byte(text))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParsePrivateKey(%.40q) = %v; want %q", text, err, want)
		}
		if err != nil && strings.Contains(err.Error(), "SECRET") {
			t.Errorf("the error quotes the key: %v", err)
		}
	}
}
