package tests

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/a2aport/a2aport"
)

// redirector is an agent that redirects, and elsewhere, on another origin, a server that records
// what reaches it.
type redirector struct {
	agent, elsewhere *httptest.Server
	mu               sync.Mutex
	reached          []http.Header // the headers of each request that reached elsewhere
}

func newRedirector(t *testing.T) *redirector {
	rd := &redirector{}
	rd.elsewhere = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rd.mu.Lock()
		rd.reached = append(rd.reached, r.Header.Clone())
		rd.mu.Unlock()
		http.NotFound(w, r)
	}))
	t.Cleanup(rd.elsewhere.Close)
	rd.agent = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/.well-known/agent-card.json":
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"name":"redirecting","version":"1","capabilities":{},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"skills":[],` +
				`"supportedInterfaces":[{"url":"` + rd.agent.URL + `/a2a","protocolBinding":"JSONRPC","protocolVersion":"1.0"}]}`))
		case "/moved-here": // a redirect within the origin: followed
			http.Redirect(w, r, "/.well-known/agent-card.json", http.StatusFound)
		case "/moved-away":
			http.Redirect(w, r, rd.elsewhere.URL+"/.well-known/agent-card.json", http.StatusFound)
		case "/a2a":
			http.Redirect(w, r, rd.elsewhere.URL+"/a2a", http.StatusTemporaryRedirect)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(rd.agent.Close)
	return rd
}

func (rd *redirector) reachedElsewhere() []http.Header {
	rd.mu.Lock()
	defer rd.mu.Unlock()
	return append([]http.Header(nil), rd.reached...)
}

// TestRedirectsKeepCredentials: no credential follows a redirect to another origin. A card URL
// that redirects there fails discovery naming where it pointed; a task request redirected there
// is A2A_HTTP_ERROR with the redirect's status, not of unknown fate (the agent ran nothing); the
// other origin hears nothing. A redirect within the origin is followed with the credentials.
// Natively and in the module.
func TestRedirectsKeepCredentials(t *testing.T) {
	t.Parallel()
	for _, impl := range implementations {
		t.Run(impl.name, func(t *testing.T) {
			t.Parallel()
			rd := newRedirector(t)
			creds := a2aport.Options{Token: "redirect-5ecret-token", Headers: http.Header{"X-Api-Key": {"redirect-5ecret-key"}}}

			o := creds
			o.AgentCardURL = rd.agent.URL + "/moved-away"
			_, err := newPort(t, impl, o).Start(testContext(t))
			var e *a2aport.Error
			if !errors.As(err, &e) || e.Code != a2aport.CodeDiscoveryFailed || e.Status != http.StatusFound || !strings.Contains(e.Message, rd.elsewhere.URL) {
				t.Errorf("a card URL redirected away: %v (%+v), want A2A_DISCOVERY_FAILED, status 302, naming where", err, e)
			}

			o.AgentCardURL = rd.agent.URL + "/moved-here"
			p := newPort(t, impl, o)
			if _, err := p.Start(testContext(t)); err != nil {
				t.Fatalf("a card URL redirected within its origin: %v", err)
			}
			_, err = p.Submit(testContext(t), newWork("alice", "complete redirected"))
			if !errors.As(err, &e) || e.Code != a2aport.CodeHTTPError || e.Status != http.StatusTemporaryRedirect || e.Retryable ||
				!strings.Contains(e.Message, "nothing was sent there") {
				t.Errorf("a task request redirected away: %v (%+v), want A2A_HTTP_ERROR 307, not retryable, saying nothing was sent", err, e)
			}
			if n := len(rd.reachedElsewhere()); n != 0 {
				t.Errorf("%d requests reached the other origin: %v", n, rd.reachedElsewhere())
			}
			checkNoSecretIn(t, []string{"redirect-5ecret"}, err, p.Describe())
		})
	}
}

// checkNoSecretIn fails when one of secrets shows in what the caller can see.
func checkNoSecretIn(t *testing.T, secrets []string, values ...any) {
	t.Helper()
	for _, v := range values {
		text := fmt.Sprintf("%+v", v)
		for _, s := range secrets {
			if strings.Contains(text, s) {
				t.Errorf("a credential leaked into %s", text)
			}
		}
	}
}
