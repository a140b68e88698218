package a2aclient

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/a2aport/a2aport"
)

func TestRefusedInterface(t *testing.T) {
	for _, c := range []struct {
		card, iface string
		allowed     []string
		refused     bool
	}{
		{"https://agent.example/.well-known/agent-card.json", "https://agent.example/a2a", nil, false},
		{"https://agent.example/.well-known/agent-card.json", "https://AGENT.example:443/a2a", nil, false},
		{"https://agent.example/.well-known/agent-card.json", "https://api.agent.example/a2a", nil, true},
		{"https://agent.example/.well-known/agent-card.json", "https://api.agent.example/a2a", []string{"https://api.agent.example"}, false},
		{"https://agent.example/.well-known/agent-card.json", "https://api.agent.example:8443/a2a", []string{"https://api.agent.example"}, true},
		{"https://agent.example/.well-known/agent-card.json", "https://anywhere.example/a2a", []string{"*"}, false},
		{"https://agent.example/.well-known/agent-card.json", "http://agent.example/a2a", []string{"*", "http://agent.example"}, true},
		{"https://agent.example/.well-known/agent-card.json", "http://127.0.0.1:9000/a2a", []string{"http://127.0.0.1:9000"}, false},
		{"https://agent.example/.well-known/agent-card.json", "http://localhost:9000/a2a", []string{"http://localhost:9000"}, false},
		{"http://127.0.0.1:8000/.well-known/agent-card.json", "http://localhost:8000/a2a", nil, true},
		{"http://127.0.0.1:8000/.well-known/agent-card.json", "ftp://127.0.0.1:8000/a2a", []string{"*"}, true},
		{"http://127.0.0.1:8000/.well-known/agent-card.json", "/a2a", []string{"*"}, true},
	} {
		s, err := validate(a2aport.Options{AgentCardURL: c.card, AllowedOrigins: c.allowed}, nil)
		if err != nil {
			t.Fatal(err)
		}
		why := (&Adapter{s: s}).refusedInterface(c.iface)
		if (why != "") != c.refused {
			t.Errorf("card %s, interface %s, allowed %v: refused %q, want refused: %v", c.card, c.iface, c.allowed, why, c.refused)
		}
	}
}

func TestAllowedOriginsMustBeOrigins(t *testing.T) {
	for _, origin := range []string{"https://a.example/", "https://a.example/path", "a.example", "https://a.example:443", "https://user@a.example", ""} {
		if _, err := validate(a2aport.Options{AgentCardURL: "https://a.example/card", AllowedOrigins: []string{origin}}, nil); a2aport.CodeOf(err) != a2aport.CodeInvalidOptions {
			t.Errorf("AllowedOrigins %q: error %v, want INVALID_OPTIONS", origin, err)
		}
	}
}

// A redirect is followed only where the origin policy lets requests go: credentials go with it.
func TestRedirectsFollowTheOriginPolicy(t *testing.T) {
	var hits []string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits = append(hits, r.Header.Get("Authorization"))
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, "{}")
	}))
	defer other.Close()
	home := httptest.NewServer(http.RedirectHandler(other.URL+"/card", http.StatusFound))
	defer home.Close()
	for _, allowed := range [][]string{nil, {other.URL}} {
		hits = nil
		a, err := New(a2aport.Options{AgentCardURL: home.URL + "/card", Token: "secret-token", AllowedOrigins: allowed})
		if err != nil {
			t.Fatal(err)
		}
		_, err = a.Start(context.Background())
		switch {
		case allowed == nil && len(hits) != 0:
			t.Errorf("a redirect to another origin was followed (Authorization %q)", hits)
		case allowed == nil && !strings.Contains(err.Error(), "which a2aport does not follow"):
			t.Errorf("Start() = %v, want the refused redirect named", err)
		case allowed != nil && len(hits) != 1:
			t.Errorf("a redirect to an allowed origin was not followed: %d requests", len(hits))
		}
		_ = a.Close()
	}
}
