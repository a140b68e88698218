package tests

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/facade"
	"github.com/a2aport/a2aport/internal/testkit/a2acli"
	"github.com/a2aport/a2aport/internal/testkit/agent"
)

// TestA2AGoCommandLineAgent: a2aport (native and in the module) against a2a-go's own command-line
// agent, an A2A implementation it was not built with: echo over 1.0 HTTP+JSON and JSON-RPC and 0.3
// JSON-RPC (its generated card always says 1.0, so 0.3 is served with a card file in the 0.3/1.0
// union form), and a command whose output streams in chunks.
func TestA2AGoCommandLineAgent(t *testing.T) {
	t.Parallel()
	bin := a2acli.Build(t)
	card03 := filepath.Join(t.TempDir(), "card-0.3.json")
	if err := os.WriteFile(card03, []byte(`{"name":"Echo 0.3","description":"echo","version":"1.0.0","capabilities":{"streaming":true},
		"supportedInterfaces":[{"url":"http://127.0.0.1:{port}","protocolBinding":"JSONRPC","protocolVersion":"0.3"}],
		"defaultInputModes":["text"],"defaultOutputModes":["text"],"skills":[]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	agents := []struct {
		name, instruction, want string
		args                    []string
	}{
		{"echo 1.0 HTTP+JSON", "hello from a2aport", "hello from a2aport", []string{"--echo"}},
		{"echo 1.0 JSON-RPC", "hello over JSON-RPC", "hello over JSON-RPC", []string{"--echo", "--transport", "jsonrpc"}},
		// The exec agent streams its output in chunks split at the delimiter, which it drops; a2aport
		// joins streamed text into one part, so the words run together.
		{"exec streamed in chunks", "one two three", "ONETWOTHREEANDMORE", []string{"--exec", `sh -c "tr a-z A-Z; printf ' AND MORE'"`, "--chunk", " "}},
	}
	for _, a := range agents {
		t.Run(a.name, func(t *testing.T) {
			t.Parallel()
			card := a2acli.Serve(t, bin, a.args...)
			checkCLIAgent(t, card, a.instruction, a.want)
		})
	}
	t.Run("echo 0.3 JSON-RPC", func(t *testing.T) {
		t.Parallel()
		port := a2acli.FreePort(t)
		body, err := os.ReadFile(card03)
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(t.TempDir(), "card.json")
		if err := os.WriteFile(file, []byte(strings.ReplaceAll(string(body), "{port}", fmt.Sprint(port))), 0o600); err != nil {
			t.Fatal(err)
		}
		card := a2acli.ServeOn(t, bin, port, "--echo", "--protocol", "0.3", "--transport", "jsonrpc", "--card", file, "--card-compat")
		checkCLIAgent(t, card, "hello over 0.3", "hello over 0.3")
	})
}

// checkCLIAgent runs one Work on the agent behind card, natively and in the module.
func checkCLIAgent(t *testing.T, card, instruction, want string) {
	t.Helper()
	for _, impl := range implementations {
		p := newPort(t, impl, a2aport.Options{AgentCardURL: card})
		rec := newRecorder()
		out, err := p.Submit(testContext(t), newWork("alice", instruction), a2aport.OnEvent(rec.record))
		if err != nil || !strings.Contains(out.Content, want) {
			t.Errorf("%s: Submit() = %+v, %v; want %q", impl.name, out, err, want)
		}
		if evs := rec.all(); len(evs) == 0 || evs[len(evs)-1].State != a2aport.StateCompleted {
			t.Errorf("%s: events %+v, want them to end completed", impl.name, evs)
		}
	}
}

// TestA2AGoCommandLineAgentWithAuth: the command-line agent with security declared on its card
// (a card file in a2a-go's own form) and enforced by a proxy in front of it: bearer over 1.0
// JSON-RPC, an API key in a query parameter over 1.0 HTTP+JSON, OAuth2 client credentials (the
// test agent's token endpoint) over 0.3 JSON-RPC. a2aport meets each with the card and the secret.
func TestA2AGoCommandLineAgentWithAuth(t *testing.T) {
	t.Parallel()
	bin := a2acli.Build(t)
	for _, tc := range []struct {
		name, binding, version, schemes, requirement string
		creds                                        map[string]a2aport.Credential
		allowed                                      func(*http.Request) bool
	}{
		{"bearer", "JSONRPC", "1.0", `{"bearer":{"httpAuthSecurityScheme":{"scheme":"Bearer"}}}`, `{"bearer":[]}`,
			map[string]a2aport.Credential{"bearer": {Token: agent.BearerToken}},
			func(r *http.Request) bool { return r.Header.Get("Authorization") == "Bearer "+agent.BearerToken }},
		{"api key in the query", "HTTP+JSON", "1.0", `{"key":{"apiKeySecurityScheme":{"location":"query","name":"api_key"}}}`, `{"key":[]}`,
			map[string]a2aport.Credential{"key": {Token: agent.APIKey}},
			func(r *http.Request) bool { return r.URL.Query().Get("api_key") == agent.APIKey }},
		{"oauth2 client credentials", "JSONRPC", "0.3",
			`{"oauth":{"oauth2SecurityScheme":{"flows":{"clientCredentials":{"tokenUrl":"` + server.URL() + `/oauth/token","scopes":{"` + agent.OAuthScope + `":"run"}}}}}}`,
			`{"oauth":["` + agent.OAuthScope + `"]}`,
			// The token endpoint is the test agent's, not on the card's origin: the caller names it.
			map[string]a2aport.Credential{"oauth": {ClientID: agent.ClientID, ClientSecret: agent.ClientSecret, TokenURL: server.URL() + "/oauth/token"}},
			func(r *http.Request) bool {
				token, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
				return server.TokenValid(token)
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			port := a2acli.FreePort(t)
			var backend *url.URL
			proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path != "/.well-known/agent-card.json" && !tc.allowed(r) {
					w.Header().Set("WWW-Authenticate", "Bearer")
					http.Error(w, "unauthorized", http.StatusUnauthorized)
					return
				}
				httputil.NewSingleHostReverseProxy(backend).ServeHTTP(w, r)
			}))
			t.Cleanup(proxy.Close)
			backend, _ = url.Parse(fmt.Sprintf("http://127.0.0.1:%d", port))
			card := `{"name":"Echo with auth","description":"echo","version":"1.0.0","capabilities":{"streaming":true},
				"supportedInterfaces":[{"url":"` + proxy.URL + `","protocolBinding":"` + tc.binding + `","protocolVersion":"` + tc.version + `"}],
				"securitySchemes":` + tc.schemes + `,"securityRequirements":[{"schemes":` + tc.requirement + `}],
				"defaultInputModes":["text"],"defaultOutputModes":["text"],"skills":[]}`
			file := filepath.Join(t.TempDir(), "card.json")
			if err := os.WriteFile(file, []byte(card), 0o600); err != nil {
				t.Fatal(err)
			}
			transport := map[string]string{"JSONRPC": "jsonrpc", "HTTP+JSON": "rest"}[tc.binding]
			args := []string{"--echo", "--transport", transport, "--card", file}
			if tc.version == "0.3" {
				args = append(args, "--protocol", "0.3", "--card-compat")
			}
			a2acli.ServeOn(t, bin, port, args...)
			cardURL := proxy.URL + "/.well-known/agent-card.json"
			for _, impl := range implementations {
				p := newPort(t, impl, a2aport.Options{AgentCardURL: cardURL, Credentials: tc.creds})
				out, err := p.Submit(testContext(t), newWork("alice", "hello with "+tc.name))
				if err != nil || !strings.Contains(out.Content, "hello with "+tc.name) {
					t.Errorf("%s: Submit() = %+v, %v", impl.name, out, err)
				}
				bare := newPort(t, impl, a2aport.Options{AgentCardURL: cardURL})
				if _, err := bare.Submit(testContext(t), newWork("alice", "hello")); !errors.Is(err, a2aport.ErrAuthRequired) {
					t.Errorf("%s without credentials: Submit() = %v, want A2A_AUTH_REQUIRED", impl.name, err)
				}
			}
		})
	}
}

// TestA2AGoCommandLineClientAgainstFacade: a2a-go's command-line client talks to a2aport's facade
// (over the test agent): the card, a message through the card and to each 1.0 endpoint directly,
// and a streamed one.
func TestA2AGoCommandLineClientAgainstFacade(t *testing.T) {
	t.Parallel()
	bin := a2acli.Build(t)
	base := strings.TrimSuffix(serveFacade(t, innerPort(t), facade.Options{Name: "facade for the cli"}), facade.CardPath)
	cli := func(args ...string) string {
		cmd := exec.Command(bin, args...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("a2a %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	if out := cli("discover", base); !strings.Contains(out, "facade for the cli") {
		t.Errorf("discover: %s", out)
	}
	for _, args := range [][]string{
		{"send", base, "complete from the a2a cli", "-o", "json"}, // through the card
		{"send", base + facade.JSONRPCPath, "complete from the a2a cli", "--transport", "jsonrpc", "-o", "json"},
		{"send", base + facade.RESTPath, "complete from the a2a cli", "--transport", "rest", "-o", "json"},
		{"send", base, "complete from the a2a cli", "--stream", "-o", "json"},
	} {
		if out := cli(args...); !strings.Contains(out, "echo: complete from the a2a cli") {
			t.Errorf("a2a %v:\n%s", args, out)
		}
	}
}
