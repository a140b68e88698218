package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSpecCardValidate: CARD_GET_002. card get --validate reads a card against A2A 1.0's schema
// (its proto definition, field behaviours and all), at every level: a card as the specification
// writes it is valid; a missing REQUIRED field is named by its path, also inside an interface; a
// member of the wrong type (one the reader of cards drops as unreadable) makes it no AgentCard; security requirements written as a2a-go v2.4.0
// writes them (a bare list of scopes) are named; a member the schema does not know is a note; a
// card of A2A 0.3 alone is held to 0.3's fields, and says so.
func TestSpecCardValidate(t *testing.T) {
	t.Parallel()
	const valid = `{"name":"schema agent","description":"checked","version":"1.0.0",
		"supportedInterfaces":[{"url":"https://agent.example/a2a","protocolBinding":"JSONRPC","protocolVersion":"1.0"}],
		"capabilities":{"streaming":true},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],
		"securitySchemes":{"google":{"openIdConnectSecurityScheme":{"openIdConnectUrl":"https://accounts.example/.well-known/openid-configuration"}}},
		"securityRequirements":[{"schemes":{"google":{"list":["openid"]}}}],
		"skills":[{"id":"s","name":"skill","description":"does","tags":["t"]}]}`
	dir := t.TempDir()
	write := func(name, card string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(card), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	for _, c := range []struct {
		name, card string
		ok         bool
		want       []string // in the error's message
		note       string   // on stderr
	}{
		{"as the specification writes it", valid, true, nil, ""},
		{"no description", strings.Replace(valid, `"description":"checked",`, ``, 1), false, []string{"description"}, ""},
		{"an interface without its url", strings.Replace(valid, `"url":"https://agent.example/a2a",`, ``, 1), false, []string{"supportedInterfaces[0].url"}, ""},
		{"a skill without tags", strings.Replace(valid, `,"tags":["t"]`, ``, 1), false, []string{"skills[0].tags"}, ""},
		{"a URL written as a number", strings.Replace(valid, `"version":"1.0.0",`, `"version":"1.0.0","documentationUrl":5,`, 1), false, []string{"not an A2A 1.0 AgentCard", "documentationUrl"}, ""},
		{"scopes as a bare list", strings.Replace(valid, `{"list":["openid"]}`, `["openid"]`, 1), false, []string{`securityRequirements[0].schemes["google"]: a bare list`}, ""},
		{"a member 0.3 has", strings.Replace(valid, `"version":"1.0.0",`, `"version":"1.0.0","preferredTransport":"JSONRPC",`, 1), true, nil, `unknown field "preferredTransport"`},
		{"a card of 0.3", `{"name":"old","description":"d","version":"1","url":"https://agent.example/a2a","protocolVersion":"0.3.0",
			"capabilities":{},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"skills":[]}`, true, nil, "an A2A 0.3 card"},
	} {
		out, errOut, code := runCLI(t, nil, "card", "get", write(strings.ReplaceAll(c.name, " ", "-")+".json", c.card), "--validate")
		switch {
		case c.ok && (code != exitOK || !strings.Contains(out, "Valid: yes")):
			t.Errorf("%s: exit %d, want valid\n%s%s", c.name, code, out, errOut)
		case !c.ok && (code != exitError || !strings.Contains(out, "Valid: no") || !strings.Contains(errOut, "A2ACLI_ERR_CARD_INVALID")):
			t.Errorf("%s: exit %d, want invalid\n%s%s", c.name, code, out, errOut)
		case c.note != "" && !strings.Contains(errOut, c.note):
			t.Errorf("%s: no note %q\n%s", c.name, c.note, errOut)
		}
		for _, w := range c.want {
			if !strings.Contains(errOut, w) {
				t.Errorf("%s: the error does not name %q:\n%s", c.name, w, errOut)
			}
		}
	}
}
