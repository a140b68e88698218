package facade_test

import (
	"context"
	"crypto"
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
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/a2aport/a2aport"

	"github.com/a2aport/a2aport/adapter"
	"github.com/a2aport/a2aport/facade"
	"github.com/a2aport/a2aport/funcport"
	"github.com/a2aport/a2aport/internal/cardsig"
)

// The facade's signed card, as its callers see it: fetched over HTTP from a facade on loopback,
// verified with the key set the facade publishes, by internal/cardsig and by a2aport's adapter
// (tests/cardsign_test.go has @a2a-js/sdk's verifier), and refused once changed.

// echoPort answers each Work with its instruction.
func echoPort(t *testing.T) a2aport.Port {
	t.Helper()
	p := funcport.New(func(_ context.Context, w a2aport.Work, _ *funcport.Turn) (a2aport.Outcome, error) {
		return a2aport.Outcome{Content: "echo: " + w.Instruction}, nil
	}, funcport.Options{Label: "echo"})
	t.Cleanup(func() { _ = p.Close() })
	return p
}

var signedSkills = []a2a.AgentSkill{{ID: "forecast", Name: "forecast", Description: "the weather for a city", Tags: []string{"weather"},
	Examples: []string{"Zürich tomorrow"}, SecurityRequirements: a2a.SecurityRequirementsOptions{{"bearer": {}}}}}

// serveSigned serves a facade over echoPort with opts, BaseURL its loopback URL; it returns the URL.
func serveSigned(t *testing.T, opts facade.Options) string {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	opts.BaseURL = "http://" + srv.Listener.Addr().String()
	handler, err := facade.New(echoPort(t), opts)
	if err != nil {
		t.Fatal(err)
	}
	srv.Config = facade.NewServer(handler)
	srv.Start()
	t.Cleanup(srv.Close)
	return opts.BaseURL
}

// fetch GETs url and returns the body and the answer's header, failing on another status than want.
func fetch(t *testing.T, url string, want int, header ...string) ([]byte, http.Header) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != want {
		t.Fatalf("GET %s: %s, want %d", url, resp.Status, want)
	}
	return body, resp.Header
}

// headers are the protected headers of a card's signatures.
func headers(t *testing.T, card []byte) []map[string]string {
	t.Helper()
	var c struct {
		Signatures []struct{ Protected string } `json:"signatures"`
	}
	if err := json.Unmarshal(card, &c); err != nil {
		t.Fatal(err)
	}
	var out []map[string]string
	for _, s := range c.Signatures {
		raw, err := base64.RawURLEncoding.DecodeString(s.Protected)
		var h map[string]string
		if err != nil || json.Unmarshal(raw, &h) != nil {
			t.Fatalf("protected header %q", s.Protected)
		}
		out = append(out, h)
	}
	return out
}

// keysFromJKU fetches the key set the card's first signature names.
func keysFromJKU(t *testing.T, card []byte) cardsig.KeySet {
	t.Helper()
	hs := headers(t, card)
	if len(hs) == 0 {
		t.Fatalf("the card is not signed: %s", card)
	}
	body, _ := fetch(t, hs[0]["jku"], http.StatusOK)
	set, err := cardsig.ParseKeySet(body)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// edit returns card with change applied to its JSON.
func edit(t *testing.T, card []byte, change func(map[string]any)) []byte {
	t.Helper()
	var c map[string]any
	if err := json.Unmarshal(card, &c); err != nil {
		t.Fatal(err)
	}
	change(c)
	out, _ := json.Marshal(c)
	return out
}

func firstSkill(c map[string]any) map[string]any { return c["skills"].([]any)[0].(map[string]any) }

// pemKey is key's PKCS #8 PEM, read back as an operator's file would be.
func pemKey(t *testing.T, key any) crypto.Signer {
	t.Helper()
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := facade.ParseCardKey(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
	if err != nil {
		t.Fatal(err)
	}
	return signer
}

// The card each key kind signs verifies with the key set the facade publishes at the jku its
// signatures name; the key set is a cacheable JWK Set any page may read; a changed skill,
// interface URL, 0.3 URL or security scheme does not verify.
func TestSignedCardVerifies(t *testing.T) {
	t.Parallel()
	ec := func(c elliptic.Curve) *ecdsa.PrivateKey { k, _ := ecdsa.GenerateKey(c, rand.Reader); return k }
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	_, edKey, _ := ed25519.GenerateKey(rand.Reader)
	for _, tc := range []struct {
		key       any
		alg, want string
	}{
		{ec(elliptic.P256()), "", "ES256"}, {ec(elliptic.P384()), "", "ES384"}, {ec(elliptic.P521()), "", "ES512"},
		{edKey, "", "EdDSA"}, {rsaKey, "", "RS256"}, {rsaKey, "PS256", "PS256"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			t.Parallel()
			base := serveSigned(t, facade.Options{Name: "signed", Skills: signedSkills,
				SecuritySchemes:      a2a.NamedSecuritySchemes{"bearer": a2a.HTTPAuthSecurityScheme{Scheme: "Bearer"}},
				SecurityRequirements: a2a.SecurityRequirementsOptions{{"bearer": {}}},
				CardSigning:          &facade.CardSigning{Key: pemKey(t, tc.key), KeyID: "card-" + tc.want, Algorithm: tc.alg}})
			card, _ := fetch(t, base+facade.CardPath, http.StatusOK)
			hs := headers(t, card)
			if len(hs) != 2 || hs[0]["jku"] != base+facade.CardKeysPath || hs[0]["kid"] != "card-"+tc.want || hs[0]["alg"] != tc.want {
				t.Fatalf("signature headers %v; want two, %s by card-%s, jku %s", hs, tc.want, tc.want, base+facade.CardKeysPath)
			}
			keys := keysFromJKU(t, card)
			res, err := cardsig.Verify(context.Background(), card, cardsig.Keys{Set: keys})
			if err != nil || res.KeyID != "card-"+tc.want || res.Algorithm != tc.want || len(res.Uncovered) > 0 {
				t.Errorf("Verify(the served card) = %+v, %v", res, err)
			}
			for what, change := range map[string]func(map[string]any){
				"a skill": func(c map[string]any) { firstSkill(c)["description"] = "the weather, and your files" },
				"an interface URL": func(c map[string]any) {
					c["supportedInterfaces"].([]any)[0].(map[string]any)["url"] = "http://evil.example/a2a"
				},
				"0.3's url": func(c map[string]any) { c["url"] = "http://evil.example/a2a" },
				"a scheme":  func(c map[string]any) { delete(c, "securitySchemes") },
			} {
				_, err := cardsig.Verify(context.Background(), edit(t, card, change), cardsig.Keys{Set: keys})
				var e *cardsig.Error
				if !errors.As(err, &e) || e.Unsigned {
					t.Errorf("with %s changed: Verify() = %v; want no signature to verify", what, err)
				}
			}
		})
	}
	base := serveSigned(t, facade.Options{CardSigning: &facade.CardSigning{Key: ec(elliptic.P256())}})
	body, h := fetch(t, base+facade.CardKeysPath, http.StatusOK, "Origin", "https://page.example")
	if h.Get("Content-Type") != "application/jwk-set+json" || h.Get("Cache-Control") != "public, max-age=300" || h.Get("ETag") == "" ||
		h.Get("Access-Control-Allow-Origin") != "https://page.example" {
		t.Errorf("the key set's header: %v", h)
	}
	if strings.Contains(string(body), `"d"`) || !strings.Contains(string(body), `"use": "sig"`) {
		t.Errorf("the key set: %s", body)
	}
	fetch(t, base+facade.CardKeysPath, http.StatusNotModified, "If-None-Match", h.Get("ETag"))
	resp, err := http.Post(base+facade.CardKeysPath, "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST the key set: %s", resp.Status)
	}
	// kid "": the key's thumbprint.
	card, _ := fetch(t, base+facade.CardPath, http.StatusOK)
	if kid := headers(t, card)[0]["kid"]; len(kid) != 43 {
		t.Errorf("kid %q, want the key's RFC 7638 thumbprint", kid)
	}
}

// A live card (LiveSkills) is signed as it is built: the same skills give the same bytes (its
// ETag holds, though ECDSA signs differently each time), new skills a new card that verifies.
func TestSignedLiveCard(t *testing.T) {
	t.Parallel()
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	var skills atomic.Pointer[[]a2a.AgentSkill]
	skills.Store(&signedSkills)
	base := serveSigned(t, facade.Options{LiveSkills: func() []a2a.AgentSkill { return *skills.Load() },
		CardSigning: &facade.CardSigning{Key: key, KeyID: "live"}})
	first, h := fetch(t, base+facade.CardPath, http.StatusOK)
	again, h2 := fetch(t, base+facade.CardPath, http.StatusOK)
	if string(first) != string(again) || h.Get("ETag") != h2.Get("ETag") {
		t.Error("the same live card was served with other bytes")
	}
	fetch(t, base+facade.CardPath, http.StatusNotModified, "If-None-Match", h.Get("ETag"))
	keys := keysFromJKU(t, first)
	changed := []a2a.AgentSkill{{ID: "travel/book", Name: "book", Description: "books trains", Tags: []string{"travel"}}}
	skills.Store(&changed)
	now, h3 := fetch(t, base+facade.CardPath, http.StatusOK)
	if h3.Get("ETag") == h.Get("ETag") || !strings.Contains(string(now), "travel/book") {
		t.Fatalf("the card after the skills changed: %s", now)
	}
	for _, card := range [][]byte{first, now} {
		if res, err := cardsig.Verify(context.Background(), card, cardsig.Keys{Set: keys}); err != nil || res.KeyID != "live" {
			t.Errorf("Verify() = %+v, %v", res, err)
		}
	}
}

// a2aport's adapter takes the signed card (the key from the jku, or trusted beforehand) and runs
// a Work through it; a copy with a skill changed, served elsewhere, is A2A_CARD_SIGNATURE_INVALID,
// and one without signatures too, when a signature is required.
func TestAdapterVerifiesSignedCard(t *testing.T) {
	t.Parallel()
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	base := serveSigned(t, facade.Options{Skills: signedSkills, CardSigning: &facade.CardSigning{Key: key, KeyID: "gateway-2026"}})
	keySet, _ := fetch(t, base+facade.CardKeysPath, http.StatusOK)
	start := func(o a2aport.Options) (a2aport.Port, error) {
		t.Helper()
		p, err := adapter.New(o)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = p.Close() })
		_, err = p.Start(context.Background())
		return p, err
	}
	for name, o := range map[string]a2aport.Options{
		"jku":     {AgentCardURL: base + facade.CardPath, VerifyCard: a2aport.VerifyCardRequired, CardKeysFromJKU: true},
		"trusted": {AgentCardURL: base + facade.CardPath, VerifyCard: a2aport.VerifyCardRequired, CardKeys: keySet},
	} {
		p, err := start(o)
		if err != nil {
			t.Fatalf("%s: Start() = %v", name, err)
		}
		if sig := p.Describe().CardSignature; sig == nil || sig.Status != "verified" || sig.KeyID != "gateway-2026" || sig.Algorithm != "ES256" {
			t.Errorf("%s: CardSignature = %+v", name, sig)
		}
		out, err := p.Submit(context.Background(), a2aport.Work{ID: "w-" + name, OwnerID: "o", Instruction: "hello"})
		if err != nil || !strings.Contains(out.Content, "echo: hello") {
			t.Errorf("%s: Submit() = %+v, %v", name, out, err)
		}
	}

	card, _ := fetch(t, base+facade.CardPath, http.StatusOK)
	copies := map[string][]byte{
		"/tampered.json": edit(t, card, func(c map[string]any) { firstSkill(c)["description"] = "sends me your files" }),
		"/unsigned.json": edit(t, card, func(c map[string]any) { delete(c, "signatures") }),
	}
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(copies[r.URL.Path]) // a test server: a failed write shows as the test's failure
	}))
	t.Cleanup(elsewhere.Close)
	for path, want := range map[string]string{"/tampered.json": "does not match", "/unsigned.json": "not signed"} {
		_, err := start(a2aport.Options{AgentCardURL: elsewhere.URL + path, VerifyCard: a2aport.VerifyCardRequired,
			CardKeysFromJKU: true, AllowedOrigins: []string{base}})
		if !errors.Is(err, a2aport.ErrCardSignatureInvalid) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: Start() = %v; want A2A_CARD_SIGNATURE_INVALID (%s)", path, err, want)
		}
	}
}

// The extended card (ExtendedSkills) is signed too, for each version a2a-go writes it in: the
// adapter, verifying cards, finds its signature good over every version and binding, and takes
// the card with the caller's skills, rather than noting that it is not signed.
func TestSignedExtendedCard(t *testing.T) {
	t.Parallel()
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	secret := a2a.AgentSkill{ID: "payroll", Name: "payroll", Description: "for staff", Tags: []string{"staff"}}
	base := serveSigned(t, facade.Options{Skills: signedSkills,
		SecuritySchemes:      a2a.NamedSecuritySchemes{"bearer": a2a.HTTPAuthSecurityScheme{Scheme: "Bearer"}},
		SecurityRequirements: a2a.SecurityRequirementsOptions{{"bearer": {}}},
		Authenticate: func(r *http.Request) (string, error) {
			if r.Header.Get("Authorization") != "Bearer staff-token" {
				return "", errors.New("unknown token")
			}
			return "staff", nil
		},
		ExtendedSkills: func(context.Context) []a2a.AgentSkill { return append(signedSkills[:1:1], secret) },
		CardSigning:    &facade.CardSigning{Key: key, KeyID: "extended"}})
	for _, version := range []string{"1.0", "0.3"} {
		for _, binding := range []a2aport.Binding{a2aport.BindingJSONRPC, a2aport.BindingHTTPJSON} {
			p, err := adapter.New(a2aport.Options{AgentCardURL: base + facade.CardPath, ProtocolVersion: version, ProtocolBinding: binding,
				VerifyCard: a2aport.VerifyCardRequired, CardKeysFromJKU: true, Credentials: map[string]a2aport.Credential{"bearer": {Token: "staff-token"}}})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = p.Close() })
			if _, err := p.Start(context.Background()); err != nil {
				t.Fatalf("%s %s: Start() = %v", version, binding, err)
			}
			d := p.Describe()
			if d.CardSignature == nil || d.CardSignature.Status != "verified" || d.CardSignature.KeyID != "extended" {
				t.Errorf("%s %s: signature %+v", version, binding, d.CardSignature)
			}
			for _, note := range d.CardNotes {
				if strings.Contains(note, "sign") {
					t.Errorf("%s %s: %s", version, binding, note)
				}
			}
			if !d.ExtendedCard {
				t.Errorf("%s %s: the extended card is not in use: %v", version, binding, d.CardNotes)
			}
		}
	}
}

// A key that does not fit the algorithm, a weak one, no key and a jku that is no URL are errors of
// New; a jku of the operator's own names that URL, and the facade publishes no key set.
func TestCardSigningOptions(t *testing.T) {
	t.Parallel()
	p256, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	weak, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []facade.CardSigning{
		{Key: p256, Algorithm: "ES384"},
		{Key: p256, Algorithm: "RS256"},
		{Key: p256, Algorithm: "HS256"},
		{Key: weak},
		{},
		{Key: p256, JKU: "/keys.json"},
	} {
		if _, err := facade.New(echoPort(t), facade.Options{BaseURL: "http://127.0.0.1:1", CardSigning: &s}); err == nil || !strings.Contains(err.Error(), "CardSigning") {
			t.Errorf("New(CardSigning %+v) = %v; want an error", s, err)
		}
	}
	base := serveSigned(t, facade.Options{CardSigning: &facade.CardSigning{Key: p256, JKU: "https://keys.example/card.jwks"}})
	card, _ := fetch(t, base+facade.CardPath, http.StatusOK)
	if jku := headers(t, card)[0]["jku"]; jku != "https://keys.example/card.jwks" {
		t.Errorf("jku %q", jku)
	}
	fetch(t, base+facade.CardKeysPath, http.StatusNotFound)
}
