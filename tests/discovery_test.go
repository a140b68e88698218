package tests

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/internal/testkit/agent"
	"github.com/a2aport/a2aport/internal/testkit/refused"
)

func TestCardURLValidation(t *testing.T) {
	t.Parallel()
	for _, impl := range implementations {
		for _, tc := range []struct{ url, want string }{
			{"ftp://agent.test/card.json", "http or https"},
			{"/.well-known/agent-card.json", "http or https"},
			{"https://user:pass@agent.test/card.json", "userinfo"},
			{"http://", "no host"},
		} {
			_, err := impl.new(a2aport.Options{AgentCardURL: tc.url})
			if !errors.Is(err, a2aport.ErrInvalidOptions) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: New(%q) = %v, want INVALID_OPTIONS mentioning %q", impl.name, tc.url, err, tc.want)
			}
			if err != nil && strings.Contains(err.Error(), "pass") {
				t.Errorf("%s: New(%q) error %q repeats the userinfo", impl.name, tc.url, err)
			}
		}
		for _, opts := range []a2aport.Options{{}, {AgentCardURL: server.CardURL(agent.Variants()[0]), AgentCard: &a2a.AgentCard{}}} {
			if _, err := impl.new(opts); !errors.Is(err, a2aport.ErrInvalidOptions) {
				t.Errorf("%s: New(card URL and card both or neither) = %v, want INVALID_OPTIONS", impl.name, err)
			}
		}
	}
}

func TestDiscovery(t *testing.T) {
	t.Parallel()
	for _, impl := range implementations {
		tests := []struct {
			name, card         string
			opts               a2aport.Options
			transport, version string
			wantErr            *a2aport.Error
			wantErrText        string
		}{
			{name: "mixed card picks first compatible", card: server.SpecialCardURL("mixed"), transport: "JSONRPC", version: "1.0"},
			{name: "0.3 first with legacy", card: server.SpecialCardURL("v03-first"), transport: "JSONRPC", version: "0.3"},
			{name: "0.3 first without legacy", card: server.SpecialCardURL("v03-first"), opts: a2aport.Options{LegacyCompat: a2aport.LegacyCompatOff}, transport: "JSONRPC", version: "1.0"},
			{name: "grpc only", card: server.SpecialCardURL("grpc-only"), wantErr: a2aport.ErrNoCompatibleTransport, wantErrText: "GRPC"},
			{name: "binding pinned", card: server.SpecialCardURL("mixed"), opts: a2aport.Options{ProtocolBinding: "HTTP+JSON"}, transport: "HTTP+JSON", version: "1.0"},
			{name: "1.0 pinned past a 0.3 first", card: server.SpecialCardURL("v03-first"), opts: a2aport.Options{ProtocolVersion: "1.0"}, transport: "JSONRPC", version: "1.0"},
			{name: "0.3 pinned", card: server.SpecialCardURL("v03-first"), opts: a2aport.Options{ProtocolVersion: "0.3"}, transport: "JSONRPC", version: "0.3"},
			{name: "a pin the card cannot satisfy", card: server.SpecialCardURL("mixed"), opts: a2aport.Options{ProtocolVersion: "0.3"},
				wantErr: a2aport.ErrNoCompatibleTransport, wantErrText: "offers [GRPC 1.0, JSONRPC 1.0, HTTP+JSON 1.0], this client speaks JSONRPC or HTTP+JSON, A2A 0.3 (pinned)"},
			{name: "gRPC pinned: an A2A binding a2aport does not speak", card: server.SpecialCardURL("mixed"), opts: a2aport.Options{ProtocolBinding: "GRPC"},
				wantErr: a2aport.ErrNoCompatibleTransport, wantErrText: "pinned to GRPC, which a2aport does not speak"},
		}
		for _, tc := range tests {
			t.Run(impl.name+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				opts := tc.opts
				opts.AgentCardURL = tc.card
				p := newPort(t, impl, opts)
				before := p.Describe()
				if before.Discovered || before.Protocol != "a2a" || before.Label == "" {
					t.Errorf("Describe() before Start = %+v, want undiscovered a2a with a label", before)
				}
				_, err := p.Start(testContext(t))
				if tc.wantErr != nil {
					if !errors.Is(err, tc.wantErr) || !strings.Contains(err.Error(), tc.wantErrText) {
						t.Fatalf("Start() = %v, want %s mentioning %q", err, tc.wantErr.Code, tc.wantErrText)
					}
					return
				}
				if err != nil {
					t.Fatalf("Start() = %v", err)
				}
				d := p.Describe()
				if !d.Discovered || d.Transport != tc.transport || d.ProtocolVersion != tc.version || d.Label != "a2aport test agent" {
					t.Errorf("Describe() = %+v, want %s %s labelled by the card", d, tc.transport, tc.version)
				}
				// The cards declare security schemes, the union ones in 0.3 form: all of it is read.
				if len(d.CardNotes) != 0 {
					t.Errorf("Describe().CardNotes = %q, want the whole card read", d.CardNotes)
				}
			})
		}
	}
}

func TestPinValidation(t *testing.T) {
	t.Parallel()
	for _, impl := range implementations {
		for _, tc := range []struct {
			opts a2aport.Options
			want string
		}{
			{a2aport.Options{ProtocolVersion: "2.0"}, "ProtocolVersion"},
			{a2aport.Options{ProtocolVersion: "1"}, "ProtocolVersion"},
			{a2aport.Options{ProtocolBinding: "grpc"}, "ProtocolBinding"},
			{a2aport.Options{ProtocolVersion: "0.3", LegacyCompat: a2aport.LegacyCompatOff}, "needs LegacyCompat"},
		} {
			tc.opts.AgentCardURL = server.SpecialCardURL("mixed")
			_, err := impl.new(tc.opts)
			if !errors.Is(err, a2aport.ErrInvalidOptions) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: New(%+v) = %v, want INVALID_OPTIONS mentioning %q", impl.name, tc.opts, err, tc.want)
			}
		}
	}
}

func TestDiscoveryHTTPStatus(t *testing.T) {
	t.Parallel()
	for _, impl := range implementations {
		p := newPort(t, impl, a2aport.Options{AgentCardURL: server.URL() + "/no/such/card.json"})
		_, err := p.Start(testContext(t))
		var ae *a2aport.Error
		if !errors.As(err, &ae) || ae.Status != http.StatusNotFound || ae.Retryable {
			t.Errorf("%s: Start() = %+v, want status 404, not retryable", impl.name, ae)
		}
		// A failed discovery is retried by the next call, not cached forever.
		if _, err2 := p.Start(testContext(t)); err2 == nil {
			t.Errorf("%s: second Start() succeeded on a missing card", impl.name)
		}
	}
}

func TestInMemoryCardSkipsDiscovery(t *testing.T) {
	t.Parallel()
	v := agent.Variants()[0]
	for _, impl := range implementations {
		card := &a2a.AgentCard{Name: "in memory", Version: "9", Capabilities: a2a.AgentCapabilities{Streaming: true},
			SupportedInterfaces: []*a2a.AgentInterface{{URL: strings.TrimSuffix(server.CardURL(v), "/.well-known/agent-card.json"),
				ProtocolBinding: a2a.TransportProtocolJSONRPC, ProtocolVersion: "1.0"}}}
		p := newPort(t, impl, a2aport.Options{AgentCard: card})
		if d := p.Describe(); d.AgentName != "in memory" || d.Label != "in memory" {
			t.Errorf("%s: Describe() = %+v, want the in-memory card before Start", impl.name, d)
		}
		out, err := p.Submit(testContext(t), newWork("alice", "complete in memory"))
		if err != nil || !strings.Contains(out.Content, "echo: complete in memory") {
			t.Errorf("%s: Submit() = %+v, %v", impl.name, out, err)
		}
	}
}

// A card request that fails in a way that may pass (503, then a dropped connection) is made again,
// with backoff, within the discovery's time; natively and in the module.
func TestCardFetchRetried(t *testing.T) {
	t.Parallel()
	v := agent.Variants()[0]
	resp, err := http.Get(server.CardURL(v))
	if err != nil {
		t.Fatal(err)
	}
	card, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	for _, impl := range implementations {
		t.Run(impl.name, func(t *testing.T) {
			t.Parallel()
			var hits atomic.Int32
			flaky := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				switch hits.Add(1) {
				case 1:
					http.Error(w, "busy", http.StatusServiceUnavailable)
				case 2:
					if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
						_ = conn.Close() // dropped before any answer
					}
				default:
					w.Header().Set("Content-Type", "application/json")
					_, _ = w.Write(card) // a test server: a failed write shows as the test's failure
				}
			}))
			t.Cleanup(flaky.Close)
			p := newPort(t, impl, a2aport.Options{AgentCardURL: flaky.URL + "/card.json", AllowedOrigins: []string{agentOrigin(t)}})
			if _, err := p.Start(testContext(t)); err != nil || hits.Load() != 3 {
				t.Fatalf("Start() = %v after %d card requests, want success at the third", err, hits.Load())
			}
		})
	}
}

// TestRefusedCardIsNotRetried: a card request whose connection was refused is reported at once,
// with the address: the backoff meant for a Work in flight is not spent on a wrong address (here
// an hour, which a retry would wait). Natively and in the module, whose host classifies the refusal.
func TestRefusedCardIsNotRetried(t *testing.T) {
	t.Parallel()
	addr := refused.Addr(t)
	for _, impl := range implementations {
		t.Run(impl.name, func(t *testing.T) {
			t.Parallel()
			p := newPort(t, impl, a2aport.Options{AgentCardURL: "http://" + addr + "/card.json", RecoveryBackoff: time.Hour})
			_, err := p.Start(testContext(t))
			if !errors.Is(err, a2aport.ErrNetworkError) || !strings.Contains(err.Error(), addr) {
				t.Errorf("Start() = %v; want A2A_NETWORK_ERROR naming %s, at once", err, addr)
			}
		})
	}
}

// TestErrorPagesAreSummarized: an HTML error page, of the card or of an A2A request (a proxy's
// 502), is reported as its status and title, never as a page of markup.
func TestErrorPagesAreSummarized(t *testing.T) {
	t.Parallel()
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html;charset=utf-8")
		w.WriteHeader(http.StatusNotFound)
		_, _ = io.WriteString(w, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"+
			"<link rel=\"stylesheet\" href=\"/static/site.css\">\n<title>Page not found · Example</title>\n</head>\n<body><div class=\"wrap\"><h1>We could not find that page</h1><p>Try the <a href=\"/\">home page</a>.</p></div></body>\n</html>\n")
	}))
	t.Cleanup(page.Close)
	for _, impl := range implementations {
		t.Run(impl.name, func(t *testing.T) {
			t.Parallel()
			_, err := newPort(t, impl, a2aport.Options{AgentCardURL: page.URL + "/card.json", AllowedOrigins: []string{agentOrigin(t)}}).Start(testContext(t))
			if err == nil || !strings.HasSuffix(err.Error(), "HTTP 404 Not Found: Page not found · Example") {
				t.Errorf("Start() = %v; want the status and the page's title", err)
			}
			_, err = newPort(t, impl, a2aport.Options{AgentCardURL: server.CardURL(agent.Variants()[0])}).Submit(testContext(t), newWork("alice", "status502html please"))
			if err == nil || !strings.HasSuffix(err.Error(), "HTTP 502 Bad Gateway") || strings.Contains(err.Error(), "<") {
				t.Errorf("Submit() = %v; want the status alone (the title only repeats it), no markup", err)
			}
		})
	}
}
