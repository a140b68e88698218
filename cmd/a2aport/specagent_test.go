package main

import (
	"context"
	"encoding/json"
	"iter"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
	"github.com/a2aproject/a2a-go/v2/a2asrv/push"
)

// specAgent is an agent on a2a-go's own server for the commands of the A2A CLI specification
// that the shared test agent cannot exercise: it lists a caller's tasks (a2asrv wants the caller
// named: a bearer token names it), keeps push configurations, and declares OAuth 2 flows served
// by oauth, a loopback authorization server of the test's.
type specAgent struct {
	url    string
	card   string
	oauth  *oauthServer
	tokens sync.Map // the bearer tokens the agent takes → true
}

// specToken is a token the agent takes without a login.
const specToken = "spec-token-0123456789"

// specExecutor completes "echo TEXT" with TEXT as an artifact; "input" waits for an answer and
// completes with it; "hold" runs until cancelled.
type specExecutor struct{}

func (specExecutor) Execute(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		text := ""
		for _, p := range ec.Message.Parts {
			if t, ok := p.Content.(a2a.Text); ok {
				text += string(t)
			}
		}
		if ec.StoredTask == nil && !yield(a2a.NewSubmittedTask(ec, ec.Message), nil) {
			return
		}
		switch {
		case ec.StoredTask != nil: // the answer to "input"
			yield(a2a.NewArtifactEvent(ec, a2a.NewTextPart("answered "+text)), nil)
			yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCompleted, nil), nil)
		case text == "input":
			yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateInputRequired, a2a.NewMessageForTask(a2a.MessageRoleAgent, ec, a2a.NewTextPart("your name?"))), nil)
		case text == "hold":
			if yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateWorking, nil), nil) {
				<-ctx.Done()
			}
		default:
			yield(a2a.NewArtifactEvent(ec, ec.Message.Parts...), nil)
			yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCompleted, nil), nil)
		}
	}
}

func (specExecutor) Cancel(_ context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCanceled, nil), nil)
	}
}

func (a *specAgent) taken(tok string) bool { _, ok := a.tokens.Load(tok); return ok }

// bearerUser names the caller by its bearer token, when the agent takes it.
type bearerUser struct{ agent *specAgent }

func (b bearerUser) Before(ctx context.Context, cc *a2asrv.CallContext, _ *a2asrv.Request) (context.Context, any, error) {
	auth, _ := cc.ServiceParams().Get("authorization")
	if len(auth) == 1 {
		if tok, ok := strings.CutPrefix(auth[0], "Bearer "); ok && b.agent.taken(tok) {
			cc.User = a2asrv.NewAuthenticatedUser("caller", nil)
			return ctx, nil, nil
		}
	}
	return ctx, nil, a2a.ErrUnauthenticated
}

func (bearerUser) After(context.Context, *a2asrv.CallContext, *a2asrv.Response) error { return nil }

// startSpecAgent serves the agent (JSON-RPC, streaming, push) and its OAuth server on loopback.
func startSpecAgent(t *testing.T) *specAgent {
	t.Helper()
	a := &specAgent{oauth: startOAuth(t)}
	a.tokens.Store(specToken, true)
	a.oauth.onToken = func(tok string) { a.tokens.Store(tok, true) }
	handler := a2asrv.NewHandler(specExecutor{},
		a2asrv.WithCallInterceptors(bearerUser{a}),
		a2asrv.WithPushNotifications(push.NewInMemoryStore(), push.NewHTTPPushSender(nil)))
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	a.url = srv.URL
	card := &a2a.AgentCard{
		Name: "spec agent", Description: "echoes", Version: "0.1.0",
		SupportedInterfaces: []*a2a.AgentInterface{
			{URL: srv.URL + "/rest", ProtocolBinding: a2a.TransportProtocolHTTPJSON, ProtocolVersion: "1.0"},
			{URL: srv.URL + "/rpc", ProtocolBinding: a2a.TransportProtocolJSONRPC, ProtocolVersion: "1.0"},
		},
		Capabilities:       a2a.AgentCapabilities{Streaming: true, PushNotifications: true},
		DefaultInputModes:  []string{"text/plain"},
		DefaultOutputModes: []string{"text/plain"},
		SecuritySchemes: a2a.NamedSecuritySchemes{
			"bearer": a2a.HTTPAuthSecurityScheme{Scheme: "Bearer"},
			"device": a2a.OAuth2SecurityScheme{Flows: a2a.DeviceCodeOAuthFlow{DeviceAuthorizationURL: a.oauth.url + "/device",
				TokenURL: a.oauth.url + "/token", Scopes: map[string]string{"a2a": "use the agent"}}},
			"service": a2a.OAuth2SecurityScheme{Flows: a2a.ClientCredentialsOAuthFlow{TokenURL: a.oauth.url + "/token",
				Scopes: map[string]string{"a2a": "use the agent"}}},
		},
		Skills: []a2a.AgentSkill{{ID: "echo", Name: "Echo", Description: "says it back", Tags: []string{"test"}}},
	}
	mux.Handle(a2asrv.WellKnownAgentCardPath, a2asrv.NewStaticAgentCardHandler(card))
	mux.Handle("/rpc", a2asrv.NewJSONRPCHandler(handler))
	mux.Handle("/rest/", http.StripPrefix("/rest", a2asrv.NewRESTHandler(handler)))
	a.card = srv.URL + a2asrv.WellKnownAgentCardPath
	return a
}

// oauthServer is a loopback OAuth 2 authorization server: the client credentials grant for
// client "svc" with secret "svc-secret", and the device code grant (RFC 8628) for client "cli",
// pending until approve is called.
type oauthServer struct {
	url      string
	mu       sync.Mutex
	approved bool
	polls    int
	onToken  func(string)
}

func (o *oauthServer) approve() { o.mu.Lock(); o.approved = true; o.mu.Unlock() }

func startOAuth(t *testing.T) *oauthServer {
	o := &oauthServer{}
	answer := func(w http.ResponseWriter, status int, v any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(v)
	}
	issue := func(w http.ResponseWriter, tok string) {
		o.onToken(tok)
		answer(w, http.StatusOK, map[string]any{"access_token": tok, "token_type": "Bearer", "expires_in": 3600})
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/device", func(w http.ResponseWriter, r *http.Request) {
		if r.FormValue("client_id") != "cli" {
			answer(w, http.StatusBadRequest, map[string]any{"error": "invalid_client"})
			return
		}
		answer(w, http.StatusOK, map[string]any{"device_code": "dev-123", "user_code": "WDJB-MJHT",
			"verification_uri": o.url + "/verify", "expires_in": 60, "interval": 1})
	})
	mux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
		o.mu.Lock()
		defer o.mu.Unlock()
		switch r.FormValue("grant_type") {
		case "client_credentials":
			if id, secret, ok := r.BasicAuth(); ok && id == "svc" && secret == "svc-secret" {
				issue(w, "cc-token-from-oauth")
				return
			}
			answer(w, http.StatusUnauthorized, map[string]any{"error": "invalid_client"})
		case "urn:ietf:params:oauth:grant-type:device_code":
			o.polls++
			switch {
			case r.FormValue("device_code") != "dev-123" || r.FormValue("client_id") != "cli":
				answer(w, http.StatusBadRequest, map[string]any{"error": "invalid_grant"})
			case !o.approved:
				answer(w, http.StatusBadRequest, map[string]any{"error": "authorization_pending"})
			default:
				issue(w, "device-token-from-oauth")
			}
		default:
			answer(w, http.StatusBadRequest, map[string]any{"error": "unsupported_grant_type"})
		}
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	o.url = srv.URL
	return o
}
