package gateway

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"reflect"
	"regexp"
	"strings"
	"time"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"
)

// Config is a gateway's configuration file (YAML). Every string may hold ${NAME}, replaced by the
// environment variable NAME, or ${file:PATH}, replaced by the file's content without its final
// newline: secrets stay in the environment or in files, not in the configuration.
type Config struct {
	// Listen is the address to listen on (default 127.0.0.1:8090).
	Listen string `yaml:"listen"`
	// AdminListen, when set, is the address of a listener of its own for the operations
	// endpoints (/healthz, /readyz, /backends, /metrics), which then leave the public one.
	AdminListen string `yaml:"adminListen"`
	// PublicURL is the URL callers reach the gateway at, which the card names (behind a TLS
	// proxy, not the listen address). Default: http://Listen.
	PublicURL string `yaml:"publicURL"`
	// TLSCert and TLSKey serve HTTPS directly (both or neither).
	TLSCert string `yaml:"tlsCert"`
	TLSKey  string `yaml:"tlsKey"`
	// Name, Description and Version go on the card (Version: the program's by default).
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	Version     string `yaml:"version"`
	// Postgres runs the gateway as one node of a cluster whose state is in this database.
	Postgres string `yaml:"postgres"`
	// Default is the backend of a message that names none.
	Default string `yaml:"default"`
	// AllowedOrigins are the origins whose pages may call the gateway from a browser.
	AllowedOrigins []string `yaml:"allowedOrigins"`
	// KeepAlive is how often a quiet stream gets an SSE comment, as Go writes a duration
	// (default 15s; negative: never).
	KeepAlive string `yaml:"keepAlive"`
	keepAlive time.Duration
	// Auth is what callers must present; the card declares it.
	Auth AuthConfig `yaml:"auth"`
	// Limits bound what a caller may cost (0: the facade's defaults, SECURITY.md).
	Limits LimitsConfig `yaml:"limits"`
	// RateLimits bound how fast a caller may call, and a backend be sent messages (per node).
	RateLimits RateLimits `yaml:"rateLimits"`
	// Access are the rules of who may do what; absent: every authenticated caller may do everything.
	Access []AccessRule `yaml:"access"`
	// Tracing exports OpenTelemetry traces of the requests and of the calls to backends (tracing.go).
	Tracing TracingConfig `yaml:"tracing"`
	// Push sends tasks' events to the webhooks callers register (push.go); off by default.
	Push PushConfig `yaml:"push"`
	// Signing signs the card the gateway serves (signing.go); no key: the card is not signed.
	Signing SigningConfig `yaml:"signing"`
	// LogLevel is debug, info (the default), warn or error.
	LogLevel string `yaml:"logLevel"`
	// Backends is the catalogue.
	Backends []BackendConfig `yaml:"backends"`
}

// AuthConfig is the callers' authentication: a bearer token, one of BearerTokens or a JWT the
// identity provider of JWT issued.
type AuthConfig struct {
	BearerTokens []BearerToken `yaml:"bearerTokens"`
	JWT          JWTConfig     `yaml:"jwt"`
	MTLS         MTLSConfig    `yaml:"mtls"`
}

// BearerToken is one caller's token, and the name the caller goes by: its tasks are that
// name's. A token written alone names its caller by a hash of the token ("sha256:…"), so that a
// caller is the same whatever the token's place in the list, and never another one's after a
// token is revoked.
type BearerToken struct {
	Name  string `yaml:"name"`
	Token string `yaml:"token"`
	// Tenant is the caller's tenant, which access rules may ask for.
	Tenant string `yaml:"tenant"`
}

// UnmarshalYAML takes a token alone (a string) or {name, token}.
func (b *BearerToken) UnmarshalYAML(unmarshal func(any) error) error {
	var token string
	if err := unmarshal(&token); err == nil {
		*b = BearerToken{Token: token}
		return nil
	}
	type plain BearerToken // without this method
	return unmarshal((*plain)(b))
}

// LimitsConfig are the facade's limits a gateway's operator sets most often.
type LimitsConfig struct {
	MaxTasksPerCaller   int `yaml:"maxTasksPerCaller"`
	MaxStreamsPerCaller int `yaml:"maxStreamsPerCaller"`
	MaxRequestBytes     int `yaml:"maxRequestBytes"`
	MaxFinishedTasks    int `yaml:"maxFinishedTasks"`
	// FinishedTaskRetention is how long a finished task stays readable (one process; "1h").
	FinishedTaskRetention string `yaml:"finishedTaskRetention"`
	retention             time.Duration
}

// BackendConfig is one remote A2A agent of the catalogue.
type BackendConfig struct {
	Name        string `yaml:"name"`
	Card        string `yaml:"card"` // its Agent Card URL
	Description string `yaml:"description"`
	// ProtocolVersion ("1.0", "0.3") and Binding ("JSONRPC", "HTTP+JSON") pin the interface.
	ProtocolVersion string `yaml:"protocolVersion"`
	Binding         string `yaml:"binding"`
	// Credentials are by the card's security scheme names.
	Credentials map[string]CredentialConfig `yaml:"credentials"`
	// Timeout bounds each Work, as Go writes a duration (default: the adapter's, 10 minutes).
	Timeout string `yaml:"timeout"`
	timeout time.Duration
	// ReuseContext keeps one conversation per caller with this backend.
	ReuseContext bool `yaml:"reuseContext"`
	// Disabled keeps the backend listed but serves nothing through it.
	Disabled bool `yaml:"disabled"`
	// Headers are sent with every request to the backend's origin (its card's) and nowhere else:
	// what the backend needs and its card does not declare (X-Tenant, an API key). Values are
	// secrets: never shown in /backends, logs or errors.
	Headers map[string]string `yaml:"headers"`
	// AllowedOrigins are origins besides the card's own where its interfaces may be (the
	// adapter's AllowedOrigins): they get the credentials and Headers too.
	AllowedOrigins []string `yaml:"allowedOrigins"`
}

// CredentialConfig is the secret for one security scheme of a backend's card.
type CredentialConfig struct {
	Token        string   `yaml:"token"`
	Username     string   `yaml:"username"`
	Password     string   `yaml:"password"`
	ClientID     string   `yaml:"clientId"`
	ClientSecret string   `yaml:"clientSecret"`
	Scopes       []string `yaml:"scopes"`
	TokenURL     string   `yaml:"tokenUrl"`
}

// ConfigError is a configuration that cannot be used: the file, the line and the field.
type ConfigError struct {
	File  string
	Line  int    // 0 when the field is missing altogether
	Field string // YAML path below the document: backends[1].card
	Msg   string
}

func (e *ConfigError) Error() string {
	where := e.File
	if e.Line > 0 {
		where += fmt.Sprintf(":%d", e.Line)
	}
	if e.Field != "" {
		return where + ": " + e.Field + ": " + e.Msg
	}
	return where + ": " + e.Msg
}

// ReadConfig reads and checks the configuration file at path. Unknown fields, a missing
// environment variable and every invalid value are errors (*ConfigError).
func ReadConfig(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &ConfigError{File: path, Msg: err.Error()}
	}
	var c Config
	if err := yaml.UnmarshalWithOptions(data, &c, yaml.Strict()); err != nil {
		e := &ConfigError{File: path, Msg: err.Error()}
		var located interface{ GetMessage() string }
		if errors.As(err, &located) {
			e.Msg = located.GetMessage()
		}
		if tok := tokenOf(err); tok > 0 {
			e.Line = tok
		}
		return nil, e
	}
	lines := lineFinder(data)
	fail := func(field, msg string) error {
		return &ConfigError{File: path, Line: lines(field), Field: field, Msg: msg}
	}
	if err := expand(reflect.ValueOf(&c).Elem(), "", fail); err != nil {
		return nil, err
	}
	if err := c.check(fail); err != nil {
		return nil, err
	}
	return &c, nil
}

// UpstreamConfig is the configuration of a gateway in front of one agent (a2aport gateway
// --upstream): a protocol bridge whose one backend, "agent", is the agent whose card is at
// cardURL, serving pages of allowedOrigins; every other field is at its default. Its errors are
// *ConfigError naming the flag.
func UpstreamConfig(cardURL string, allowedOrigins []string) (*Config, error) {
	c := Config{Default: "agent", AllowedOrigins: allowedOrigins, Backends: []BackendConfig{{Name: "agent", Card: cardURL}}}
	flags := map[string]string{"allowedOrigins": "--allow-origin", "backends[0].card": "--upstream"}
	fail := func(field, msg string) error {
		if flag, ok := flags[field]; ok {
			return &ConfigError{File: flag, Msg: msg}
		}
		return &ConfigError{File: "--upstream", Field: field, Msg: msg}
	}
	if err := c.check(fail); err != nil {
		return nil, err
	}
	return &c, nil
}

// tokenOf is the line of a go-yaml error's token, or 0.
func tokenOf(err error) int {
	var located interface{ GetToken() *token.Token }
	if errors.As(err, &located) {
		if t := located.GetToken(); t != nil && t.Position != nil {
			return t.Position.Line
		}
	}
	return 0
}

// lineFinder gives the line of a field's value in the file (0 when the field is not there).
func lineFinder(data []byte) func(field string) int {
	file, err := parser.ParseBytes(data, 0)
	return func(field string) int {
		if err != nil || field == "" {
			return 0
		}
		p, perr := yaml.PathString("$." + field)
		if perr != nil {
			return 0
		}
		node, ferr := p.FilterFile(file)
		if ferr != nil || node == nil {
			if i := strings.LastIndexAny(field, ".["); i > 0 { // the field is missing: its parent's line
				return lineFinder(data)(field[:i])
			}
			return 0
		}
		return node.GetToken().Position.Line
	}
}

// validCaller is a caller's name as the configuration gives it (never "sha256:…", a hashed token's).
var validCaller = regexp.MustCompile(`^[A-Za-z0-9._@-]{1,64}$`)

// caller is the name the token's caller goes by.
func (b BearerToken) caller() string {
	if b.Name != "" {
		return b.Name
	}
	sum := sha256.Sum256([]byte("a2aport bearer token\x00" + b.Token))
	return "sha256:" + hex.EncodeToString(sum[:12])
}

// references are ${NAME} and ${file:PATH}.
var references = regexp.MustCompile(`\$\{([^}]*)\}`)

// expand replaces the references in every string below v; field is v's YAML path.
func expand(v reflect.Value, field string, fail func(field, msg string) error) error {
	switch v.Kind() {
	case reflect.String:
		var bad error
		out := references.ReplaceAllStringFunc(v.String(), func(ref string) string {
			name := ref[2 : len(ref)-1]
			if p, ok := strings.CutPrefix(name, "file:"); ok {
				b, err := os.ReadFile(p)
				if err != nil && bad == nil {
					bad = fail(field, "${"+name+"}: "+err.Error())
				}
				return strings.TrimSuffix(string(b), "\n")
			}
			value, ok := os.LookupEnv(name)
			if !ok && bad == nil {
				bad = fail(field, "${"+name+"}: the environment variable "+name+" is not set")
			}
			return value
		})
		if bad != nil {
			return bad
		}
		v.SetString(out)
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			name, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ",")
			if err := expand(v.Field(i), join(field, name), fail); err != nil {
				return err
			}
		}
	case reflect.Slice:
		for i := range v.Len() {
			if err := expand(v.Index(i), fmt.Sprintf("%s[%d]", field, i), fail); err != nil {
				return err
			}
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			elem := reflect.New(v.Type().Elem()).Elem()
			elem.Set(v.MapIndex(k))
			if err := expand(elem, join(field, k.String()), fail); err != nil {
				return err
			}
			v.SetMapIndex(k, elem)
		}
	}
	return nil
}

func join(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "." + name
}

// check validates the values: what each field must be, and that names are unique and known. Its
// messages name the field, never its value: that may have come from the environment or a file.
func (c *Config) check(fail func(field, msg string) error) error {
	if c.Listen == "" {
		c.Listen = "127.0.0.1:8090"
	}
	if c.PublicURL != "" {
		if u, err := url.Parse(c.PublicURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fail("publicURL", "must be an absolute http(s) URL")
		}
	}
	if (c.TLSCert == "") != (c.TLSKey == "") {
		return fail("tlsCert", "tlsCert and tlsKey go together")
	}
	switch c.LogLevel {
	case "", "debug", "info", "warn", "error":
	default:
		return fail("logLevel", "must be debug, info, warn or error")
	}
	if c.KeepAlive != "" {
		var err error
		if c.keepAlive, err = time.ParseDuration(c.KeepAlive); err != nil {
			return fail("keepAlive", "must be a duration such as 15s")
		}
	}
	if r := c.Limits.FinishedTaskRetention; r != "" {
		var err error
		if c.Limits.retention, err = time.ParseDuration(r); err != nil || c.Limits.retention <= 0 {
			return fail("limits.finishedTaskRetention", "must be a positive duration such as 1h")
		}
	}
	for _, l := range []struct {
		field string
		v     int
	}{{"maxTasksPerCaller", c.Limits.MaxTasksPerCaller}, {"maxStreamsPerCaller", c.Limits.MaxStreamsPerCaller},
		{"maxRequestBytes", c.Limits.MaxRequestBytes}, {"maxFinishedTasks", c.Limits.MaxFinishedTasks}} {
		if l.v < 0 {
			return fail("limits."+l.field, "must not be negative (0: the default)")
		}
	}
	if err := validOriginList(c.AllowedOrigins); err != "" {
		return fail("allowedOrigins", err)
	}
	names, tokens := map[string]bool{}, map[string]bool{}
	for i, tok := range c.Auth.BearerTokens {
		field := fmt.Sprintf("auth.bearerTokens[%d]", i)
		switch name := tok.caller(); {
		case tok.Token == "":
			return fail(field, "the token is empty")
		case tokens[tok.Token]:
			return fail(field, "the same token is listed twice")
		case tok.Name != "" && !validCaller.MatchString(tok.Name):
			return fail(field+".name", "use letters, digits and . _ - @ (at most 64)")
		case names[name]:
			return fail(field+".name", "two tokens name the same caller")
		default:
			names[name], tokens[tok.Token] = true, true
		}
	}
	if err := c.Signing.check(fail); err != nil {
		return err
	}
	if err := c.Auth.MTLS.check(c.TLSCert != "", fail); err != nil {
		return err
	}
	if err := c.Auth.JWT.check(fail); err != nil {
		return err
	}
	if err := c.RateLimits.PerCaller.check("rateLimits.perCaller", fail); err != nil {
		return err
	}
	if err := c.RateLimits.PerBackend.check("rateLimits.perBackend", fail); err != nil {
		return err
	}
	if err := c.Tracing.check(fail); err != nil {
		return err
	}
	if err := c.Push.check(fail); err != nil {
		return err
	}
	if c.Push.Sign && (!c.Push.Enabled || c.Signing.Key == "") {
		return fail("push.sign", "needs push.enabled and signing.key: pushes are signed with the card's key")
	}
	if len(c.Backends) == 0 {
		return fail("backends", "the catalogue has no backend")
	}
	seen := map[string]bool{}
	for i := range c.Backends {
		b := &c.Backends[i]
		at := func(f string) string { return fmt.Sprintf("backends[%d].%s", i, f) }
		switch {
		case !validName.MatchString(b.Name):
			return fail(at("name"), "must be lower-case letters, digits and dashes")
		case seen[b.Name]:
			return fail(at("name"), "another backend has the same name")
		}
		seen[b.Name] = true
		if u, err := url.Parse(b.Card); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fail(at("card"), "must be the absolute http(s) URL of the backend's Agent Card")
		} else if u.User != nil {
			return fail(at("card"), "must not hold user info: put the backend's secrets under credentials")
		}
		switch b.ProtocolVersion {
		case "", "1.0", "0.3":
		default:
			return fail(at("protocolVersion"), "must be 1.0 or 0.3")
		}
		switch b.Binding {
		case "", "JSONRPC", "HTTP+JSON":
		default:
			return fail(at("binding"), "must be JSONRPC or HTTP+JSON")
		}
		if b.Timeout != "" {
			var err error
			if b.timeout, err = time.ParseDuration(b.Timeout); err != nil || b.timeout < 0 {
				return fail(at("timeout"), "must be a positive duration such as 2m")
			}
		}
		if err := validOriginList(b.AllowedOrigins); err != "" {
			return fail(at("allowedOrigins"), err)
		}
		for name, value := range b.Headers {
			if msg := checkHeader(name, value); msg != "" {
				return fail(at("headers."+name), msg)
			}
		}
	}
	for i, a := range c.Access {
		if err := a.check(fmt.Sprintf("access[%d]", i), seen, fail); err != nil {
			return err
		}
	}
	if c.Default != "" && !seen[c.Default] {
		return fail("default", "names no backend of the catalogue")
	}
	return nil
}

// validOriginList says what is wrong with the first bad origin, or "".
func validOriginList(origins []string) string {
	for i, o := range origins {
		u, err := url.Parse(o)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Path != "" || u.RawQuery != "" || u.User != nil {
			return fmt.Sprintf("entry %d is not an origin (scheme://host[:port])", i)
		}
	}
	return ""
}
