package tests

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
	"github.com/golang-jwt/jwt/v5"

	"github.com/a2aport/a2aport/facade"
	"github.com/a2aport/a2aport/gateway"
	"github.com/a2aport/a2aport/internal/testkit/agent"
)

// identityProvider is an OpenID Connect provider as far as a gateway sees one: a discovery
// document and a JWK Set of EC P-256 keys, which the test rotates, and tokens it signs.
type identityProvider struct {
	srv  *httptest.Server
	mu   sync.Mutex
	keys map[string]*ecdsa.PrivateKey // published, by kid
	jwks int                          // how often the JWK Set was read
}

func startIdentityProvider(t *testing.T) *identityProvider {
	t.Helper()
	p := &identityProvider{keys: map[string]*ecdsa.PrivateKey{}}
	p.rotate(t, "key-1")
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/openid-configuration", func(w http.ResponseWriter, _ *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]string{"issuer": p.srv.URL, "jwks_uri": p.srv.URL + "/jwks"})
	})
	mux.HandleFunc("GET /jwks", func(w http.ResponseWriter, _ *http.Request) {
		p.mu.Lock()
		defer p.mu.Unlock()
		p.jwks++
		var keys []map[string]string
		for kid, k := range p.keys {
			b64 := base64.RawURLEncoding.EncodeToString
			point, err := k.PublicKey.Bytes() // 0x04, x, y
			if err != nil {
				t.Error(err)
				return
			}
			keys = append(keys, map[string]string{"kty": "EC", "crv": "P-256", "kid": kid, "alg": "ES256", "use": "sig",
				"x": b64(point[1:33]), "y": b64(point[33:])})
		}
		w.Header().Set("Content-Type", "application/jwk-set+json")
		_ = json.NewEncoder(w).Encode(map[string]any{"keys": keys})
	})
	p.srv = httptest.NewServer(mux)
	t.Cleanup(p.srv.Close)
	return p
}

// rotate publishes a new key kid in place of the others.
func (p *identityProvider) rotate(t *testing.T, kid string) *ecdsa.PrivateKey {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.keys = map[string]*ecdsa.PrivateKey{kid: k}
	return k
}

func (p *identityProvider) key(kid string) *ecdsa.PrivateKey {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.keys[kid]
}

// token is a JWT of claims over the defaults (this issuer, audience "gateway", an hour to live),
// signed with key as kid.
func (p *identityProvider) token(t *testing.T, kid string, key *ecdsa.PrivateKey, claims jwt.MapClaims) string {
	t.Helper()
	all := jwt.MapClaims{"iss": p.srv.URL, "aud": "gateway", "exp": time.Now().Add(time.Hour).Unix(), "iat": time.Now().Unix()}
	for k, v := range claims {
		if v == nil {
			delete(all, k)
		} else {
			all[k] = v
		}
	}
	tok := jwt.NewWithClaims(jwt.SigningMethodES256, all)
	tok.Header["kid"] = kid
	s, err := tok.SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// startAgents is a test agent server of the test's own, whose requests it may count.
func startAgents(t *testing.T) *agent.Server {
	t.Helper()
	agents, err := agent.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(agents.Close)
	return agents
}

// configuredGateway serves the gateway a configuration file describes (yaml, with $BASE for its
// own URL) on loopback, started; it returns the gateway's base URL.
func configuredGateway(t *testing.T, yaml string) (string, *gateway.Gateway) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	path := filepath.Join(t.TempDir(), "gateway.yaml")
	if err := os.WriteFile(path, []byte(strings.ReplaceAll(yaml, "$BASE", base)), 0o600); err != nil {
		t.Fatal(err)
	}
	_, g := startedGateway(t, path)
	serveGateway(t, ln, g)
	return base, g
}

// startedGateway is the gateway of the configuration file at path, started (no probes).
func startedGateway(t *testing.T, path string) (*gateway.Config, *gateway.Gateway) {
	t.Helper()
	c, err := gateway.ReadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	opts, err := c.Options(nil)
	if err != nil {
		t.Fatal(err)
	}
	opts.StartTimeout, opts.RetryMin, opts.RetryMax, opts.ProbeInterval = 3*time.Second, 50*time.Millisecond, 200*time.Millisecond, -1
	g, err := gateway.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	g.Start(testContext(t))
	return c, g
}

// a2aCall is one A2A request through a binding of a version.
type a2aCall struct {
	name             string
	binding, version string // "rpc" or "rest"; "1.0" or "0.3"
}

var everyBinding = []a2aCall{{"1.0 JSON-RPC", "rpc", "1.0"}, {"0.3 JSON-RPC", "rpc", "0.3"}, {"1.0 HTTP+JSON", "rest", "1.0"}, {"0.3 HTTP+JSON", "rest", "0.3"}}

// send sends text with metadata (a JSON object or "") as a new task's message, as token's caller
// ("": none); it returns the HTTP status, the Retry-After header and the body.
func (c a2aCall) send(t *testing.T, base, token, text, metadata string) (int, string, string) {
	t.Helper()
	id := fmt.Sprintf("m-%d", time.Now().UnixNano())
	meta := ""
	if metadata != "" {
		meta = `,"metadata":` + metadata
	}
	var url, body string
	h := http.Header{"Content-Type": {"application/json"}}
	switch c.binding + c.version {
	case "rpc1.0":
		url, body = base+facade.EndpointPath, `{"jsonrpc":"2.0","id":"s","method":"SendMessage","params":{"message":{"messageId":"`+id+`","role":"ROLE_USER","parts":[{"text":"`+text+`"}]`+meta+`}}}`
		h.Set("A2A-Version", "1.0")
	case "rpc0.3":
		url, body = base+facade.EndpointPath, `{"jsonrpc":"2.0","id":"s","method":"message/send","params":{"message":{"kind":"message","messageId":"`+id+`","role":"user","parts":[{"kind":"text","text":"`+text+`"}]`+meta+`}}}`
	case "rest1.0":
		url, body = base+facade.RESTPath+"/message:send", `{"message":{"messageId":"`+id+`","role":"ROLE_USER","parts":[{"text":"`+text+`"}]`+meta+`}}`
	case "rest0.3":
		url, body = base+facade.V03RESTPath+"/v1/message:send", `{"message":{"messageId":"`+id+`","role":"ROLE_USER","content":[{"text":"`+text+`"}]`+meta+`}}`
	}
	if token != "" {
		h.Set("Authorization", "Bearer "+token)
	}
	return post(t, url, h, body)
}

// taskOp calls op ("get", "list", "cancel", "subscribe") on task (ignored by list) as token's
// caller; it returns the HTTP status and the body (a stream's first bytes are enough).
func (c a2aCall) taskOp(t *testing.T, base, token, op, task string) (int, string) {
	t.Helper()
	rpc10 := map[string]string{"get": "GetTask", "list": "ListTasks", "cancel": "CancelTask", "subscribe": "SubscribeToTask"}
	rpc03 := map[string]string{"get": "tasks/get", "list": "tasks/list", "cancel": "tasks/cancel", "subscribe": "tasks/resubscribe"}
	h := http.Header{"Authorization": {"Bearer " + token}}
	if op == "subscribe" {
		h.Set("Accept", "text/event-stream")
	}
	method, url, body := http.MethodPost, base+facade.EndpointPath, ""
	params := `{"id":"` + task + `"}`
	if op == "list" {
		params = `{}`
	}
	switch c.binding + c.version {
	case "rpc1.0":
		h.Set("A2A-Version", "1.0")
		body = `{"jsonrpc":"2.0","id":"o","method":"` + rpc10[op] + `","params":` + params + `}`
	case "rpc0.3":
		body = `{"jsonrpc":"2.0","id":"o","method":"` + rpc03[op] + `","params":` + params + `}`
	default:
		prefix := base + facade.RESTPath
		if c.version == "0.3" {
			prefix = base + facade.V03RESTPath + "/v1"
		}
		switch op {
		case "get":
			method, url = http.MethodGet, prefix+"/tasks/"+task
		case "list":
			method, url = http.MethodGet, prefix+"/tasks"
		case "cancel":
			url, body = prefix+"/tasks/"+task+":cancel", "{}"
		case "subscribe":
			url, body = prefix+"/tasks/"+task+":subscribe", "{}"
		}
	}
	if body != "" {
		h.Set("Content-Type", "application/json")
	}
	ctx, cancel := context.WithTimeout(testContext(t), 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, url, strings.NewReader(body))
	if err != nil {
		t.Error(err) // not Fatal: callers run it in goroutines too
		return 0, ""
	}
	req.Header = h
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Error(err)
		return 0, ""
	}
	defer func() { _ = resp.Body.Close() }()
	buf := make([]byte, 2048)
	n, _ := io.ReadAtLeast(resp.Body, buf, 1)
	return resp.StatusCode, string(buf[:n])
}

func post(t *testing.T, url string, h http.Header, body string) (int, string, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header = h
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header.Get("Retry-After"), readAll(resp)
}

// completed reports whether an answer is a completed task (either version's spelling).
func completed(body string) bool {
	return strings.Contains(body, "TASK_STATE_COMPLETED") || strings.Contains(body, `"completed"`)
}

// TestGatewayJWTCallers: a gateway that takes JWTs of an OpenID Connect provider (discovery, a
// JWK Set served by the test) serves a valid token's caller, also after the provider rotated
// its key; it refuses with 401 and creates nothing for an expired token, one for another
// audience or of another issuer, one signed by a key the provider never published, an unsigned
// one (alg none), one signed with the public key as an HMAC secret, and one without a subject.
// Static bearer tokens still work beside JWTs; the card declares both schemes.
func TestGatewayJWTCallers(t *testing.T) {
	t.Parallel()
	idp := startIdentityProvider(t)
	base, _ := configuredGateway(t, `
publicURL: $BASE
default: agent
auth:
  bearerTokens:
    - {name: ci, token: ci-static-token}
  jwt:
    issuer: `+idp.srv.URL+`
    audiences: [gateway]
    clockSkew: 5s
backends:
  - name: agent
    card: `+server.CardURL(agent.Variants()[0])+`
`)
	rpc := everyBinding[0]
	good := idp.token(t, "key-1", idp.key("key-1"), jwt.MapClaims{"sub": "alice"})
	if status, _, body := rpc.send(t, base, good, "complete by jwt", ""); status != 200 || !completed(body) {
		t.Fatalf("a valid JWT: %d %s", status, body)
	}
	if status, _, body := rpc.send(t, base, "ci-static-token", "complete by token", ""); status != 200 || !completed(body) {
		t.Fatalf("a static token beside JWTs: %d %s", status, body)
	}

	stranger, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	none, _ := jwt.NewWithClaims(jwt.SigningMethodNone, jwt.MapClaims{"iss": idp.srv.URL, "aud": "gateway", "sub": "mallory",
		"exp": time.Now().Add(time.Hour).Unix()}).SignedString(jwt.UnsafeAllowNoneSignatureType)
	hmac := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{"iss": idp.srv.URL, "aud": "gateway", "sub": "mallory",
		"exp": time.Now().Add(time.Hour).Unix()})
	hmac.Header["kid"] = "key-1"
	public, err := idp.key("key-1").PublicKey.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	hmacToken, _ := hmac.SignedString(public)
	for _, c := range []struct{ name, token string }{
		{"HMAC with the public key", hmacToken},
		{"expired", idp.token(t, "key-1", idp.key("key-1"), jwt.MapClaims{"sub": "alice", "exp": time.Now().Add(-time.Minute).Unix()})},
		{"another audience", idp.token(t, "key-1", idp.key("key-1"), jwt.MapClaims{"sub": "alice", "aud": "another-service"})},
		{"another issuer", idp.token(t, "key-1", idp.key("key-1"), jwt.MapClaims{"sub": "alice", "iss": "https://elsewhere.example"})},
		{"no expiry", idp.token(t, "key-1", idp.key("key-1"), jwt.MapClaims{"sub": "alice", "exp": nil})},
		{"no subject", idp.token(t, "key-1", idp.key("key-1"), nil)},
		{"a key never published", idp.token(t, "key-1", stranger, jwt.MapClaims{"sub": "alice"})},
		{"alg none", none},
		{"garbage", "not.a.jwt"},
	} {
		status, _, body := rpc.send(t, base, c.token, "complete "+c.name, "")
		if status != http.StatusUnauthorized || strings.Contains(body, "TASK_STATE") {
			t.Errorf("%s: %d %s, want 401 and no task", c.name, status, body)
		}
	}

	// The provider rotates its key: a token of the new key is taken (the set is read again once).
	idp.rotate(t, "key-2")
	rotated := idp.token(t, "key-2", idp.key("key-2"), jwt.MapClaims{"sub": "alice"})
	if status, _, body := rpc.send(t, base, rotated, "complete after rotation", ""); status != 200 || !completed(body) {
		t.Errorf("a token of the rotated key: %d %s", status, body)
	}

	_, card := getText(t, base+facade.CardPath)
	if !strings.Contains(card, idp.srv.URL+"/.well-known/openid-configuration") || !strings.Contains(card, `"bearer"`) {
		t.Errorf("the card does not declare both schemes:\n%s", card)
	}
}

// sentTo counts the messages a test agent's variant received.
func sentTo(s *agent.Server, v agent.Variant) int {
	n := 0
	for _, r := range s.Requests() {
		if r.Variant == v.Name() && (r.A2AMethod == "SendMessage" || r.A2AMethod == "SendStreamingMessage") {
			n++
		}
	}
	return n
}

// rpcCall is a JSON-RPC 1.0 call of method with params as token's caller: status and body.
func rpcCall(t *testing.T, base, token, method, params string) (int, string) {
	t.Helper()
	status, _, body := post(t, base+facade.EndpointPath, http.Header{"Content-Type": {"application/json"}, "A2A-Version": {"1.0"},
		"Authorization": {"Bearer " + token}}, `{"jsonrpc":"2.0","id":"c","method":"`+method+`","params":`+params+`}`)
	return status, body
}

// TestGatewayAccessRules: two callers with different rights (one by a JWT's group claim, one by
// its static token's name) through every binding of both versions: each reaches what its rules
// allow, and what they do not is refused with PERMISSION_DENIED naming what was refused (403 on
// HTTP+JSON, -31403 on JSON-RPC), before a stream starts, and reaches no backend; a caller no
// rule matches may do nothing at all; operations a rule does not list are refused on the
// caller's own tasks.
func TestGatewayAccessRules(t *testing.T) {
	t.Parallel()
	agents := startAgents(t)
	weather, travel := agent.Variants()[0], agent.Variants()[4]
	idp := startIdentityProvider(t)
	base, _ := configuredGateway(t, `
publicURL: $BASE
auth:
  bearerTokens:
    - {name: bob, token: bob-token}
  jwt:
    jwksURL: `+idp.srv.URL+`/jwks
    audiences: [gateway]
access:
  - claims: {groups: [forecasters]}
    backends: [weather]
  - callers: [bob]
    skills: [travel/scenarios]
    operations: [send, get, list, extendedCard]
backends:
  - name: weather
    card: `+agents.CardURL(weather)+`
  - name: travel
    card: `+agents.CardURL(travel)+`
`)
	alice := idp.token(t, "key-1", idp.key("key-1"), jwt.MapClaims{"sub": "alice", "groups": []string{"staff", "forecasters"}})
	carol := idp.token(t, "key-1", idp.key("key-1"), jwt.MapClaims{"sub": "carol", "groups": []string{"staff"}})
	refused := func(c a2aCall, status int, body, what string) bool {
		if c.binding == "rest" {
			return status == http.StatusForbidden && strings.Contains(body, "PERMISSION_DENIED") && strings.Contains(body, what)
		}
		return status == 200 && strings.Contains(body, "-31403") && strings.Contains(body, what)
	}
	for _, c := range everyBinding {
		if status, _, body := c.send(t, base, alice, "complete alice weather", `{"backend":"weather"}`); status != 200 || !completed(body) {
			t.Errorf("%s: alice to weather: %d %s", c.name, status, body)
		}
		if status, _, body := c.send(t, base, "bob-token", "complete bob travel", `{"skill":"travel/scenarios"}`); status != 200 || !completed(body) {
			t.Errorf("%s: bob to travel's skill: %d %s", c.name, status, body)
		}
		for _, r := range []struct{ who, token, metadata, what string }{
			{"alice to travel", alice, `{"backend":"travel"}`, `the backend \"travel\"`},
			{"bob to travel without its skill", "bob-token", `{"backend":"travel"}`, `the backend \"travel\"`},
			{"bob to weather's skill", "bob-token", `{"skill":"weather/scenarios"}`, `the skill \"weather/scenarios\"`},
			{"carol anywhere", carol, `{"backend":"weather"}`, `may not call SendMessage`},
		} {
			if status, _, body := c.send(t, base, r.token, "complete refused", r.metadata); !refused(c, status, body, r.what) {
				t.Errorf("%s: %s: %d %s, want PERMISSION_DENIED naming %s", c.name, r.who, status, body, r.what)
			}
		}
	}
	if n := sentTo(agents, weather); n != len(everyBinding) {
		t.Errorf("weather got %d messages, want alice's %d", n, len(everyBinding))
	}
	if n := sentTo(agents, travel); n != len(everyBinding) {
		t.Errorf("travel got %d messages, want bob's %d", n, len(everyBinding))
	}

	// A stream bob may not open is refused before it starts: a JSON answer, not an event.
	status, _, body := post(t, base+facade.EndpointPath, http.Header{"Content-Type": {"application/json"}, "A2A-Version": {"1.0"},
		"Accept": {"text/event-stream"}, "Authorization": {"Bearer bob-token"}},
		`{"jsonrpc":"2.0","id":"st","method":"SendStreamingMessage","params":{"message":{"messageId":"st","role":"ROLE_USER","parts":[{"text":"complete"}],"metadata":{"skill":"travel/scenarios"}}}}`)
	if status != 200 || !strings.Contains(body, "-31403") || strings.HasPrefix(body, "data:") || !strings.Contains(body, "SendStreamingMessage") {
		t.Errorf("bob's stream: %d %q, want a JSON-RPC PERMISSION_DENIED naming the operation", status, body)
	}
	// Operations on the caller's own tasks: bob may list and get them, not cancel them.
	if status, body := rpcCall(t, base, "bob-token", "ListTasks", `{}`); status != 200 || !strings.Contains(body, "tasks") || strings.Contains(body, "error") {
		t.Errorf("bob lists his tasks: %d %s", status, body)
	}
	var listed struct {
		Result struct{ Tasks []struct{ ID string } }
	}
	_, body = rpcCall(t, base, "bob-token", "ListTasks", `{}`)
	if err := json.Unmarshal([]byte(body), &listed); err != nil || len(listed.Result.Tasks) != len(everyBinding) {
		t.Fatalf("bob's tasks: %v %s", err, body)
	}
	id := listed.Result.Tasks[0].ID
	if _, body := rpcCall(t, base, "bob-token", "GetTask", `{"id":"`+id+`"}`); !completed(body) {
		t.Errorf("bob gets his task: %s", body)
	}
	if _, body := rpcCall(t, base, "bob-token", "CancelTask", `{"id":"`+id+`"}`); !strings.Contains(body, "-31403") || !strings.Contains(body, "CancelTask") {
		t.Errorf("bob cancels: %s, want PERMISSION_DENIED", body)
	}
	if _, body := rpcCall(t, base, carol, "ListTasks", `{}`); !strings.Contains(body, "-31403") {
		t.Errorf("carol lists: %s, want PERMISSION_DENIED", body)
	}
	// Through every binding: carol may call nothing, bob may get and list but not cancel or
	// subscribe, alice everything on her own tasks.
	denied := func(c a2aCall, status int, body string) bool {
		if c.binding == "rest" {
			return status == http.StatusForbidden && strings.Contains(body, "PERMISSION_DENIED")
		}
		return status == 200 && strings.Contains(body, "-31403")
	}
	for _, c := range everyBinding {
		for _, op := range []string{"get", "list", "cancel", "subscribe"} {
			if status, body := c.taskOp(t, base, carol, op, id); !denied(c, status, body) {
				t.Errorf("%s: carol's %s: %d %s, want PERMISSION_DENIED", c.name, op, status, body)
			}
		}
		for _, op := range []string{"cancel", "subscribe"} {
			if status, body := c.taskOp(t, base, "bob-token", op, id); !denied(c, status, body) {
				t.Errorf("%s: bob's %s: %d %s, want PERMISSION_DENIED", c.name, op, status, body)
			}
		}
		for _, op := range []string{"get", "list"} {
			if op == "list" && c.binding+c.version == "rpc0.3" {
				continue // A2A 0.3's JSON-RPC has no tasks/list
			}
			if status, body := c.taskOp(t, base, "bob-token", op, id); status != 200 || strings.Contains(body, "-31403") || !strings.Contains(body, id) {
				t.Errorf("%s: bob's %s of his task: %d %s", c.name, op, status, body)
			}
		}
	}

	// Each caller's extended card lists the skills it may use; the public card lists them all.
	skillsOf := func(body string) string {
		var card struct {
			Skills []struct{ ID string }
			Result struct{ Skills []struct{ ID string } }
		}
		if err := json.Unmarshal([]byte(body), &card); err != nil {
			t.Fatalf("%v: %s", err, body)
		}
		var ids []string
		for _, s := range append(card.Skills, card.Result.Skills...) {
			ids = append(ids, s.ID)
		}
		return strings.Join(ids, " ")
	}
	_, public := getText(t, base+facade.CardPath)
	if got := skillsOf(public); got != "weather/scenarios travel/scenarios" || !strings.Contains(public, `"extendedAgentCard": true`) {
		t.Errorf("the public card's skills %q; it offers an extended card: %v", got, strings.Contains(public, `"extendedAgentCard": true`))
	}
	for _, c := range []struct{ who, token, want string }{{"alice", alice, "weather/scenarios"}, {"bob", "bob-token", "travel/scenarios"}} {
		if _, body := rpcCall(t, base, c.token, "GetExtendedAgentCard", `{}`); skillsOf(body) != c.want {
			t.Errorf("%s's extended card: %s, want the skills %q", c.who, body, c.want)
		}
	}
	if _, body := rpcCall(t, base, carol, "GetExtendedAgentCard", `{}`); !strings.Contains(body, "-31403") {
		t.Errorf("carol's extended card: %s, want PERMISSION_DENIED", body)
	}
}

// TestGatewayRateLimits: a caller over its rate is answered 429 with Retry-After on either
// binding and creates nothing, without touching another caller's budget; a backend over its rate
// refuses whoever sends next, naming the backend; both are counted in /metrics. The buckets are a
// node's own: a second node of the same configuration takes the same caller's burst again.
func TestGatewayRateLimits(t *testing.T) {
	t.Parallel()
	agents := startAgents(t)
	v := agent.Variants()[1]
	config := `
publicURL: $BASE
default: agent
auth:
  bearerTokens:
    - {name: a, token: a-token}
    - {name: b, token: b-token}
    - {name: c, token: c-token}
rateLimits:
  perCaller: {rate: 0.2, burst: 2}
  perBackend: {rate: 0.2, burst: 3}
backends:
  - name: agent
    card: ` + agents.CardURL(v) + `
`
	base, _ := configuredGateway(t, config)
	rpc, rest := everyBinding[0], everyBinding[2]
	for i := range 2 {
		if status, _, body := rpc.send(t, base, "a-token", "complete a", ""); status != 200 || !completed(body) {
			t.Fatalf("a's message %d: %d %s", i, status, body)
		}
	}
	for _, c := range []a2aCall{rpc, rest} {
		status, retry, body := c.send(t, base, "a-token", "complete over", "")
		if status != http.StatusTooManyRequests || retry == "" || retry == "0" || !strings.Contains(body, "this caller sends too many requests") {
			t.Errorf("%s: a over its rate: %d Retry-After %q %s", c.name, status, retry, body)
		}
	}
	if status, _, body := rpc.send(t, base, "b-token", "complete b", ""); status != 200 || !completed(body) {
		t.Fatalf("b, whose budget is its own: %d %s", status, body)
	}
	status, retry, body := rpc.send(t, base, "b-token", "complete b again", "")
	if status != http.StatusTooManyRequests || retry == "" || !strings.Contains(body, `the backend \"agent\" takes no more messages now`) {
		t.Errorf("the backend over its rate: %d Retry-After %q %s", status, retry, body)
	}
	if n := sentTo(agents, v); n != 3 {
		t.Errorf("the agent got %d messages, want the 3 taken", n)
	}
	req, _ := http.NewRequest(http.MethodGet, base+"/metrics", nil)
	req.Header.Set("Authorization", "Bearer b-token")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var metrics strings.Builder
	_, _ = fmt.Fprint(&metrics, readAll(resp))
	for _, want := range []string{`a2aport_gateway_rate_limited_total{backend="",scope="caller"} 2`, `a2aport_gateway_rate_limited_total{backend="agent",scope="backend"} 1`} {
		if !strings.Contains(metrics.String(), want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}

	// Under load: 40 requests of one caller at once, of which its burst is taken and no more.
	var wg sync.WaitGroup
	var mu sync.Mutex
	statuses := map[int]int{}
	for range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			status, _ := rpc.taskOp(t, base, "c-token", "list", "")
			mu.Lock()
			statuses[status]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	if statuses[200] != 2 || statuses[http.StatusTooManyRequests] != 38 {
		t.Errorf("40 requests at once with a burst of 2: %v, want 2 taken and 38 refused", statuses)
	}

	other, _ := configuredGateway(t, config)
	for i := range 2 {
		if status, _, body := rpc.send(t, other, "a-token", "complete on another node", ""); status != 200 || !completed(body) {
			t.Errorf("a on another node, message %d: %d %s", i, status, body)
		}
	}
}

// readAll is resp's body, read to its end and closed.
func readAll(resp *http.Response) string {
	defer func() { _ = resp.Body.Close() }()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// TestGatewayBackendHeaders: a backend's static headers (values from files) reach the backend's
// origin with every A2A call (and the card's fetch by its adapter); a backend whose card is on one origin and its
// interfaces on another the operator allowed sends them to both; each backend's headers go to
// its own origins only; /backends shows no value.
func TestGatewayBackendHeaders(t *testing.T) {
	t.Parallel()
	agents := startAgents(t)
	direct, elsewhere := agent.Variants()[0], agent.Variants()[1]
	// A card served from another origin whose interfaces are the agent's.
	var mu sync.Mutex
	var cardKeys []string
	cardJSON := func() string {
		_, body := getText(t, agents.CardURL(elsewhere))
		return body
	}()
	cardHost := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		cardKeys = append(cardKeys, r.Header.Get("X-Api-Key"))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(cardJSON))
	}))
	t.Cleanup(cardHost.Close)
	dir := t.TempDir()
	for name, value := range map[string]string{"tenant": "TENANT-SECRET-1", "key": "KEY-SECRET-2"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(value+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	base, _ := configuredGateway(t, `
publicURL: $BASE
backends:
  - name: direct
    card: `+agents.CardURL(direct)+`
    headers:
      X-Tenant: ${file:`+filepath.Join(dir, "tenant")+`}
  - name: elsewhere
    card: `+cardHost.URL+`/.well-known/agent-card.json
    allowedOrigins: [`+agents.URL()+`]
    headers:
      X-Api-Key: ${file:`+filepath.Join(dir, "key")+`}
`)
	rpc := everyBinding[0]
	for _, name := range []string{"direct", "elsewhere"} {
		if status, _, body := rpc.send(t, base, "", "complete via "+name, `{"backend":"`+name+`"}`); status != 200 || !completed(body) {
			t.Fatalf("%s: %d %s", name, status, body)
		}
	}
	calls := 0
	for _, r := range agents.Requests() {
		if r.A2AMethod == "" && r.Header.Get("User-Agent") == "Go-http-client/1.1" { // the test reading the card
			continue
		}
		switch r.Variant {
		case direct.Name():
			calls++
			if got := r.Header.Get("X-Tenant"); got != "TENANT-SECRET-1" || r.Header.Get("X-Api-Key") != "" {
				t.Errorf("%s %s to direct's origin: X-Tenant %q, X-Api-Key %q", r.Method, r.Path, got, r.Header.Get("X-Api-Key"))
			}
		case elsewhere.Name():
			calls++
			if got := r.Header.Get("X-Api-Key"); got != "KEY-SECRET-2" || r.Header.Get("X-Tenant") != "" {
				t.Errorf("%s %s to elsewhere's allowed origin: X-Api-Key %q, X-Tenant %q", r.Method, r.Path, got, r.Header.Get("X-Tenant"))
			}
		}
	}
	mu.Lock()
	if calls < 2 || len(cardKeys) < 2 || slices.ContainsFunc(cardKeys, func(k string) bool { return k != "KEY-SECRET-2" }) {
		t.Errorf("%d calls of direct; the card's origin got X-Api-Key %q (the adapter's and the gateway's reads)", calls, cardKeys)
	}
	mu.Unlock()
	if _, body := getText(t, base+"/backends"); strings.Contains(body, "SECRET") {
		t.Errorf("/backends shows a header's value:\n%s", body)
	}
}

// TestGatewayTenants: the tenant is the identity's (a JWT claim): the same subject in two
// tenants is two callers. Each tenant's caller sees only its own tasks through every method
// (list, get, cancel, subscribe, a message into a task; 1.0 and 0.3) and the backends its
// tenant's rule allows; a tenant a request names decides nothing; a token without the claim is
// refused. (Conversations with reuseContext are kept per caller: contexts_test.go.)
func TestGatewayTenants(t *testing.T) {
	t.Parallel()
	agents := startAgents(t)
	idp := startIdentityProvider(t)
	base, _ := configuredGateway(t, `
publicURL: $BASE
auth:
  jwt:
    jwksURL: `+idp.srv.URL+`/jwks
    audiences: [gateway]
    tenantClaim: org
access:
  - tenants: [acme]
    backends: [shared, acme-only]
  - tenants: [globex]
    backends: [shared]
backends:
  - name: shared
    card: `+agents.CardURL(agent.Variants()[1])+`
    reuseContext: true
  - name: acme-only
    card: `+agents.CardURL(agent.Variants()[0])+`
`)
	acme := idp.token(t, "key-1", idp.key("key-1"), jwt.MapClaims{"sub": "alice", "org": "acme"})
	globex := idp.token(t, "key-1", idp.key("key-1"), jwt.MapClaims{"sub": "alice", "org": "globex"})
	noTenant := idp.token(t, "key-1", idp.key("key-1"), jwt.MapClaims{"sub": "alice"})
	if status, _, _ := everyBinding[0].send(t, base, noTenant, "complete", `{"backend":"shared"}`); status != http.StatusUnauthorized {
		t.Errorf("a token without the tenant claim: %d, want 401", status)
	}
	type started struct{ task string }
	start := func(token, metadata string) started {
		t.Helper()
		_, body := rpcCall(t, base, token, "SendMessage", `{"tenant":"acme","message":{"messageId":"m-`+fmt.Sprint(time.Now().UnixNano())+
			`","role":"ROLE_USER","parts":[{"text":"complete"}],"metadata":`+metadata+`}}`)
		var answer struct {
			Result struct {
				Task struct{ ID string }
			}
		}
		if err := json.Unmarshal([]byte(body), &answer); err != nil || answer.Result.Task.ID == "" {
			t.Fatalf("start: %v %s", err, body)
		}
		return started{answer.Result.Task.ID}
	}
	a1 := start(acme, `{"backend":"shared"}`)
	g1 := start(globex, `{"backend":"shared"}`) // names tenant acme in the request: decides nothing
	for _, c := range everyBinding {
		if status, _, body := c.send(t, base, globex, "complete", `{"backend":"acme-only"}`); status == 200 && !strings.Contains(body, "-31403") || completed(body) {
			t.Errorf("%s: globex to acme's backend: %d %s", c.name, status, body)
		}
		if status, _, body := c.send(t, base, acme, "complete", `{"backend":"acme-only"}`); status != 200 || !completed(body) {
			t.Errorf("%s: acme to its backend: %d %s", c.name, status, body)
		}
	}
	var listed struct {
		Result struct{ Tasks []struct{ ID string } }
	}
	_, body := rpcCall(t, base, globex, "ListTasks", `{}`)
	if err := json.Unmarshal([]byte(body), &listed); err != nil || len(listed.Result.Tasks) != 1 || listed.Result.Tasks[0].ID != g1.task {
		t.Errorf("globex lists %s, want its one task", body)
	}
	for _, call := range []struct{ method, params string }{
		{"GetTask", `{"id":"` + a1.task + `"}`},
		{"CancelTask", `{"id":"` + a1.task + `"}`},
		{"SubscribeToTask", `{"id":"` + a1.task + `"}`},
		{"SendMessage", `{"message":{"messageId":"x","taskId":"` + a1.task + `","role":"ROLE_USER","parts":[{"text":"more"}]}}`},
	} {
		if _, body := rpcCall(t, base, globex, call.method, call.params); !strings.Contains(body, "-32001") {
			t.Errorf("globex %s on acme's task: %s, want task not found", call.method, body)
		}
	}
	status, _, body03 := post(t, base+facade.EndpointPath, http.Header{"Content-Type": {"application/json"}, "Authorization": {"Bearer " + globex}},
		`{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"id":"`+a1.task+`"}}`)
	if status != 200 || !strings.Contains(body03, "-32001") {
		t.Errorf("globex gets acme's task over 0.3: %d %s", status, body03)
	}
	if _, body := rpcCall(t, base, acme, "GetTask", `{"id":"`+a1.task+`"}`); !completed(body) {
		t.Errorf("acme gets its own task: %s", body)
	}
}

// tenantAgent is an a2a-go agent whose card puts its one interface under tenant "acme"; it
// answers each message with a message and notes the tenant each execution saw.
type tenantAgent struct {
	mu      sync.Mutex
	tenants []string
}

func (a *tenantAgent) Execute(_ context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	a.mu.Lock()
	a.tenants = append(a.tenants, ec.Tenant)
	a.mu.Unlock()
	return func(yield func(a2a.Event, error) bool) {
		yield(a2a.NewMessage(a2a.MessageRoleAgent, a2a.NewTextPart("hello, tenant "+ec.Tenant)), nil)
	}
}

func (a *tenantAgent) Cancel(context.Context, *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(func(a2a.Event, error) bool) {}
}

// TestGatewayBackendTenant: the tenant a backend's card gives its interface reaches the backend
// with each message the gateway sends it (A2A 1.0's tenant), whatever tenant the caller named.
func TestGatewayBackendTenant(t *testing.T) {
	t.Parallel()
	exec := &tenantAgent{}
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	card := &a2a.AgentCard{Name: "tenanted", Description: "one tenant's agent", Version: "1",
		SupportedInterfaces: []*a2a.AgentInterface{{URL: srv.URL + "/rpc", ProtocolBinding: a2a.TransportProtocolJSONRPC, ProtocolVersion: a2a.Version, Tenant: "acme"}},
		DefaultInputModes:   []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"},
		Skills: []a2a.AgentSkill{{ID: "hello", Name: "hello", Description: "greets", Tags: []string{"hello"}}}}
	mux.Handle(a2asrv.WellKnownAgentCardPath, a2asrv.NewStaticAgentCardHandler(card))
	mux.Handle("/rpc", a2asrv.NewJSONRPCHandler(a2asrv.NewHandler(exec)))
	base, _ := configuredGateway(t, `
publicURL: $BASE
default: tenanted
backends:
  - name: tenanted
    card: `+srv.URL+a2asrv.WellKnownAgentCardPath+`
`)
	_, body := rpcCall(t, base, "", "SendMessage", `{"tenant":"globex","message":{"messageId":"t1","role":"ROLE_USER","parts":[{"text":"hi"}]}}`)
	if !strings.Contains(body, "hello, tenant acme") {
		t.Errorf("the answer: %s", body)
	}
	exec.mu.Lock()
	defer exec.mu.Unlock()
	if len(exec.tenants) != 1 || exec.tenants[0] != "acme" {
		t.Errorf("the backend saw tenants %q, want its interface's acme once", exec.tenants)
	}
}
