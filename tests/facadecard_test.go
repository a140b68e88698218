package tests

import (
	"encoding/json"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/facade"
)

// everyScheme is one security scheme of each kind and flow that facade.Options can declare.
var everyScheme = a2a.NamedSecuritySchemes{
	"bearer": a2a.HTTPAuthSecurityScheme{Scheme: "Bearer", BearerFormat: "JWT", Description: "a bearer token"},
	"basic":  a2a.HTTPAuthSecurityScheme{Scheme: "Basic"},
	"header": a2a.APIKeySecurityScheme{Location: a2a.APIKeySecuritySchemeLocationHeader, Name: "X-Key"},
	"query":  a2a.APIKeySecurityScheme{Location: a2a.APIKeySecuritySchemeLocationQuery, Name: "key"},
	"cookie": a2a.APIKeySecurityScheme{Location: a2a.APIKeySecuritySchemeLocationCookie, Name: "session"},
	"client": a2a.OAuth2SecurityScheme{Flows: a2a.ClientCredentialsOAuthFlow{TokenURL: "https://auth.example/token", Scopes: map[string]string{"read": "read tasks"}}},
	"code": a2a.OAuth2SecurityScheme{Oauth2MetadataURL: "https://auth.example/.well-known/oauth-authorization-server",
		Flows: a2a.AuthorizationCodeOAuthFlow{AuthorizationURL: "https://auth.example/authorize", TokenURL: "https://auth.example/token", Scopes: map[string]string{"read": "read tasks"}, PKCERequired: true}},
	"implicit": a2a.OAuth2SecurityScheme{Flows: a2a.ImplicitOAuthFlow{AuthorizationURL: "https://auth.example/authorize", Scopes: map[string]string{}}},
	"password": a2a.OAuth2SecurityScheme{Flows: a2a.PasswordOAuthFlow{TokenURL: "https://auth.example/token", Scopes: map[string]string{"read": "read tasks"}}},
	"device":   a2a.OAuth2SecurityScheme{Flows: a2a.DeviceCodeOAuthFlow{DeviceAuthorizationURL: "https://auth.example/device", TokenURL: "https://auth.example/token", Scopes: map[string]string{}}},
	"oidc":     a2a.OpenIDConnectSecurityScheme{OpenIDConnectURL: "https://auth.example/.well-known/openid-configuration"},
	"mtls":     a2a.MutualTLSSecurityScheme{Description: "a client certificate"},
}

var everyRequirement = a2a.SecurityRequirementsOptions{{"bearer": {}}, {"client": {"read"}, "header": {}}, {"mtls": {}}}

// TestFacadeCardSecurity: the card a facade serves with a security scheme of every kind is read
// back whole by a2a-go's 1.0 card resolver, its 0.3 reader, a2aport's own reader (natively and in
// the module) and @a2a-js/sdk's (1.3.0, with and without its 0.3 layer, and 0.3.14).
func TestFacadeCardSecurity(t *testing.T) {
	t.Parallel()
	card := serveFacade(t, innerPort(t), facade.Options{Name: "facade", SecuritySchemes: everyScheme, SecurityRequirements: everyRequirement})
	base := strings.TrimSuffix(card, facade.CardPath)
	ctx := testContext(t)

	current, err := agentcard.DefaultResolver.Resolve(ctx, base)
	if err != nil {
		t.Fatalf("a2a-go's card resolver: %v", err)
	}
	if !reflect.DeepEqual(current.SecuritySchemes, everyScheme) || !reflect.DeepEqual(current.SecurityRequirements, everyRequirement) {
		t.Errorf("a2a-go's card resolver read\n%+v\n%+v\nwant\n%+v\n%+v", current.SecuritySchemes, current.SecurityRequirements, everyScheme, everyRequirement)
	}
	legacy, err := (&agentcard.Resolver{CardParser: a2av0.NewAgentCardParser()}).Resolve(ctx, base)
	if err != nil {
		t.Fatalf("a2a-go's 0.3 reader: %v", err)
	}
	if !reflect.DeepEqual(legacy.SecuritySchemes, everyScheme) {
		t.Errorf("a2a-go's 0.3 reader read\n%+v\nwant\n%+v", legacy.SecuritySchemes, everyScheme)
	}
	for _, impl := range implementations {
		p := newPort(t, impl, a2aport.Options{AgentCardURL: card})
		if _, err := p.Start(ctx); err != nil {
			t.Fatalf("%s: %v", impl.name, err)
		}
		d := p.Describe()
		if len(d.Security.Schemes) != len(everyScheme) || len(d.CardNotes) != 0 {
			t.Errorf("%s: describe().security = %+v, notes %v; want the %d schemes", impl.name, d.Security, d.CardNotes, len(everyScheme))
		}
	}

	got := readCardWithSDK(t, base)
	for reader, want := range map[string]a2a.NamedSecuritySchemes{"v1": everyScheme, "v1compat": everyScheme, "v03": everyScheme} {
		r := got[reader]
		if r.Error != "" {
			t.Errorf("@a2a-js/sdk %s: %s", reader, r.Error)
			continue
		}
		for name, scheme := range want {
			if !sdkSchemeMatches(r.Schemes[string(name)], scheme) {
				t.Errorf("@a2a-js/sdk %s read scheme %q as %s; want %+v", reader, name, r.Schemes[string(name)], scheme)
			}
		}
		if len(r.Schemes) != len(want) {
			t.Errorf("@a2a-js/sdk %s read %d schemes, want %d", reader, len(r.Schemes), len(want))
		}
		if !strings.Contains(string(r.Requirements), `"client"`) || !strings.Contains(string(r.Requirements), `"read"`) {
			t.Errorf("@a2a-js/sdk %s read the requirements as %s", reader, r.Requirements)
		}
	}

	// The card stays what it was without schemes: the union form, byte for byte a2a-go's.
	plain := serveFacade(t, innerPort(t), facade.Options{Name: "facade"})
	resp, err := http.Get(plain)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	body, _ := io.ReadAll(resp.Body)
	if strings.Contains(string(body), "securitySchemes\": {\n") {
		t.Errorf("a card without schemes declares some: %s", body)
	}
}

// sdkRead is what one of @a2a-js/sdk's readers made of a card's security.
type sdkRead struct {
	Schemes      map[string]json.RawMessage `json:"schemes"`
	Requirements json.RawMessage            `json:"requirements"`
	Error        string                     `json:"error"`
}

// readCardWithSDK runs js/test/readcard.mjs on the card at base.
func readCardWithSDK(t *testing.T, base string) map[string]sdkRead {
	t.Helper()
	script, err := filepath.Abs("../js/test/readcard.mjs")
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("node", script, base).Output()
	if err != nil {
		t.Fatalf("readcard.mjs: %v (needs node and js/node_modules: make js/node_modules)", err)
	}
	var got map[string]sdkRead
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("readcard.mjs printed %q: %v", out, err)
	}
	return got
}

// sdkSchemeMatches reports whether the SDK's JSON of a scheme says what scheme says: its kind and
// every value. The 1.3 SDK writes the proto oneof ({"scheme": {"$case": ..., "value": ...}}), the
// 0.3 one the JSON schema's "type"; both are searched for the values alone.
func sdkSchemeMatches(raw json.RawMessage, scheme a2a.SecurityScheme) bool {
	if raw == nil {
		return false
	}
	text := string(raw)
	var values []string
	switch s := scheme.(type) {
	case a2a.HTTPAuthSecurityScheme:
		values = []string{s.Scheme, s.BearerFormat, s.Description}
	case a2a.APIKeySecurityScheme:
		values = []string{string(s.Location), s.Name}
	case a2a.OAuth2SecurityScheme:
		values = []string{s.Oauth2MetadataURL}
		data, _ := json.Marshal(s.Flows)
		var flow map[string]any
		_ = json.Unmarshal(data, &flow)
		for _, v := range flow {
			if str, ok := v.(string); ok {
				values = append(values, str)
			}
		}
	case a2a.OpenIDConnectSecurityScheme:
		values = []string{s.OpenIDConnectURL}
	case a2a.MutualTLSSecurityScheme:
		values = []string{s.Description}
	}
	for _, v := range values {
		if v != "" && !strings.Contains(text, `"`+v+`"`) {
			return false
		}
	}
	return true
}
