package tests

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/internal/testkit/agent"
)

// The draft conformance specification's client tests of cards (ACTS, tests/acts/
// client-parsing.acts.yaml): its payloads served as they are written there (the binding named
// REST), with the interface URLs pointed at a proxy in front of a2a-go's server, which runs the
// Works and records what the client asked.

// actsPublicCard and actsExtendedCard are CLIENT-AUTH-001's cards; actsGatedCard CLIENT-CAP-001's.
const (
	actsPublicCard = `{"name":"Example Agent","version":"1.0.0","capabilities":{"streaming":false,"extendedAgentCard":true},
		"supportedInterfaces":[{"url":"IFACE","protocolBinding":"REST","protocolVersion":"1.0"}]}`
	actsExtendedCard = `{"name":"Example Agent","version":"1.0.0","capabilities":{"streaming":true,"extendedAgentCard":true},
		"skills":[{"id":"extended-skill","name":"Extended Skill"}],
		"supportedInterfaces":[{"url":"IFACE","protocolBinding":"REST","protocolVersion":"1.0"}]}`
	actsGatedCard = `{"name":"Capability Gated Agent","version":"1.0.0","capabilities":{"streaming":false,"pushNotifications":false},
		"supportedInterfaces":[{"url":"IFACE","protocolBinding":"REST","protocolVersion":"1.0"}]}`
)

// actsAgent serves card at /.well-known/agent-card.json, extended (if any) as the extended card,
// and proxies every other request below /a2a to the test agent's 1.0 HTTP+JSON streaming
// endpoint, recording each request's path and body.
type actsAgent struct {
	srv *httptest.Server

	mu       sync.Mutex
	requests []string // method path body
}

func startActsAgent(t *testing.T, card, extended string) *actsAgent {
	t.Helper()
	target, err := url.Parse(strings.TrimSuffix(server.CardURL(agent.Variants()[2]), "/.well-known/agent-card.json"))
	if err != nil {
		t.Fatal(err)
	}
	a := &actsAgent{}
	proxy := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) { r.SetURL(target) }}
	a.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		iface := a.srv.URL + "/a2a"
		if r.URL.Path == "/.well-known/agent-card.json" {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, strings.ReplaceAll(card, "IFACE", iface))
			return
		}
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		a.mu.Lock()
		a.requests = append(a.requests, r.Method+" "+r.URL.Path+" "+string(body))
		a.mu.Unlock()
		if r.URL.Path == "/a2a/extendedAgentCard" && extended != "" {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, strings.ReplaceAll(extended, "IFACE", iface))
			return
		}
		r.URL.Path = strings.TrimPrefix(r.URL.Path, "/a2a")
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(a.srv.Close)
	return a
}

func (a *actsAgent) asked(part string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.ContainsFunc(a.requests, func(r string) bool { return strings.Contains(r, part) })
}

// TestClientAdoptsTheExtendedCard is ACTS CLIENT-AUTH-001: after the extended card is read (with
// the caller's credentials), its capabilities are the session's: the public card says no
// streaming, the extended one says streaming, and the Work streams. Natively and in the module.
func TestClientAdoptsTheExtendedCard(t *testing.T) {
	t.Parallel()
	for _, impl := range implementations {
		t.Run(impl.name, func(t *testing.T) {
			t.Parallel()
			a := startActsAgent(t, actsPublicCard, actsExtendedCard)
			p := newPort(t, impl, a2aport.Options{AgentCardURL: a.srv.URL, Token: "acts-token", AllowedOrigins: []string{server.URL()}})
			if _, err := p.Start(testContext(t)); err != nil {
				t.Fatal(err)
			}
			if d := p.Describe(); !d.ExtendedCard || !d.Capabilities.Streaming || d.Transport != "HTTP+JSON" {
				t.Errorf("Describe() = extended %v, streaming %v, transport %q: want the extended card's streaming over HTTP+JSON (notes %q)",
					d.ExtendedCard, d.Capabilities.Streaming, d.Transport, d.CardNotes)
			}
			out, err := p.Submit(testContext(t), newWork("alice", "chunks 3 over the extended card"))
			if err != nil || !strings.Contains(out.Text(), "part-3") {
				t.Fatalf("Submit() = %q, %v", out.Text(), err)
			}
			if !a.asked("/a2a/message:stream") || a.asked("/a2a/message:send") {
				t.Errorf("the Work did not stream as the extended card allows: %q", a.requests)
			}
		})
	}
}

// TestClientChecksCapabilitiesFirst is ACTS CLIENT-CAP-001: a card that says no streaming and no
// push notifications gets neither asked of its agent (whose server would stream), even with a
// webhook to push to: the Work is sent and polled. Natively and in the module.
func TestClientChecksCapabilitiesFirst(t *testing.T) {
	t.Parallel()
	for _, impl := range implementations {
		t.Run(impl.name, func(t *testing.T) {
			t.Parallel()
			a := startActsAgent(t, actsGatedCard, "")
			p := newPort(t, impl, a2aport.Options{AgentCardURL: a.srv.URL, AllowedOrigins: []string{server.URL()},
				PollInterval: 20 * time.Millisecond, PushWebhookURL: "https://hooks.example/a2a-push"})
			out, err := p.Submit(testContext(t), newWork("alice", "chunks 2 on a gated card"))
			if err != nil || !strings.Contains(out.Text(), "part-2") {
				t.Fatalf("Submit() = %q, %v", out.Text(), err)
			}
			if d := p.Describe(); d.Capabilities.Streaming {
				t.Error("Describe() says streaming, which the card does not offer")
			}
			if a.asked(":stream") || a.asked(":subscribe") || a.asked("PushNotification") || a.asked("hooks.example") {
				t.Errorf("the client asked for what the card does not offer: %q", a.requests)
			}
			if !a.asked("/a2a/message:send") {
				t.Errorf("the Work was not sent: %q", a.requests)
			}
		})
	}
}
