package host

import (
	"bytes"
	"strings"
	"testing"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/internal/testkit/agent"
)

// Secrets never enter the module: after Works against every secured card of the test agent (the
// secrets added by this host, OAuth2 tokens fetched by it), the module's whole linear memory holds
// none of them, nor the Authorization values built from them.
func TestSecretsNeverEnterModuleMemory(t *testing.T) {
	basic := a2aport.Credential{Username: agent.BasicUser, Password: agent.BasicPassword}
	cases := []struct {
		card  string
		creds map[string]a2aport.Credential
	}{
		{agent.CardBearer, map[string]a2aport.Credential{"bearer": {Token: agent.BearerToken}}},
		{agent.CardBasic, map[string]a2aport.Credential{"basic": basic}},
		{agent.CardAPIKeyHeader, map[string]a2aport.Credential{"key": {Token: agent.APIKey}}},
		{agent.CardAPIKeyQuery, map[string]a2aport.Credential{"key": {Token: agent.APIKey}}},
		{agent.CardAPIKeyCookie, map[string]a2aport.Credential{"key": {Token: agent.APIKey}}},
		{agent.CardOAuth2, map[string]a2aport.Credential{"oauth": {ClientID: agent.ClientID, ClientSecret: agent.ClientSecret}}},
	}
	for _, tc := range cases {
		t.Run(tc.card, func(t *testing.T) {
			a, err := New(testContext(t), a2aport.Options{AgentCardURL: server.SpecialCardURL(tc.card), Credentials: tc.creds})
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = a.Close() }()
			for range 3 {
				if _, err := a.Submit(testContext(t), a2aport.Work{ID: "w-" + tc.card, OwnerID: "o", Instruction: "chunks 5 secret check"}); err != nil {
					t.Fatal(err)
				}
			}
			a.mu.Lock()
			inst := a.drv.inst
			a.mu.Unlock()
			mem, ok := inst.mod.Memory().Read(0, inst.memorySize())
			if !ok || len(mem) == 0 {
				t.Fatal("cannot read the module's memory")
			}
			secrets := []string{agent.BearerToken, agent.BasicPassword, agent.APIKey, agent.ClientSecret, "oauth-"}
			for _, s := range secrets {
				if bytes.Contains(mem, []byte(s)) {
					i := bytes.Index(mem, []byte(s))
					t.Errorf("%q is in the module's memory: …%s…", s, strings.ToValidUTF8(string(mem[max(0, i-40):min(len(mem), i+60)]), "?"))
				}
			}
		})
	}
}
