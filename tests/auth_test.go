package tests

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/internal/testkit/agent"
)

// secrets are every credential value the auth tests use; none may show anywhere.
var secrets = []string{agent.BearerToken, agent.BasicPassword, agent.APIKey, agent.ClientSecret, agent.OpenIDToken}

// securedCases: each secured card of the test agent, with the credential that satisfies it.
var securedCases = []struct {
	card    string
	creds   map[string]a2aport.Credential
	inUse   []string
	missing string // the scheme an A2A_AUTH_REQUIRED without credentials names
}{
	{agent.CardBearer, map[string]a2aport.Credential{"bearer": {Token: agent.BearerToken}}, []string{"bearer"}, "bearer"},
	{agent.CardBasic, map[string]a2aport.Credential{"basic": {Username: agent.BasicUser, Password: agent.BasicPassword}}, []string{"basic"}, "basic"},
	{agent.CardAPIKeyHeader, map[string]a2aport.Credential{"key": {Token: agent.APIKey}}, []string{"key"}, "key"},
	{agent.CardAPIKeyQuery, map[string]a2aport.Credential{"key": {Token: agent.APIKey}}, []string{"key"}, "key"},
	{agent.CardAPIKeyCookie, map[string]a2aport.Credential{"key": {Token: agent.APIKey}}, []string{"key"}, "key"},
	{agent.CardOAuth2, map[string]a2aport.Credential{"oauth": {ClientID: agent.ClientID, ClientSecret: agent.ClientSecret}}, []string{"oauth"}, "oauth"},
	{agent.CardOpenID, map[string]a2aport.Credential{"oidc": {Token: agent.OpenIDToken}}, []string{"oidc"}, "oidc"},
	{agent.CardEither, map[string]a2aport.Credential{"bearer": {Token: agent.BearerToken}}, []string{"bearer"}, "basic and key, or bearer"},
	{agent.CardEither, map[string]a2aport.Credential{"key": {Token: agent.APIKey}, "basic": {Username: agent.BasicUser, Password: agent.BasicPassword}},
		[]string{"basic", "key"}, "basic and key, or bearer"},
}

// checkNoSecret fails when any credential value shows in what the caller can see.
func checkNoSecret(t *testing.T, texts ...any) {
	t.Helper()
	for _, v := range texts {
		data, _ := json.Marshal(v)
		if err, ok := v.(error); ok && err != nil {
			data = []byte(err.Error())
		}
		for _, s := range secrets {
			if strings.Contains(string(data), s) {
				t.Errorf("a credential leaked into %s", data)
			}
		}
	}
}

// TestAuthFromTheCard: every kind of security scheme the card can declare is met with nothing
// but the card URL and the secret, natively and in the module; without it, start() still
// succeeds, describe() says what is missing and the Work fails with A2A_AUTH_REQUIRED.
func TestAuthFromTheCard(t *testing.T) {
	t.Parallel()
	for _, impl := range implementations {
		for _, tc := range securedCases {
			t.Run(impl.name+"/"+tc.card+"/"+strings.Join(tc.inUse, "+"), func(t *testing.T) {
				t.Parallel()
				p := newPort(t, impl, a2aport.Options{AgentCardURL: server.SpecialCardURL(tc.card), Credentials: tc.creds})
				if _, err := p.Start(testContext(t)); err != nil {
					t.Fatal(err)
				}
				d := p.Describe()
				if d.Security == nil || !slices.Equal(d.Security.InUse, tc.inUse) || d.Security.Missing || !d.Security.Required {
					t.Fatalf("Describe().Security = %+v, want %v in use", d.Security, tc.inUse)
				}
				rec := newRecorder()
				out, err := p.Submit(testContext(t), newWork("alice", "complete secured"), a2aport.OnEvent(rec.record))
				if err != nil || !strings.Contains(out.Content, "echo: complete") {
					t.Fatalf("Submit() = %+v, %v", out, err)
				}
				checkNoSecret(t, d, out, rec.all())
			})
		}
		for _, tc := range securedCases[:len(securedCases)-1] {
			t.Run(impl.name+"/"+tc.card+"/without credentials", func(t *testing.T) {
				t.Parallel()
				p := newPort(t, impl, a2aport.Options{AgentCardURL: server.SpecialCardURL(tc.card)})
				if _, err := p.Start(testContext(t)); err != nil {
					t.Fatal(err)
				}
				if sec := p.Describe().Security; sec == nil || !sec.Missing || sec.InUse != nil {
					t.Errorf("Describe().Security = %+v, want missing", sec)
				}
				_, err := p.Submit(testContext(t), newWork("alice", "complete unauthenticated"))
				var e *a2aport.Error
				if !errors.As(err, &e) || e.Code != a2aport.CodeAuthRequired || e.Status != 401 || e.Retryable ||
					!strings.Contains(e.Message, tc.missing) || !strings.Contains(e.Message, "the agent asks for") {
					t.Errorf("Submit() = %v (%+v), want a non-retryable A2A_AUTH_REQUIRED naming %q and the challenge", err, e, tc.missing)
				}
			})
		}
		t.Run(impl.name+"/wrong secret", func(t *testing.T) {
			t.Parallel()
			p := newPort(t, impl, a2aport.Options{AgentCardURL: server.SpecialCardURL(agent.CardAPIKeyQuery),
				Credentials: map[string]a2aport.Credential{"key": {Token: agent.APIKey + "-revoked"}}})
			_, err := p.Submit(testContext(t), newWork("alice", "complete wrong key"))
			if !errors.Is(err, a2aport.ErrAuthRequired) || !strings.Contains(err.Error(), "sent the credentials of key") {
				t.Errorf("Submit() = %v, want A2A_AUTH_REQUIRED saying which credentials were sent", err)
			}
			checkNoSecret(t, err, p.Describe())
			if strings.Contains(err.Error(), agent.APIKey) {
				t.Errorf("the key shows in %v", err)
			}
		})
	}
}

// TestExplicitCredentialsWin: Token and Headers, set by the caller, win over what the card implies.
func TestExplicitCredentialsWin(t *testing.T) {
	t.Parallel()
	for _, impl := range implementations {
		t.Run(impl.name, func(t *testing.T) {
			t.Parallel()
			p := newPort(t, impl, a2aport.Options{AgentCardURL: server.SpecialCardURL(agent.CardBearer), Token: agent.BearerToken,
				Credentials: map[string]a2aport.Credential{"bearer": {Token: "stale-token"}}})
			if out, err := p.Submit(testContext(t), newWork("alice", "complete explicit")); err != nil || !strings.Contains(out.Content, "echo: complete") {
				t.Errorf("Submit() = %+v, %v", out, err)
			}
			q := newPort(t, impl, a2aport.Options{AgentCardURL: server.SpecialCardURL(agent.CardBearer), Token: agent.BearerToken})
			if _, err := q.Start(testContext(t)); err != nil {
				t.Fatal(err)
			}
			if sec := q.Describe().Security; sec == nil || !slices.Equal(sec.InUse, []string{"bearer"}) {
				t.Errorf("Describe().Security = %+v, want Token to satisfy the bearer scheme", sec)
			}
		})
	}
}

// TestOAuth2ClientCredentials: one token for many Works, fetched from the card's token URL with
// the card's scopes, renewed once when the agent refuses it; a refused client is A2A_AUTH_REQUIRED
// and the agent never sees a request.
func TestOAuth2ClientCredentials(t *testing.T) {
	// Not parallel: it counts the tokens the test agent issues.
	for _, impl := range implementations {
		t.Run(impl.name, func(t *testing.T) {
			creds := map[string]a2aport.Credential{"oauth": {ClientID: agent.ClientID, ClientSecret: agent.ClientSecret}}
			p := newPort(t, impl, a2aport.Options{AgentCardURL: server.SpecialCardURL(agent.CardOAuth2), Credentials: creds})
			before := server.TokensIssued()
			for i := range 3 {
				if _, err := p.Submit(testContext(t), newWork("alice", "complete oauth")); err != nil {
					t.Fatalf("Submit() #%d = %v", i, err)
				}
			}
			if n := server.TokensIssued() - before; n != 1 {
				t.Errorf("%d tokens issued for three Works, want one", n)
			}
			server.RevokeTokens()
			if _, err := p.Submit(testContext(t), newWork("alice", "complete after revoke")); err != nil {
				t.Errorf("Submit() after the token was revoked = %v, want it renewed", err)
			}
			if n := server.TokensIssued() - before; n != 2 {
				t.Errorf("%d tokens issued, want two", n)
			}
		})
		t.Run(impl.name+"/refused client", func(t *testing.T) {
			creds := map[string]a2aport.Credential{"oauth": {ClientID: agent.ClientID, ClientSecret: agent.ClientSecret + "-wrong"}}
			p := newPort(t, impl, a2aport.Options{AgentCardURL: server.SpecialCardURL(agent.CardOAuth2), Credentials: creds})
			server.ResetRequests()
			_, err := p.Submit(testContext(t), newWork("alice", "complete refused client"))
			var e *a2aport.Error
			if !errors.As(err, &e) || e.Code != a2aport.CodeAuthRequired || e.Retryable || !strings.Contains(e.Message, "invalid_client") {
				t.Errorf("Submit() = %v, want A2A_AUTH_REQUIRED from the token endpoint", err)
			}
			for _, r := range server.Requests() {
				if strings.HasPrefix(r.Path, "/secure/") {
					t.Errorf("the agent got %s %s without a token", r.Method, r.Path)
				}
			}
			checkNoSecret(t, err)
		})
		t.Run(impl.name+"/wrong scope", func(t *testing.T) {
			creds := map[string]a2aport.Credential{"oauth": {ClientID: agent.ClientID, ClientSecret: agent.ClientSecret, Scopes: []string{"other"}}}
			p := newPort(t, impl, a2aport.Options{AgentCardURL: server.SpecialCardURL(agent.CardOAuth2), Credentials: creds})
			if _, err := p.Submit(testContext(t), newWork("alice", "complete wrong scope")); !errors.Is(err, a2aport.ErrAuthRequired) ||
				!strings.Contains(err.Error(), "invalid_scope") {
				t.Errorf("Submit() = %v, want A2A_AUTH_REQUIRED (invalid_scope)", err)
			}
		})
	}
}

// TestTokenProvider: a scheme with no credential asks the application's provider, by name.
func TestTokenProvider(t *testing.T) {
	t.Parallel()
	for _, impl := range implementations {
		t.Run(impl.name, func(t *testing.T) {
			t.Parallel()
			var asked atomic.Int32
			p := newPort(t, impl, a2aport.Options{AgentCardURL: server.SpecialCardURL(agent.CardOpenID),
				TokenProvider: func(_ context.Context, scheme string) (string, error) {
					if scheme != "oidc" {
						return "", errors.New("unexpected scheme " + scheme)
					}
					asked.Add(1)
					return agent.OpenIDToken, nil
				}})
			if out, err := p.Submit(testContext(t), newWork("alice", "complete provided")); err != nil || !strings.Contains(out.Content, "echo: complete") {
				t.Fatalf("Submit() = %+v, %v", out, err)
			}
			if asked.Load() == 0 {
				t.Error("the token provider was never asked")
			}
			if sec := p.Describe().Security; sec == nil || !slices.Equal(sec.InUse, []string{"oidc"}) {
				t.Errorf("Describe().Security = %+v", sec)
			}
		})
		t.Run(impl.name+"/failing", func(t *testing.T) {
			t.Parallel()
			p := newPort(t, impl, a2aport.Options{AgentCardURL: server.SpecialCardURL(agent.CardOpenID),
				TokenProvider: func(context.Context, string) (string, error) { return "", errors.New("the user is not signed in") }})
			_, err := p.Submit(testContext(t), newWork("alice", "complete not signed in"))
			if !errors.Is(err, a2aport.ErrAuthRequired) || !strings.Contains(err.Error(), "not signed in") {
				t.Errorf("Submit() = %v, want A2A_AUTH_REQUIRED with the provider's reason", err)
			}
		})
	}
}

// TestInvalidCredentials: a credential that mixes forms is refused at New, naming the scheme.
func TestInvalidCredentials(t *testing.T) {
	t.Parallel()
	for _, impl := range implementations {
		for _, c := range []a2aport.Credential{{Token: "t", Username: "u"}, {Password: "p"}, {ClientID: "id"}} {
			_, err := impl.new(a2aport.Options{AgentCardURL: server.SpecialCardURL(agent.CardBearer),
				Credentials: map[string]a2aport.Credential{"bearer": c}})
			if !errors.Is(err, a2aport.ErrInvalidOptions) || !strings.Contains(err.Error(), `"bearer"`) {
				t.Errorf("%s: New(%+v) = %v, want INVALID_OPTIONS naming the scheme", impl.name, c, err)
			}
		}
	}
}

// TestCredentialMistakes: a credential in a form its scheme cannot use fails Start with
// INVALID_OPTIONS naming the scheme and the form it takes; one for a scheme the card does not
// declare is noted in Describe, and the Work's A2A_AUTH_REQUIRED says what would satisfy the card.
func TestCredentialMistakes(t *testing.T) {
	t.Parallel()
	for _, impl := range implementations {
		t.Run(impl.name, func(t *testing.T) {
			t.Parallel()
			for _, tc := range []struct {
				card  string
				creds map[string]a2aport.Credential
				want  []string
			}{
				{agent.CardBasic, map[string]a2aport.Credential{"basic": {Token: "a-token-for-basic"}}, []string{`Credentials["basic"] is a token`, "HTTP basic", "a username and password"}},
				{agent.CardBearer, map[string]a2aport.Credential{"bearer": {Username: "ada", Password: "pw"}}, []string{`Credentials["bearer"] is a username and password`, "HTTP bearer", "a token"}},
				{agent.CardAPIKeyHeader, map[string]a2aport.Credential{"key": {ClientID: "c", ClientSecret: "s"}}, []string{`"key" is an API key in the header`}},
				{agent.CardOAuth2, map[string]a2aport.Credential{"oauth": {}}, []string{"OAuth2", "client credentials"}},
			} {
				p := newPort(t, impl, a2aport.Options{AgentCardURL: server.SpecialCardURL(tc.card), Credentials: tc.creds})
				_, err := p.Start(testContext(t))
				for _, want := range tc.want {
					if !errors.Is(err, a2aport.ErrInvalidOptions) || !strings.Contains(err.Error(), want) {
						t.Errorf("%s: Start() = %v, want INVALID_OPTIONS saying %q", tc.card, err, want)
					}
				}
			}
			p := newPort(t, impl, a2aport.Options{AgentCardURL: server.SpecialCardURL(agent.CardEither),
				Credentials: map[string]a2aport.Credential{"beare": {Token: agent.BearerToken}}})
			if _, err := p.Start(testContext(t)); err != nil {
				t.Fatal(err)
			}
			if notes := strings.Join(p.Describe().CardNotes, "\n"); !strings.Contains(notes, `Credentials["beare"] is for no scheme`) || !strings.Contains(notes, "basic, bearer, key") {
				t.Errorf("CardNotes = %q, want the unknown scheme name noted with the declared ones", notes)
			}
			_, err := p.Submit(testContext(t), newWork("alice", "complete misnamed"))
			for _, want := range []string{"basic and key, or bearer", "basic: a username and password", "bearer: a token"} {
				if !errors.Is(err, a2aport.ErrAuthRequired) || !strings.Contains(err.Error(), want) {
					t.Errorf("Submit() = %v, want A2A_AUTH_REQUIRED saying %q", err, want)
				}
			}
			checkNoSecret(t, err, p.Describe())
		})
	}
}
