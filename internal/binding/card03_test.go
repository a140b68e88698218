package binding

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	legacy "github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
	"github.com/a2aproject/a2a-go/v2/a2asrv"

	"github.com/a2aport/a2aport/internal/demoagent"
	"github.com/a2aport/a2aport/internal/testkit/agent"
)

// ParseCompatCard stands in for a2av0.NewAgentCardParser(), so the two must agree on every card:
// both fail, or both read the same card (reflect.DeepEqual, so nil and empty lists differ too),
// but for the interfaces a2av0 drops and A2A 0.3 declares (see ParseCompatCard): a main url
// without preferredTransport, and an additional interface at the main url with another
// transport. There ParseCompatCard's interfaces are a2av0's with those added in their places.

// TestParseCompatCard compares the two parsers on a corpus of cards as implementations serve them.
// Each card also says whether a2av0 refuses it, so that a corpus that both parsers refuse
// entirely cannot pass unnoticed.
func TestParseCompatCard(t *testing.T) {
	parse := a2av0.NewAgentCardParser()
	for _, c := range compatCorpus(t) {
		t.Run(c.name, func(t *testing.T) {
			assertSameCompatCard(t, parse, c.body)
			if _, err := ParseCompatCard(c.body); (err != nil) != c.fails {
				t.Errorf("error %v; want an error: %v", err, c.fails)
			}
		})
	}
}

// FuzzParseCompatCard compares the two parsers on the corpus and on what the fuzzer makes of it.
func FuzzParseCompatCard(f *testing.F) {
	for _, c := range compatCorpus(f) {
		f.Add(c.body)
	}
	parse := a2av0.NewAgentCardParser()
	f.Fuzz(func(t *testing.T, body []byte) { assertSameCompatCard(t, parse, body) })
}

// assertSameCompatCard fails t unless ParseCompatCard and a2av0's parser both refuse body or
// both read the same card from it.
func assertSameCompatCard(t *testing.T, parse func([]byte) (*a2a.AgentCard, error), body []byte) {
	t.Helper()
	want, wantErr := parse(body)
	got, err := ParseCompatCard(body)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("ParseCompatCard: error %v; a2av0: error %v; card:\n%s", err, wantErr, body)
	}
	if err != nil {
		return
	}
	if added := addedInterfaces(got.SupportedInterfaces, want.SupportedInterfaces); added != nil {
		for _, iface := range added {
			if !droppedByA2AV0(body, iface) {
				t.Fatalf("ParseCompatCard adds %+v, which A2A 0.3 does not declare; card:\n%s", *iface, body)
			}
		}
		same := *got
		same.SupportedInterfaces = want.SupportedInterfaces
		got = &same
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("ParseCompatCard and a2av0 read different cards:\n%s\ncard:\n%s", compatCardDiff(got, want), body)
	}
}

// addedInterfaces is what got has beyond want, when want is got with some entries left out (in
// order); nil when got has nothing more or is not such a list.
func addedInterfaces(got, want []*a2a.AgentInterface) []*a2a.AgentInterface {
	if len(got) <= len(want) {
		return nil
	}
	var added []*a2a.AgentInterface
	i := 0
	for _, g := range got {
		if i < len(want) && reflect.DeepEqual(g, want[i]) {
			i++
			continue
		}
		added = append(added, g)
	}
	if i < len(want) {
		return nil
	}
	return added
}

// droppedByA2AV0 says iface is one that a2av0 leaves out of a 0.3 card: its main url, when the card
// names no preferredTransport (then JSONRPC's), or another transport at the main url.
func droppedByA2AV0(body []byte, iface *a2a.AgentInterface) bool {
	var card struct {
		URL                string `json:"url"`
		PreferredTransport string `json:"preferredTransport"`
	}
	if json.Unmarshal(body, &card) != nil || iface.URL != card.URL {
		return false
	}
	if card.PreferredTransport == "" {
		return true // the main url, at JSONRPC, or another transport there
	}
	return string(iface.ProtocolBinding) != card.PreferredTransport
}

// TestParseCompatCardKeepsWhat03Declares: the two interfaces a2av0 drops are there.
func TestParseCompatCardKeepsWhat03Declares(t *testing.T) {
	for name, c := range map[string]struct {
		body string
		want []string
	}{
		"no preferredTransport": {`{"name":"x","url":"http://h/rpc","protocolVersion":"0.3.0","capabilities":{}}`,
			[]string{"JSONRPC http://h/rpc"}},
		"two transports at one url": {`{"name":"x","url":"http://h/a","preferredTransport":"JSONRPC","protocolVersion":"0.3.0",
			"additionalInterfaces":[{"url":"http://h/a","transport":"JSONRPC"},{"url":"http://h/a","transport":"HTTP+JSON"},{"url":"http://h/g","transport":"GRPC"}],"capabilities":{}}`,
			[]string{"JSONRPC http://h/a", "HTTP+JSON http://h/a", "GRPC http://h/g"}},
	} {
		card, err := ParseCompatCard([]byte(c.body))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var got []string
		for _, iface := range card.SupportedInterfaces {
			got = append(got, string(iface.ProtocolBinding)+" "+iface.URL)
			if iface.ProtocolVersion != "0.3.0" {
				t.Errorf("%s: %s at version %q, want the card's 0.3.0", name, iface.URL, iface.ProtocolVersion)
			}
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: interfaces %v, want %v", name, got, c.want)
		}
	}
}

// compatCardDiff names the fields of two cards that differ, with both values (as JSON, and whether nil).
func compatCardDiff(got, want *a2a.AgentCard) string {
	var out strings.Builder
	g, w := reflect.ValueOf(got).Elem(), reflect.ValueOf(want).Elem()
	for i := range g.NumField() {
		if reflect.DeepEqual(g.Field(i).Interface(), w.Field(i).Interface()) {
			continue
		}
		fmt.Fprintf(&out, "%s: ParseCompatCard %s, a2av0 %s\n", g.Type().Field(i).Name, describeField(g.Field(i)), describeField(w.Field(i)))
	}
	return out.String()
}

// describeField shows a card's field as JSON, and whether it is nil, which JSON may not show.
func describeField(v reflect.Value) string {
	body, _ := json.Marshal(v.Interface())
	switch v.Kind() {
	case reflect.Map, reflect.Slice, reflect.Pointer:
		return fmt.Sprintf("%s (nil: %v)", body, v.IsNil())
	}
	return string(body)
}

// compatCard is a card of the corpus: where it comes from, its bytes, and whether a2av0 refuses it.
type compatCard struct {
	name  string
	body  []byte
	fails bool
}

// compatCorpus gathers the corpus, sorted by name: cards a2av0's producer writes and their plain
// 1.0 JSON, 0.3 cards a2a-go v0.3's serializer writes, the cards of testdata/cards, the cards
// a2aport's demo and test agents serve, and 0.3 cards as @a2a-js/sdk 0.3 writes them.
func compatCorpus(tb testing.TB) []compatCard {
	var corpus []compatCard
	for name, card := range compatV10Cards() {
		corpus = append(corpus,
			compatCard{name: "a2av0-producer/" + name, body: compatProduced(tb, card)},
			compatCard{name: "v1.0/" + name, body: marshalCard(tb, card)})
	}
	corpus = append(corpus, compatLegacyCards(tb)...)
	corpus = append(corpus, compatCardFiles(tb)...)
	corpus = append(corpus, compatServedCards(tb)...)
	for name, c := range compatHandWritten {
		corpus = append(corpus, compatCard{name: "hand/" + name, body: []byte(c.body), fails: c.fails})
	}
	slices.SortFunc(corpus, func(a, b compatCard) int { return strings.Compare(a.name, b.name) })
	return corpus
}

// marshalCard is v as encoding/json writes it: 1.0 JSON for a2a's types, 0.3 JSON for the legacy
// module's.
func marshalCard(tb testing.TB, v any) []byte {
	tb.Helper()
	body, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	return body
}

// compatProduced is card as a2a-go serves it to 0.3 clients: the union of the 0.3 and 1.0 formats.
func compatProduced(tb testing.TB, card *a2a.AgentCard) []byte {
	tb.Helper()
	producer, ok := a2av0.NewStaticAgentCardProducer(card).(a2asrv.AgentCardJSONProducer)
	if !ok {
		tb.Fatal("a2av0's card producer no longer writes its own JSON")
	}
	body, err := producer.CardJSON(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	return body
}

// Interfaces of the 1.0 cards. a2av0's producer needs one at 0.3 on every card.
var (
	cardRPC03  = &a2a.AgentInterface{URL: "https://agent.example/v03/rpc", ProtocolBinding: a2a.TransportProtocolJSONRPC, ProtocolVersion: "0.3"}
	cardREST03 = &a2a.AgentInterface{URL: "https://agent.example/v03/rest", ProtocolBinding: a2a.TransportProtocolHTTPJSON, ProtocolVersion: "0.3"}
	cardGRPC03 = &a2a.AgentInterface{URL: "agent.example:8443", ProtocolBinding: a2a.TransportProtocolGRPC, ProtocolVersion: "0.3"}
	cardRPC10  = &a2a.AgentInterface{URL: "https://agent.example/rpc", ProtocolBinding: a2a.TransportProtocolJSONRPC, ProtocolVersion: a2a.Version, Tenant: "acme"}
	cardREST10 = &a2a.AgentInterface{URL: "https://agent.example/rest", ProtocolBinding: a2a.TransportProtocolHTTPJSON, ProtocolVersion: a2a.Version}
	cardGRPC10 = &a2a.AgentInterface{URL: "agent.example:443", ProtocolBinding: a2a.TransportProtocolGRPC, ProtocolVersion: a2a.Version}
)

// compatV10Cards are 1.0 cards covering every field, security scheme kind and OAuth 2.0 flow, and the
// edges of the 0.3 mapping: one interface, a shared URL, a 1.0 interface first, empty lists.
func compatV10Cards() map[string]*a2a.AgentCard {
	scopes := map[string]string{"read": "read things", "write": "write things"}
	full := &a2a.AgentCard{
		Name: "full card", Description: "every field of a 1.0 card", Version: "2.4.0",
		SupportedInterfaces: []*a2a.AgentInterface{cardRPC03, cardREST03, cardGRPC03, cardRPC10, cardREST10, cardGRPC10},
		Provider:            &a2a.AgentProvider{Org: "Example", URL: "https://provider.example"},
		DocumentationURL:    "https://docs.example", IconURL: "https://icon.example/i.png",
		Capabilities: a2a.AgentCapabilities{Streaming: true, PushNotifications: true, ExtendedAgentCard: true,
			Extensions: []a2a.AgentExtension{
				{URI: "https://ext.example/v1", Description: "an extension", Required: true, Params: map[string]any{"level": 2.0, "modes": []any{"a", "b"}}},
				{URI: "https://ext.example/bare"},
			}},
		SecuritySchemes: a2a.NamedSecuritySchemes{
			"bearer":     a2a.HTTPAuthSecurityScheme{Scheme: "Bearer", BearerFormat: "JWT", Description: "a token"},
			"basic":      a2a.HTTPAuthSecurityScheme{Scheme: "Basic"},
			"header-key": a2a.APIKeySecurityScheme{Location: a2a.APIKeySecuritySchemeLocationHeader, Name: "X-Api-Key", Description: "a key"},
			"query-key":  a2a.APIKeySecurityScheme{Location: a2a.APIKeySecuritySchemeLocationQuery, Name: "api_key"},
			"cookie-key": a2a.APIKeySecurityScheme{Location: a2a.APIKeySecuritySchemeLocationCookie, Name: "session"},
			"oidc":       a2a.OpenIDConnectSecurityScheme{OpenIDConnectURL: "https://auth.example/.well-known/openid-configuration", Description: "sign in"},
			"mtls":       a2a.MutualTLSSecurityScheme{Description: "client certificate"},
			"oauth-code": a2a.OAuth2SecurityScheme{Description: "code", Oauth2MetadataURL: "https://auth.example/.well-known/oauth-authorization-server",
				Flows: a2a.AuthorizationCodeOAuthFlow{AuthorizationURL: "https://auth.example/authorize", TokenURL: "https://auth.example/token",
					RefreshURL: "https://auth.example/refresh", Scopes: scopes, PKCERequired: true}},
			"oauth-client": a2a.OAuth2SecurityScheme{Flows: a2a.ClientCredentialsOAuthFlow{TokenURL: "https://auth.example/token",
				RefreshURL: "https://auth.example/refresh", Scopes: scopes}},
			"oauth-implicit": a2a.OAuth2SecurityScheme{Flows: a2a.ImplicitOAuthFlow{AuthorizationURL: "https://auth.example/authorize", Scopes: scopes}},
			"oauth-password": a2a.OAuth2SecurityScheme{Flows: a2a.PasswordOAuthFlow{TokenURL: "https://auth.example/token", Scopes: map[string]string{}}},
			"oauth-device": a2a.OAuth2SecurityScheme{Flows: a2a.DeviceCodeOAuthFlow{DeviceAuthorizationURL: "https://auth.example/device",
				TokenURL: "https://auth.example/token", Scopes: scopes}},
		},
		SecurityRequirements: a2a.SecurityRequirementsOptions{{"bearer": {}}, {"oauth-code": {"read", "write"}, "mtls": {}}, {"header-key": nil}},
		DefaultInputModes:    []string{"text/plain", "application/json"},
		DefaultOutputModes:   []string{"text/markdown"},
		Skills: []a2a.AgentSkill{
			{ID: "report", Name: "report", Description: "writes reports", Tags: []string{"docs"}, Examples: []string{"a report on tides"},
				InputModes: []string{"text/plain"}, OutputModes: []string{"text/markdown"},
				SecurityRequirements: a2a.SecurityRequirementsOptions{{"oauth-client": {"read"}}, {"query-key": {}}}},
			{ID: "open", Name: "open", Description: "for anyone", Tags: []string{}},
		},
		Signatures: []a2a.AgentCardSignature{
			{Protected: "eyJhbGciOiJFUzI1NiJ9", Signature: "c2lnbmF0dXJl", Header: map[string]any{"kid": "key-1"}},
			{Protected: "eyJhbGciOiJSUzI1NiJ9", Signature: "c2lnbmF0dXJlMg"},
		},
	}
	sharedURL := *cardREST03
	sharedURL.URL = cardRPC03.URL
	return map[string]*a2a.AgentCard{
		"full":             full,
		"minimal":          {Name: "minimal", SupportedInterfaces: []*a2a.AgentInterface{cardRPC03}},
		"rest-first":       {Name: "rest first", SupportedInterfaces: []*a2a.AgentInterface{cardREST03, cardRPC03, cardGRPC03}},
		"shared-url":       {Name: "two bindings at one URL", SupportedInterfaces: []*a2a.AgentInterface{cardRPC03, &sharedURL}},
		"v1-first":         {Name: "1.0 first", SupportedInterfaces: []*a2a.AgentInterface{cardRPC10, cardREST03, cardRPC03}},
		"extended-only":    {Name: "extended", SupportedInterfaces: []*a2a.AgentInterface{cardRPC03}, Capabilities: a2a.AgentCapabilities{ExtendedAgentCard: true}},
		"skill-security":   {Name: "skill security", SupportedInterfaces: []*a2a.AgentInterface{cardRPC03}, SecuritySchemes: a2a.NamedSecuritySchemes{"mtls": a2a.MutualTLSSecurityScheme{}}, Skills: []a2a.AgentSkill{{ID: "s", SecurityRequirements: a2a.SecurityRequirementsOptions{{"mtls": {}}}}}},
		"empty-lists":      {Name: "empty lists", SupportedInterfaces: []*a2a.AgentInterface{cardRPC03}, DefaultInputModes: []string{}, DefaultOutputModes: []string{}, Skills: []a2a.AgentSkill{}, SecuritySchemes: a2a.NamedSecuritySchemes{}, SecurityRequirements: a2a.SecurityRequirementsOptions{}, Signatures: []a2a.AgentCardSignature{}},
		"empty-skill-reqs": {Name: "empty skill requirements", SupportedInterfaces: []*a2a.AgentInterface{cardRPC03}, Skills: []a2a.AgentSkill{{ID: "s", SecurityRequirements: a2a.SecurityRequirementsOptions{}}}},
	}
}

// compatLegacyCards are 0.3 cards as a2a-go v0.3 (the module a2av0 replaces) serializes them: every
// OAuth 2.0 flow 0.3 knows, a scheme with two flows (which a2av0 refuses: a 1.0 scheme has one),
// and a card without preferredTransport.
func compatLegacyCards(tb testing.TB) []compatCard {
	scopes := map[string]string{"read": "read things"}
	full := legacy.AgentCard{
		ProtocolVersion: "0.3.0", Name: "a2a-go 0.3", Description: "every flow", Version: "0.3.15",
		URL: "https://agent.example/rpc", PreferredTransport: legacy.TransportProtocolJSONRPC,
		AdditionalInterfaces: []legacy.AgentInterface{
			{URL: "https://agent.example/rpc", Transport: legacy.TransportProtocolJSONRPC},
			{URL: "https://agent.example/rest", Transport: legacy.TransportProtocolHTTPJSON},
			{URL: "agent.example:443", Transport: legacy.TransportProtocolGRPC},
		},
		Capabilities: legacy.AgentCapabilities{Streaming: true, StateTransitionHistory: true},
		SecuritySchemes: legacy.NamedSecuritySchemes{
			"code": legacy.OAuth2SecurityScheme{Flows: legacy.OAuthFlows{AuthorizationCode: &legacy.AuthorizationCodeOAuthFlow{
				AuthorizationURL: "https://auth.example/authorize", TokenURL: "https://auth.example/token", Scopes: scopes}}},
			"client":   legacy.OAuth2SecurityScheme{Flows: legacy.OAuthFlows{ClientCredentials: &legacy.ClientCredentialsOAuthFlow{TokenURL: "https://auth.example/token", Scopes: scopes}}},
			"implicit": legacy.OAuth2SecurityScheme{Description: "implicit", Flows: legacy.OAuthFlows{Implicit: &legacy.ImplicitOAuthFlow{AuthorizationURL: "https://auth.example/authorize", RefreshURL: "https://auth.example/refresh", Scopes: scopes}}},
			"password": legacy.OAuth2SecurityScheme{Oauth2MetadataURL: "https://auth.example/meta", Flows: legacy.OAuthFlows{Password: &legacy.PasswordOAuthFlow{TokenURL: "https://auth.example/token", Scopes: scopes}}},
			"cookie":   legacy.APIKeySecurityScheme{In: legacy.APIKeySecuritySchemeInCookie, Name: "session"},
			"bearer":   legacy.HTTPAuthSecurityScheme{Scheme: "bearer"},
			"oidc":     legacy.OpenIDConnectSecurityScheme{OpenIDConnectURL: "https://auth.example/.well-known/openid-configuration"},
			"mtls":     legacy.MutualTLSSecurityScheme{},
		},
		Security:           []legacy.SecurityRequirements{{"code": {"read"}}, {"cookie": {}, "mtls": {}}},
		DefaultInputModes:  []string{"text/plain"},
		DefaultOutputModes: []string{"text/plain"},
		Skills: []legacy.AgentSkill{
			{ID: "a", Name: "a", Description: "secured", Tags: []string{"t"}, Security: []legacy.SecurityRequirements{{"bearer": {}}, {"oidc": {"openid"}}}},
			{ID: "b", Name: "b", Description: "open", Tags: []string{"t"}},
		},
	}
	twoFlows := full
	twoFlows.Name = "two flows"
	twoFlows.SecuritySchemes = legacy.NamedSecuritySchemes{"oauth": legacy.OAuth2SecurityScheme{Flows: legacy.OAuthFlows{
		AuthorizationCode: &legacy.AuthorizationCodeOAuthFlow{AuthorizationURL: "https://auth.example/authorize", TokenURL: "https://auth.example/token", Scopes: scopes},
		ClientCredentials: &legacy.ClientCredentialsOAuthFlow{TokenURL: "https://auth.example/token", Scopes: scopes},
	}}}
	noTransport := full
	noTransport.Name, noTransport.PreferredTransport = "no preferredTransport", ""
	minimal := legacy.AgentCard{ProtocolVersion: "0.3.0", Name: "minimal", URL: "https://agent.example/rpc", PreferredTransport: legacy.TransportProtocolJSONRPC}
	return []compatCard{
		{name: "a2a-go-0.3/every-flow", body: marshalCard(tb, full)},
		{name: "a2a-go-0.3/two-flows", body: marshalCard(tb, twoFlows), fails: true},
		{name: "a2a-go-0.3/no-preferred-transport", body: marshalCard(tb, noTransport)},
		{name: "a2a-go-0.3/minimal", body: marshalCard(tb, minimal)},
	}
}

// compatFilesRefused are the cards of testdata/cards that a2av0 refuses: @a2a-js/sdk 1.x writes
// its security schemes and requirements in shapes a2a-go does not read (a2aport rewrites them
// before parsing).
var compatFilesRefused = []string{
	"a2a-js-1.3.0-served.json", "a2a-js-1.3.0-tojson.json", "signed-a2a-js-1.3.0-served-es256.json",
	"signed-a2a-js-1.3.0-tojson-jku.json", "signed-a2a-js-1.3.0-tojson-rs256.json", "signed-a2a-js-1.3.0-tojson-two.json",
}

// compatCardFiles are the cards a2aport's client tests read: written by a2a-go v0.3.15 and v2.4.0
// (tests/cards) and by @a2a-js/sdk 0.3 and 1.3 (js/test/cards).
func compatCardFiles(tb testing.TB) []compatCard {
	paths, err := filepath.Glob(filepath.Join("..", "a2aclient", "testdata", "cards", "*.json"))
	if err != nil || len(paths) == 0 {
		tb.Fatalf("no card files: %v", err)
	}
	var cards []compatCard
	for _, path := range paths {
		name := filepath.Base(path)
		if name == "signing-keys.jwks.json" {
			continue
		}
		body, err := os.ReadFile(path)
		if err != nil {
			tb.Fatal(err)
		}
		cards = append(cards, compatCard{name: "file/" + name, body: body, fails: slices.Contains(compatFilesRefused, name)})
	}
	return cards
}

// compatServedCards are the cards a2aport's demo agent and test agent serve, 0.3 ones included.
func compatServedCards(tb testing.TB) []compatCard {
	tb.Helper()
	var cards []compatCard
	demo := demoagent.Handler("https://demo.example", demoagent.Options{})
	for _, path := range []string{demoagent.CardPath, demoagent.RESTCardPath, demoagent.V03CardPath} {
		rec := httptest.NewRecorder()
		demo.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		if rec.Code != http.StatusOK {
			tb.Fatalf("demo agent %s: %d", path, rec.Code)
		}
		cards = append(cards, compatCard{name: "demoagent" + path, body: rec.Body.Bytes()})
	}

	srv, err := agent.Start()
	if err != nil {
		tb.Fatal(err)
	}
	defer srv.Close()
	urls := map[string]string{}
	for _, v := range agent.Variants() {
		urls[v.Name()] = srv.CardURL(v)
	}
	for _, name := range agent.SpecialCards() {
		urls[name] = srv.SpecialCardURL(name)
	}
	for name, url := range urls {
		resp, err := http.Get(url)
		if err != nil {
			tb.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			tb.Fatalf("test agent card %s: %d %v", name, resp.StatusCode, err)
		}
		// The port changes from run to run; the fuzzer's seeds had better not.
		body = []byte(strings.ReplaceAll(string(body), srv.URL(), "http://127.0.0.1:1"))
		body = []byte(strings.ReplaceAll(string(body), strings.Replace(srv.URL(), "127.0.0.1", "localhost", 1), "http://localhost:1"))
		cards = append(cards, compatCard{name: "testkit/" + name, body: body})
	}
	return cards
}

// compatHandWritten are 0.3 cards as @a2a-js/sdk 0.3 serves them, and the edges of the mapping: the
// 1.0 form winning over the 0.3 one, empty 1.0 lists, nulls, schemes a2av0 refuses, bad JSON.
var compatHandWritten = map[string]struct {
	body  string
	fails bool
}{
	"a2a-js-0.3/bearer": {body: `{"protocolVersion":"0.3.0","name":"Hello agent","description":"says hello","url":"http://localhost:4000/",
		"preferredTransport":"JSONRPC","additionalInterfaces":[{"url":"http://localhost:4000/","transport":"JSONRPC"},
		{"url":"http://localhost:4000/rest","transport":"HTTP+JSON"}],"version":"1.0.0",
		"capabilities":{"streaming":true,"pushNotifications":false,"stateTransitionHistory":true},
		"securitySchemes":{"bearer":{"type":"http","scheme":"bearer"}},"security":[{"bearer":[]}],
		"defaultInputModes":["text"],"defaultOutputModes":["text"],
		"skills":[{"id":"hello","name":"Hello","description":"greets","tags":["greeting"],"examples":["hi"]}],
		"supportsAuthenticatedExtendedCard":false}`},
	"a2a-js-0.3/url-only": {body: `{"protocolVersion":"0.3.0","name":"one url","description":"","url":"http://localhost:4000/",
		"preferredTransport":"JSONRPC","version":"1.0.0","capabilities":{},"defaultInputModes":["text"],"defaultOutputModes":["text"],"skills":[]}`},
	"a2a-js-0.3/oauth-code": {body: `{"protocolVersion":"0.3.0","name":"oauth","description":"","url":"https://a.example/rpc",
		"preferredTransport":"JSONRPC","version":"1","capabilities":{"extensions":[{"uri":"urn:x","required":true}]},
		"securitySchemes":{"oauth":{"type":"oauth2","description":"login","flows":{"authorizationCode":{"authorizationUrl":"https://auth/a",
		"tokenUrl":"https://auth/t","scopes":{"read":"r"}}}},"key":{"type":"apiKey","in":"header","name":"X-Key"},
		"oidc":{"type":"openIdConnect","openIdConnectUrl":"https://auth/.well-known/openid-configuration"},"mtls":{"type":"mutualTLS"}},
		"security":[{"oauth":["read"]},{"key":[],"mtls":[]}],"defaultInputModes":[],"defaultOutputModes":[],
		"skills":[{"id":"s","name":"s","description":"","tags":[],"security":[{"oidc":[]}]}],"supportsAuthenticatedExtendedCard":true}`},
	"a2a-js-0.3/no-protocol-version": {body: `{"name":"old","url":"http://localhost:4000/","preferredTransport":"HTTP+JSON",
		"additionalInterfaces":[{"url":"http://localhost:4000/grpc","transport":"GRPC"}],"capabilities":{},"skills":[]}`},
	"a2a-js-0.3/no-preferred-transport": {body: `{"protocolVersion":"0.3.0","name":"no transport","url":"http://localhost:4000/",
		"additionalInterfaces":[{"url":"http://localhost:4000/rest","transport":"HTTP+JSON"}],"capabilities":{},"skills":[]}`},
	"a2a-js-0.3/shared-url": {body: `{"protocolVersion":"0.3.0","name":"shared","url":"http://localhost:4000/","preferredTransport":"JSONRPC",
		"additionalInterfaces":[{"url":"http://localhost:4000/","transport":"HTTP+JSON"}],"capabilities":{},"skills":[]}`},
	"a2a-js-0.3/two-flows": {fails: true, body: `{"protocolVersion":"0.3.0","name":"two flows","url":"http://localhost:4000/",
		"preferredTransport":"JSONRPC","securitySchemes":{"oauth":{"type":"oauth2","flows":{"implicit":{"authorizationUrl":"https://a",
		"scopes":{}},"password":{"tokenUrl":"https://t","scopes":{}}}}},"capabilities":{},"skills":[]}`},
	"a2a-js-0.3/unknown-type": {fails: true, body: `{"protocolVersion":"0.3.0","name":"digest","url":"http://localhost:4000/",
		"preferredTransport":"JSONRPC","securitySchemes":{"d":{"type":"digest"}},"capabilities":{},"skills":[]}`},
	"a2a-js-0.3/unknown-flow": {fails: true, body: `{"protocolVersion":"0.3.0","name":"flow","url":"http://localhost:4000/",
		"preferredTransport":"JSONRPC","securitySchemes":{"o":{"type":"oauth2","flows":{"accessCode":{}}}},"capabilities":{},"skills":[]}`},
	"badinput/v03-relative": {body: `{"name":"x","version":"1","protocolVersion":"0.3.0","url":"/rpc","preferredTransport":"JSONRPC",
		"capabilities":{},"defaultInputModes":[],"defaultOutputModes":[],"skills":[]}`},
	"union/1.0-wins": {body: `{"name":"both","url":"http://a/03","preferredTransport":"JSONRPC","protocolVersion":"0.3",
		"supportedInterfaces":[{"url":"http://a/10","protocolBinding":"HTTP+JSON","protocolVersion":"1.0","tenant":"t"}],
		"security":[{"x":[]}],"securityRequirements":[{"schemes":{"y":["s"]}}],
		"securitySchemes":{"k":{"type":"apiKey","in":"query","name":"q","apiKey":{"location":"header","name":"h"}},
		"h":{"type":"http","scheme":"basic","http":{"scheme":"Bearer"}},"m":{"type":"mutualTLS","mutualTLS":{"description":"nested"}},
		"o":{"type":"openIdConnect","openIdConnectUrl":"a","openIdConnect":{"openIdConnectUrl":"b"}},
		"x":{"type":"oauth2","flows":{"deviceCode":{"deviceAuthorizationUrl":"d","tokenUrl":"t","scopes":{}}},"oauth2":{"description":"ignored"}}},
		"skills":[{"id":"s","security":[{"x":[]}],"securityRequirements":[{"schemes":{"y":[]}}]}],
		"capabilities":{"extendedAgentCard":false},"supportsAuthenticatedExtendedCard":true}`},
	"union/empty-1.0-lists": {body: `{"name":"empty","url":"http://a/03","preferredTransport":"JSONRPC","protocolVersion":"0.3",
		"supportedInterfaces":[],"securityRequirements":[],"security":[{"x":["a"]}],
		"skills":[{"id":"s","securityRequirements":[],"security":[{"x":[]}]},{"id":"t","securityRequirements":[]}]}`},
	"union/empty-lists-only": {body: `{"name":"empty","supportedInterfaces":[],"securityRequirements":[],"security":[],"securitySchemes":{},"skills":[{"securityRequirements":[],"security":[]}]}`},
	"v1.0/two-kinds": {body: `{"name":"two kinds","securitySchemes":{"s":{"httpAuthSecurityScheme":{"scheme":"Bearer"},"apiKeySecurityScheme":{"location":"header","name":"k"}},
		"t":{"type":"","oauth2SecurityScheme":{"flows":{"implicit":{"authorizationUrl":"a"}}},"openIdConnectSecurityScheme":{"openIdConnectUrl":"o"}},
		"u":{"oauth2SecurityScheme":{"flows":{"password":{"tokenUrl":"t"}}},"mtlsSecurityScheme":{"description":"m"}},
		"v":{"mtlsSecurityScheme":{},"httpAuthSecurityScheme":{"scheme":"Basic"}}}}`},
	"a2a-js-0.3/fields-of-other-kinds": {body: `{"securitySchemes":{"k":{"type":"apiKey","in":"header","name":"k","scheme":"bearer","flows":5,"openIdConnectUrl":7},
		"h":{"type":"http","scheme":"basic","in":1,"flows":2},"m":{"type":"mutualTLS","name":3,"http":4},"o":{"type":"openIdConnect","openIdConnectUrl":"u","scheme":5},
		"a":{"type":"oauth2","flows":{"implicit":{"authorizationUrl":"a","scopes":{}}},"oauth2":5,"in":6,"name":7}}}`},
	"v1.0/no-kind":       {fails: true, body: `{"name":"no kind","securitySchemes":{"s":{}}}`},
	"v1.0/oauth-no-flow": {fails: true, body: `{"name":"no flow","securitySchemes":{"s":{"oauth2SecurityScheme":{"flows":{}}}}}`},
	"nulls": {body: `{"name":null,"securitySchemes":null,"skills":[null],"security":[null,{"a":null}],"additionalInterfaces":[null],
		"url":"http://a","preferredTransport":"JSONRPC","supportedInterfaces":null,"securityRequirements":null,"capabilities":null,"provider":null}`},
	"nulls-in-1.0-lists": {body: `{"supportedInterfaces":[null],"securityRequirements":[{}],"securitySchemes":{"k":{"type":"apiKey","apiKey":null}}}`},
	"duplicate-keys": {body: `{"skills":[{"id":"a","security":[{"x":[]}]}],"skills":[{"name":"b"}],
		"securitySchemes":{"a":{"type":"mutualTLS"}},"securitySchemes":{"b":{"type":"apiKey","Type":"http","scheme":"basic"}},
		"url":"http://a","url":"http://b","preferredTransport":"JSONRPC","additionalInterfaces":[{"url":"http://b"}]}`},
	"duplicate-flows": {fails: true, body: `{"securitySchemes":{"o":{"type":"oauth2","flows":{"implicit":{}},"flows":{"password":{}}}}}`},
	"null":            {body: `null`},
	"null-scheme":     {fails: true, body: `{"securitySchemes":{"n":null}}`},
	"empty-object":    {body: `{}`},
	"array":           {fails: true, body: `[1, 2, 3]`},
	"truncated":       {fails: true, body: `{"name":"x","url":"http://127.0.0.1:1/a`},
	"wrong-type":      {fails: true, body: `{"name":"x","url":5}`},
	"wrong-scope":     {fails: true, body: `{"security":[{"a":{}}]}`},
	"wrong-nested":    {fails: true, body: `{"securitySchemes":{"s":{"type":"http","apiKeySecurityScheme":5}}}`},
	"case-folded-key": {body: `{"NAME":"folded","URL":"http://a","PreferredTransport":"GRPC","securitySchemes":{"s":{"TYPE":"http","Scheme":"basic"}}}`},
}
