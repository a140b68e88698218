package a2aclient

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// cardParsers are the two parsers an adapter may use: 1.0 only (LegacyCompatOff), and the 0.3
// compat union.
func cardParsers() map[string]func([]byte) (*a2a.AgentCard, error) {
	return map[string]func([]byte) (*a2a.AgentCard, error){"1.0": parseCurrentCard, "0.3-compat": parseLegacyCard}
}

const iface = `"supportedInterfaces":[{"url":"http://127.0.0.1:1/a2a","protocolBinding":"JSONRPC","protocolVersion":"1.0"}]`

func TestParseCard(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		body      string
		wantReqs  a2a.SecurityRequirementsOptions // card-level requirements after parsing
		wantSkill []string                        // skill ids kept
		wantNotes []string                        // substrings, one per note, in order
		wantErr   string
	}{{
		name:     "proto-JSON scopes with a list",
		body:     `{` + iface + `,"securityRequirements":[{"schemes":{"oauth":{"list":["read","write"]}}}]}`,
		wantReqs: a2a.SecurityRequirementsOptions{{"oauth": {"read", "write"}}},
	}, {
		name:     "proto-JSON empty scopes written as {}",
		body:     `{` + iface + `,"securityRequirements":[{"schemes":{"bearer":{}}}]}`,
		wantReqs: a2a.SecurityRequirementsOptions{{"bearer": {}}},
	}, {
		name:     "a2a-go's own shape is kept",
		body:     `{` + iface + `,"securityRequirements":[{"schemes":{"bearer":[],"key":["x"]}}]}`,
		wantReqs: a2a.SecurityRequirementsOptions{{"bearer": {}, "key": {"x"}}},
	}, {
		name:     "null scopes and a null list",
		body:     `{` + iface + `,"securityRequirements":[{"schemes":{"a":null,"b":{"list":null}}}]}`,
		wantReqs: a2a.SecurityRequirementsOptions{{"a": {}, "b": {}}},
	}, {
		name:      "skill requirements in proto-JSON",
		body:      `{` + iface + `,"skills":[{"id":"s","name":"s","securityRequirements":[{"schemes":{"bearer":{}}}]}]}`,
		wantSkill: []string{"s"},
	}, {
		name:      "an unreadable optional field is ignored and noted",
		body:      `{` + iface + `,"provider":5,"name":"n"}`,
		wantNotes: []string{`"provider"`},
	}, {
		name:      "an unreadable skill is dropped, the others kept",
		body:      `{` + iface + `,"skills":[{"id":"good","name":"g"},{"id":7},{"id":"also","name":"a"}]}`,
		wantSkill: []string{"good", "also"},
		wantNotes: []string{"skill 1"},
	}, {
		name:     "unknown extra fields are ignored silently",
		body:     `{` + iface + `,"x-vendor":{"a":1},"securityRequirements":[]}`,
		wantReqs: a2a.SecurityRequirementsOptions{},
	}, {
		name:      "nulls where lists and objects are expected, empty optional objects",
		body:      `{` + iface + `,"skills":null,"defaultInputModes":null,"securityRequirements":null,"securitySchemes":{},"provider":{},"capabilities":{},"signatures":null}`,
		wantSkill: nil,
	}, {
		name:      "a skill of nulls is kept",
		body:      `{` + iface + `,"skills":[{"id":"s","name":"s","tags":null,"examples":null,"securityRequirements":null}]}`,
		wantSkill: []string{"s"},
	}, {
		name:    "an unreadable needed field fails, naming it",
		body:    `{` + iface + `,"capabilities":"yes"}`,
		wantErr: `field "capabilities"`,
	}, {
		name:    "not an object",
		body:    `[1,2]`,
		wantErr: "not a JSON object",
	}, {
		name:    "not JSON",
		body:    `{"name":`,
		wantErr: "not valid JSON",
	}}
	for _, tt := range tests {
		for pname, parse := range cardParsers() {
			t.Run(tt.name+"/"+pname, func(t *testing.T) {
				t.Parallel()
				card, notes, err := parseCard([]byte(tt.body), parse)
				if tt.wantErr != "" {
					if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
						t.Fatalf("parseCard() error = %v, want one containing %q", err, tt.wantErr)
					}
					return
				}
				if err != nil {
					t.Fatalf("parseCard() error = %v", err)
				}
				if tt.wantReqs != nil && !reflect.DeepEqual(normReqs(card.SecurityRequirements), normReqs(tt.wantReqs)) {
					t.Errorf("SecurityRequirements = %v, want %v", card.SecurityRequirements, tt.wantReqs)
				}
				if tt.wantSkill != nil {
					var ids []string
					for _, s := range card.Skills {
						ids = append(ids, s.ID)
					}
					if !reflect.DeepEqual(ids, tt.wantSkill) {
						t.Errorf("skills = %v, want %v", ids, tt.wantSkill)
					}
				}
				if len(notes) != len(tt.wantNotes) {
					t.Fatalf("notes = %q, want %d containing %q", notes, len(tt.wantNotes), tt.wantNotes)
				}
				for i, want := range tt.wantNotes {
					if !strings.Contains(notes[i], want) {
						t.Errorf("note %d = %q, want it to contain %q", i, notes[i], want)
					}
				}
			})
		}
	}
}

// normReqs treats a nil scope list and an empty one alike (both mean "no scopes").
func normReqs(in a2a.SecurityRequirementsOptions) []map[a2a.SecuritySchemeName][]string {
	out := []map[a2a.SecuritySchemeName][]string{}
	for _, req := range in {
		m := map[a2a.SecuritySchemeName][]string{}
		for name, scopes := range req {
			m[name] = append([]string{}, scopes...)
		}
		out = append(out, m)
	}
	return out
}

// TestParseCardFromA2AJS reads the cards as @a2a-js/sdk 1.3.0 emits them (js/test/cards/generate.mjs):
// every field a2aport may use survives, and nothing is ignored.
func TestParseCardFromA2AJS(t *testing.T) {
	t.Parallel()
	corpus := []struct {
		file    string
		version string // which parsers read it: "1.0" both, "0.3" only the compat one
	}{
		{"a2a-js-1.3.0-tojson.json", "1.0"},
		{"a2a-js-1.3.0-served.json", "1.0"},
		{"a2a-js-1.3.0-served-0.3.json", "0.3"},
	}
	for _, c := range corpus {
		body, err := os.ReadFile("testdata/cards/" + c.file)
		if err != nil {
			t.Fatal(err)
		}
		for pname, parse := range cardParsers() {
			if c.version == "0.3" && pname == "1.0" {
				continue
			}
			card, notes, err := parseCard(body, parse)
			if err != nil || len(notes) != 0 {
				t.Fatalf("%s/%s: parseCard() = notes %q, error %v; want neither", c.file, pname, notes, err)
			}
			want := normReqs(a2a.SecurityRequirementsOptions{{"bearer": {}}, {"oauth": {"read"}, "key": {}}})
			if got := normReqs(card.SecurityRequirements); !reflect.DeepEqual(got, want) {
				t.Errorf("%s/%s: SecurityRequirements = %v, want %v", c.file, pname, got, want)
			}
			if len(card.SecuritySchemes) != 6 || len(card.Skills) != 1 || len(card.Skills[0].SecurityRequirements) != 1 {
				t.Errorf("%s/%s: %d schemes, %d skills: the card lost fields", c.file, pname, len(card.SecuritySchemes), len(card.Skills))
			}
			oauth, _ := card.SecuritySchemes["oauth"].(a2a.OAuth2SecurityScheme)
			if flow, ok := oauth.Flows.(a2a.ClientCredentialsOAuthFlow); !ok || flow.TokenURL != "https://auth.example/token" {
				t.Errorf("%s/%s: oauth flows = %#v, want client credentials with its token URL", c.file, pname, oauth.Flows)
			}
			if key, _ := card.SecuritySchemes["key"].(a2a.APIKeySecurityScheme); key.Name != "api_key" || key.Location != a2a.APIKeySecuritySchemeLocationQuery {
				t.Errorf("%s/%s: api key scheme = %#v", c.file, pname, card.SecuritySchemes["key"])
			}
			if got := len(card.SupportedInterfaces); got != 3 {
				t.Errorf("%s/%s: %d interfaces, want 3", c.file, pname, got)
			}
		}
	}
}

// TestParseCardLegacySchemes: security schemes in 0.3 form, as a2a-go's a2av0 producer writes
// them into 0.3/1.0 union cards, are read by both parsers.
func TestParseCardLegacySchemes(t *testing.T) {
	t.Parallel()
	body := `{` + iface + `,"securitySchemes":{"b":{"type":"http","scheme":"Bearer"},"k":{"type":"apiKey","in":"query","name":"x"},` +
		`"o":{"type":"openIdConnect","openIdConnectUrl":"https://id.example"},"m":{"type":"mutualTLS"},"new":{"httpAuthSecurityScheme":{"scheme":"Basic"}}}}`
	for pname, parse := range cardParsers() {
		card, notes, err := parseCard([]byte(body), parse)
		if err != nil || len(notes) != 0 {
			t.Fatalf("%s: parseCard() = notes %q, error %v", pname, notes, err)
		}
		b, _ := card.SecuritySchemes["b"].(a2a.HTTPAuthSecurityScheme)
		k, _ := card.SecuritySchemes["k"].(a2a.APIKeySecurityScheme)
		o, _ := card.SecuritySchemes["o"].(a2a.OpenIDConnectSecurityScheme)
		_, m := card.SecuritySchemes["m"].(a2a.MutualTLSSecurityScheme)
		n, _ := card.SecuritySchemes["new"].(a2a.HTTPAuthSecurityScheme)
		if b.Scheme != "Bearer" || k.Location != a2a.APIKeySecuritySchemeLocationQuery || k.Name != "x" || o.OpenIDConnectURL != "https://id.example" || !m || n.Scheme != "Basic" {
			t.Errorf("%s: schemes = %#v", pname, card.SecuritySchemes)
		}
	}
}
