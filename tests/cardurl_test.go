package tests

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/internal/testkit/agent"
)

// The agent's base URL, where the card URL is expected, means the card at A2A's well-known path
// below it (as other A2A clients take it); a URL that is neither, answered 404, says what to add.
func TestCardURLOrBaseURL(t *testing.T) {
	v := agent.Variants()[0]
	var asked atomic.Value
	base := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Store(r.URL.Path)
		if r.URL.Path != a2aport.WellKnownCardPath {
			http.NotFound(w, r)
			return
		}
		res, err := http.Get(server.CardURL(v)) // the variant's card: its interface is on the test agent
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer func() { _ = res.Body.Close() }()
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.Copy(w, res.Body)
	}))
	t.Cleanup(base.Close)

	for _, impl := range implementations {
		t.Run(impl.name, func(t *testing.T) {
			ctx := testContext(t)
			p := newPort(t, impl, a2aport.Options{AgentCardURL: base.URL + "/", AllowedOrigins: []string{server.URL()}})
			if got := p.Describe().AgentCardURL; got != base.URL+a2aport.WellKnownCardPath {
				t.Errorf("Describe().AgentCardURL = %q, want the well-known card below the base URL", got)
			}
			if r := await(ctx, t, submitAsync(ctx, p, newWork("alice", "complete from a base URL"), newRecorder())); r.err != nil {
				t.Fatalf("Submit() = %v", r.err)
			}
			if got := asked.Load(); got != a2aport.WellKnownCardPath {
				t.Errorf("the card was asked for at %v", got)
			}

			p = newPort(t, impl, a2aport.Options{AgentCardURL: base.URL + "/agents/echo"})
			_, err := p.Start(ctx)
			var e *a2aport.Error
			if !errors.As(err, &e) || e.Code != a2aport.CodeDiscoveryFailed || e.Status != http.StatusNotFound {
				t.Fatalf("Start() with a URL that is no card = %v, want A2A_DISCOVERY_FAILED 404", err)
			}
			if want := base.URL + "/agents/echo" + a2aport.WellKnownCardPath; !strings.Contains(e.Message, want) {
				t.Errorf("the 404 says %q, want it to name %s", e.Message, want)
			}
		})
	}
}

// A card request that shows no server fails at once in every runtime (a browser's "Failed to
// fetch" cannot tell a refused port from anything else); one that met a server that may answer
// next time (a 503, a connection that broke) is asked again.
func TestCardRequestRetries(t *testing.T) {
	for _, impl := range implementations {
		t.Run(impl.name, func(t *testing.T) {
			ctx := testContext(t)
			var calls atomic.Int32
			failing := roundTripFunc(func(*http.Request) (*http.Response, error) {
				calls.Add(1)
				return nil, errors.New("Failed to fetch") // as a browser says it: nothing more
			})
			p := newPort(t, impl, a2aport.Options{AgentCardURL: "http://agent.invalid/.well-known/agent-card.json", Transport: failing})
			_, err := p.Start(ctx)
			if a2aport.CodeOf(err) != a2aport.CodeNetworkError || calls.Load() != 1 {
				t.Errorf("Start() = %v after %d card requests, want A2A_NETWORK_ERROR after one", err, calls.Load())
			}

			var hits atomic.Int32 // a server there, whose connection breaks once: asked again
			dropping := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if hits.Add(1) == 1 {
					conn, _, _ := w.(http.Hijacker).Hijack()
					_ = conn.Close()
					return
				}
				http.Error(w, "no card here", http.StatusNotFound)
			}))
			t.Cleanup(dropping.Close)
			p = newPort(t, impl, a2aport.Options{AgentCardURL: dropping.URL + a2aport.WellKnownCardPath, RecoveryBackoff: 1})
			if _, err := p.Start(ctx); a2aport.CodeOf(err) != a2aport.CodeDiscoveryFailed || hits.Load() != 2 {
				t.Errorf("Start() = %v after %d card requests, want the 404 of the second", err, hits.Load())
			}

			var served atomic.Int32
			busy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				served.Add(1)
				http.Error(w, "busy", http.StatusServiceUnavailable)
			}))
			t.Cleanup(busy.Close)
			p = newPort(t, impl, a2aport.Options{AgentCardURL: busy.URL + a2aport.WellKnownCardPath, RecoveryAttempts: 2, RecoveryBackoff: 1})
			if _, err := p.Start(ctx); a2aport.CodeOf(err) != a2aport.CodeDiscoveryFailed || served.Load() != 3 {
				t.Errorf("Start() = %v after %d card requests, want A2A_DISCOVERY_FAILED after 3", err, served.Load())
			}
		})
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
