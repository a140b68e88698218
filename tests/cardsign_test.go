package tests

import (
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/facade"
	"github.com/a2aport/a2aport/funcport"
)

// The card a facade (and so a gateway) signs, checked by verifiers a2aport did not write, and by
// the module's: signatures that only a2aport's own verifier accepted could be wrong in a way it
// shares.

// sdkVerdict is what js/test/verifycard.mjs made of one card.
type sdkVerdict struct {
	Verified bool              `json:"verified"`
	Error    string            `json:"error"`
	Kid      string            `json:"kid"`
	Tampered map[string]string `json:"tampered"`
}

// TestFacadeCardSignedForSDK: the card a facade signs with each kind of key, security schemes of
// every kind on it, is verified by @a2a-js/sdk 1.3.0's verifyAgentCardSignature with the key
// from the JWK Set the facade publishes; a copy with a skill, an interface URL or the name changed
// is refused. (The SDK verifies the card's A2A 1.0 members only: a change to a 0.3 member passes
// there, and a2aport's verifier, natively and in the module, refuses it.)
func TestFacadeCardSignedForSDK(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed")
	}
	ec, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	ec521, _ := ecdsa.GenerateKey(elliptic.P521(), rand.Reader)
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	_, ed, _ := ed25519.GenerateKey(rand.Reader)
	port := funcport.New(func(_ context.Context, w a2aport.Work, _ *funcport.Turn) (a2aport.Outcome, error) {
		return a2aport.Outcome{Content: w.Instruction}, nil
	}, funcport.Options{Label: "signed"})
	t.Cleanup(func() { _ = port.Close() })
	skills := []a2a.AgentSkill{{ID: "weather/forecast", Name: "forecast", Description: "Wetter für Zürich", Tags: []string{"weather"},
		Examples: []string{"tomorrow?"}, InputModes: []string{"text/plain"}, SecurityRequirements: a2a.SecurityRequirementsOptions{{"client": {"read"}}}}}
	cards := map[string]string{} // card URL → kid
	for kid, s := range map[string]facade.CardSigning{
		"es256": {Key: ec}, "es512": {Key: ec521}, "rs256": {Key: rsaKey}, "ps256": {Key: rsaKey, Algorithm: "PS256"}, "eddsa": {Key: ed},
	} {
		s.KeyID = kid
		card := serveFacade(t, port, facade.Options{Name: "gateway", Description: "agents behind one endpoint", Skills: skills,
			SecuritySchemes: everyScheme, SecurityRequirements: everyRequirement, CardSigning: &s})
		cards[card] = kid
	}
	script, err := filepath.Abs("../js/test/verifycard.mjs")
	if err != nil {
		t.Fatal(err)
	}
	args := []string{script}
	for card := range cards {
		args = append(args, card)
	}
	out, err := exec.Command("node", args...).Output()
	if err != nil {
		t.Fatalf("verifycard.mjs: %v (needs js/node_modules: make js/node_modules)", err)
	}
	var verdicts map[string]sdkVerdict
	if err := json.Unmarshal(out, &verdicts); err != nil {
		t.Fatalf("verifycard.mjs printed %q: %v", out, err)
	}
	for card, kid := range cards {
		v := verdicts[card]
		if !v.Verified || v.Kid != kid {
			t.Errorf("%s: @a2a-js/sdk: verified %v by %q (%s); want verified by %s", kid, v.Verified, v.Kid, v.Error, kid)
		}
		for _, what := range []string{"skill", "interfaceUrl", "name"} {
			if v.Tampered[what] != "refused" {
				t.Errorf("%s: @a2a-js/sdk with the %s changed: %q, want refused", kid, what, v.Tampered[what])
			}
		}
		t.Logf("%s: @a2a-js/sdk with 0.3's url changed: %s (its canonical form has A2A 1.0 members only)", kid, v.Tampered["url03"])
	}

	// The module's verifier (and the native one) on the same cards, and on a copy whose 0.3 url
	// was changed.
	var first string
	for card := range cards {
		first = card
		break
	}
	resp, err := http.Get(first)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		t.Fatal(err)
	}
	fields["url"] = json.RawMessage(`"http://evil.example/a2a"`)
	changed, _ := json.Marshal(fields)
	elsewhere := serveCards(t, map[string][]byte{"/changed-url.json": changed})
	origin := strings.TrimSuffix(first, facade.CardPath)
	for _, impl := range implementations {
		p := newPort(t, impl, a2aport.Options{AgentCardURL: first, VerifyCard: a2aport.VerifyCardRequired, CardKeysFromJKU: true})
		if _, err := p.Start(testContext(t)); err != nil {
			t.Fatalf("%s: Start() = %v", impl.name, err)
		}
		if sig := p.Describe().CardSignature; sig == nil || sig.Status != "verified" || sig.KeyID != cards[first] || len(sig.Uncovered) > 0 {
			t.Errorf("%s: CardSignature = %+v", impl.name, sig)
		}
		q := newPort(t, impl, a2aport.Options{AgentCardURL: elsewhere + "/changed-url.json", VerifyCard: a2aport.VerifyCardRequired,
			CardKeysFromJKU: true, AllowedOrigins: []string{origin}})
		if _, err := q.Start(testContext(t)); !errors.Is(err, a2aport.ErrCardSignatureInvalid) {
			t.Errorf("%s: a card with 0.3's url changed: Start() = %v, want A2A_CARD_SIGNATURE_INVALID", impl.name, err)
		}
	}
}
