package gateway

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestExampleConfig: the repository's complete example configuration reads, with its
// environment and file references replaced.
func TestExampleConfig(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "token-2")
	if err := os.WriteFile(secret, []byte("second-token\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	example, err := os.ReadFile("gateway.yaml")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "gateway.yaml")
	if err := os.WriteFile(path, []byte(strings.ReplaceAll(string(example), "/run/secrets/gateway-token-2", secret)), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GATEWAY_TOKEN", "first-token")
	t.Setenv("CI_TOKEN", "ci-token")
	t.Setenv("WEATHER_TOKEN", "weather-secret")
	t.Setenv("TRAVEL_CLIENT_SECRET", "travel-secret")
	c, err := ReadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Auth.BearerTokens; len(got) != 3 || got[0].Token != "first-token" || got[1].Token != "second-token" || got[2] != (BearerToken{Name: "ci", Token: "ci-token"}) {
		t.Errorf("bearer tokens %+v", got)
	}
	if len(c.Backends) != 3 || c.Backends[0].Credentials["bearer"].Token != "weather-secret" || c.Backends[0].timeout != 2*time.Minute ||
		!c.Backends[0].ReuseContext || c.Backends[1].ProtocolVersion != "0.3" || c.Backends[1].Credentials["oauth"].ClientSecret != "travel-secret" ||
		!c.Backends[2].Disabled || c.keepAlive != 15*time.Second || c.Limits.MaxTasksPerCaller != 16 || c.Limits.retention != time.Hour || c.Default != "weather" {
		t.Errorf("config %+v", c)
	}
	opts, err := c.Options(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range opts.Backends {
		_ = b.Port.Close()
	}
	if len(opts.Backends) != 3 || opts.Identify == nil || opts.Facade.BaseURL != "https://agents.example.com" {
		t.Errorf("options %+v", opts)
	}
}

// TestConfigErrors: each mistake names the file, the line and the field, and nothing starts.
func TestConfigErrors(t *testing.T) {
	const good = "backends:\n  - name: a\n    card: http://127.0.0.1:1/card\n"
	for _, c := range []struct {
		name, yaml string
		line       int
		field, msg string
	}{
		{"unknown field", good + "    colour: blue\n", 4, "", "unknown field"},
		{"missing variable", "name: ${A2APORT_TEST_UNSET}\n" + good, 1, "name", "A2APORT_TEST_UNSET is not set"},
		{"missing file", good + "    description: ${file:/nonexistent/x}\n", 4, "backends[0].description", "no such file"},
		{"bad card", "backends:\n  - name: a\n    card: not a url\n", 3, "backends[0].card", "absolute http(s) URL"},
		{"user info", "backends:\n  - name: a\n    card: http://u:p@x/card\n", 3, "backends[0].card", "user info"},
		{"bad name", "backends:\n  - name: A B\n    card: http://x/card\n", 2, "backends[0].name", "lower-case"},
		{"twice the name", good + "  - name: a\n    card: http://x/card\n", 4, "backends[1].name", "another backend"},
		{"unknown default", "default: b\n" + good, 1, "default", "names no backend"},
		{"no backends", "name: x\n", 0, "backends", "no backend"},
		{"bad version", good + "    protocolVersion: \"2.0\"\n", 4, "backends[0].protocolVersion", "1.0 or 0.3"},
		{"bad duration", good + "    timeout: soon\n", 4, "backends[0].timeout", "duration"},
		{"bad origin", "allowedOrigins: [\"https://app.example/path\"]\n" + good, 1, "allowedOrigins", "not an origin"},
		{"not YAML", "backends: [\n", 1, "", ""},
		{"bad retention", "limits:\n  finishedTaskRetention: forever\n" + good, 2, "limits.finishedTaskRetention", "duration"},
		{"negative limit", "limits:\n  maxTasksPerCaller: -1\n" + good, 2, "limits.maxTasksPerCaller", "negative"},
		{"jwt without audience", "auth:\n  jwt:\n    issuer: https://idp.example\n" + good, 3, "auth.jwt.audiences", "at least one audience"},
		{"jwt alg none", "auth:\n  jwt:\n    jwksURL: https://idp.example/k\n    audiences: [g]\n    algorithms: [none]\n" + good, 5, "auth.jwt.algorithms[0]", "must be one of"},
		{"jwt HMAC", "auth:\n  jwt:\n    jwksURL: https://idp.example/k\n    audiences: [g]\n    algorithms: [HS256]\n" + good, 5, "auth.jwt.algorithms[0]", "must be one of"},
		{"jwt without issuer", "auth:\n  jwt:\n    audiences: [g]\n" + good, 3, "auth.jwt", "issuer or a jwksURL"},
		{"negative rate", "rateLimits:\n  perCaller: {rate: -1}\n" + good, 2, "rateLimits.perCaller.rate", "negative"},
		{"burst without rate", "rateLimits:\n  perBackend: {burst: 3}\n" + good, 2, "rateLimits.perBackend.rate", "a burst needs a rate"},
		{"unknown operation", "access:\n  - operations: [delete]\n" + good, 2, "access[0].operations[0]", "must be send"},
		{"unknown backend in a rule", "access:\n  - backends: [b]\n" + good, 2, "access[0].backends[0]", "names no backend"},
		{"skill of no backend", "access:\n  - skills: [b/x]\n" + good, 2, "access[0].skills[0]", "skill id"},
		{"mtls without TLS", "auth:\n  mtls:\n    clientCA: x\n" + good, 3, "auth.mtls", "needs tlsCert"},
		{"mtls CA not PEM", "tlsCert: c\ntlsKey: k\nauth:\n  mtls:\n    clientCA: not a certificate\n" + good, 5, "auth.mtls.clientCA", "no PEM"},
		{"push signed without a key", "push:\n  enabled: true\n  sign: true\n" + good, 3, "push.sign", "needs push.enabled and signing.key"},
		{"reserved header", good + "    headers:\n      Host: x\n", 5, "backends[0].headers.Host", "set by the gateway"},
		{"header with a line break", good + "    headers:\n      X-A: \"a\\r\\nB: c\"\n", 5, "backends[0].headers.X-A", "cannot hold"},
	} {
		path := filepath.Join(t.TempDir(), "g.yaml")
		if err := os.WriteFile(path, []byte(c.yaml), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := ReadConfig(path)
		var ce *ConfigError
		if !errors.As(err, &ce) {
			t.Errorf("%s: %v is not a *ConfigError", c.name, err)
			continue
		}
		if ce.File != path || ce.Line != c.line || ce.Field != c.field || !strings.Contains(ce.Msg, c.msg) {
			t.Errorf("%s: %#v (%v), want line %d field %q containing %q", c.name, ce, err, c.line, c.field, c.msg)
		}
	}
}

// TestConfigErrorsShowNoValue: a refused value is named by its field, never shown: it may have come
// from a file or the environment (a secret misplaced there would reach the terminal and the logs).
func TestConfigErrorsShowNoValue(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(secret, []byte("s3cret-value\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("A2APORT_TEST_SECRET", "s3cret-value")
	for _, yaml := range []string{
		"default: ${file:" + secret + "}\nbackends:\n  - name: a\n    card: https://a.example/card.json\n",
		"allowedOrigins: [\"${A2APORT_TEST_SECRET}\"]\nbackends:\n  - name: a\n    card: https://a.example/card.json\n",
		"backends:\n  - name: a\n    card: https://a.example/card.json\n  - name: a\n    card: https://${A2APORT_TEST_SECRET}.example/c.json\n",
	} {
		path := filepath.Join(t.TempDir(), "gateway.yaml")
		if err := os.WriteFile(path, []byte(yaml), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := ReadConfig(path)
		if err == nil || strings.Contains(err.Error(), "s3cret") {
			t.Errorf("config %q: %v; want an error that names the field only", yaml, err)
		}
	}
}
