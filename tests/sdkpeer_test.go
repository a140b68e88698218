package tests

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/a2aport/a2aport"

	"github.com/a2aport/a2aport/internal/testkit/sdkagent"
)

// sdkAgent is js/test/sdkagent.mjs running as a process: an agent built on @a2a-js/sdk 1.3.0.
type sdkAgent struct{ *sdkagent.Agent }

// startSDKAgent runs the @a2a-js/sdk agent until the test ends.
func startSDKAgent(t *testing.T) sdkAgent { return sdkAgent{sdkagent.Start(t)} }

// credentials converts a variant's secrets to adapter.Credentials.
func (a sdkAgent) credentials(t *testing.T, variant string) map[string]a2aport.Credential {
	t.Helper()
	creds := map[string]a2aport.Credential{}
	for name, raw := range a.Credentials[variant] {
		var token string
		if json.Unmarshal(raw, &token) == nil {
			creds[name] = a2aport.Credential{Token: token}
			continue
		}
		var client struct{ ClientID, ClientSecret string }
		if err := json.Unmarshal(raw, &client); err != nil {
			t.Fatalf("credential %s of %s: %v", name, variant, err)
		}
		creds[name] = a2aport.Credential{ClientID: client.ClientID, ClientSecret: client.ClientSecret}
	}
	return creds
}

// TestSDKPeer: every variant of the @a2a-js/sdk agent, secured ones included (bearer, API key in
// a query parameter or header, OAuth2 client credentials; 1.0 and 0.3), natively and in the
// module, with nothing but the card URL and the secret; without the secret, A2A_AUTH_REQUIRED.
// Interfaces that name a tenant get it to the agent (REST path, JSON-RPC params).
func TestSDKPeer(t *testing.T) {
	t.Parallel()
	peer := startSDKAgent(t)
	if len(peer.Credentials) < 9 {
		t.Fatalf("the agent announced %d secured variants, want 9", len(peer.Credentials))
	}
	for _, impl := range implementations {
		for variant, card := range peer.Cards {
			t.Run(impl.name+"/"+variant, func(t *testing.T) {
				t.Parallel()
				creds := peer.credentials(t, variant)
				p := newPort(t, impl, a2aport.Options{AgentCardURL: card, PollInterval: a2aport.MinPollInterval, Credentials: creds})
				out, err := p.Submit(testContext(t), newWork("alice", "complete hello go"))
				if err != nil || !strings.Contains(out.Content, "echo: complete hello go") {
					t.Fatalf("Submit() = %+v, %v", out, err)
				}
				if sec := p.Describe().Security; len(creds) > 0 && (sec == nil || len(sec.InUse) != len(creds)) {
					t.Errorf("Describe().Security = %+v, want the card's requirement in use", sec)
				}
				if strings.HasSuffix(variant, "-signed") { // verified, with the key given or from its jku
					for _, o := range []a2aport.Options{{CardKeys: peer.CardKeys}, {CardKeysFromJKU: true}} {
						o.AgentCardURL, o.VerifyCard = card, a2aport.VerifyCardRequired
						v := newPort(t, impl, o)
						if _, err := v.Submit(testContext(t), newWork("alice", "complete signed")); err != nil {
							t.Errorf("a verified card: Submit() = %v", err)
						}
						if sig := v.Describe().CardSignature; sig == nil || sig.Status != "verified" || sig.KeyID != "sdk-agent-key" {
							t.Errorf("Describe().CardSignature = %+v", sig)
						}
					}
				}
				if strings.HasSuffix(variant, "-extended") { // the extended card, as the SDK serves it, is read and used
					if d := p.Describe(); !d.ExtendedCard || d.AgentName != "a2a-js interop agent (extended)" || len(d.CardNotes) != 0 {
						t.Errorf("Describe() = %+v, want the extended card in use, nothing of it ignored", d)
					}
				}
				if strings.HasSuffix(variant, "-tenant") { // the interface's tenant reaches the agent
					out, err := p.Submit(testContext(t), newWork("alice", "tenant please"))
					if err != nil || !strings.Contains(out.Content, "tenant: acme") {
						t.Errorf("Submit(tenant) = %+v, %v; want the card's tenant at the agent", out, err)
					}
				}
				if len(creds) == 0 {
					return
				}
				bare := newPort(t, impl, a2aport.Options{AgentCardURL: card})
				_, err = bare.Submit(testContext(t), newWork("alice", "complete unauthenticated"))
				var e *a2aport.Error
				if !errors.As(err, &e) || e.Code != a2aport.CodeAuthRequired || e.Status != 401 {
					t.Errorf("without credentials: Submit() = %v, want A2A_AUTH_REQUIRED (401)", err)
				}
			})
		}
	}
}
