package main

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/adapter"
)

// The commands of the A2A CLI specification (card get, task …, send with -o) speak A2A through
// a2a-go's own client, not through a Port: they print the protocol's objects as the agent sent
// them (SPEC.md Appendix B), which a Port, made to hide them, never shows. agentFlags are the
// specification's global options they share (§7.2).
type agentFlags struct {
	agentCard  string
	output     string
	bearer     string
	apiKey     string
	svcParams  multi
	transports multi
	a2aVersion string
	debug      bool
	verbose    bool
	insecure   bool
	warned     bool // --insecure's warning was written
	config     string
	settings   []setting // each option's value and where it came from (config show)
	givenFlags []string  // the flags the command line gave
}

// agentFlagGroup names them in help.
var agentFlagGroup = flagGroup{"A2A", []string{"agent-card", "a", "output", "o", "bearer", "api-key", "svc-param", "transport", "a2a-version", "verbose", "debug", "insecure", "config"}}

func (f *agentFlags) register(fs *flag.FlagSet) {
	const cardUsage = "the agent: a host (its /.well-known/agent-card.json is read), a card `URL`, or a card file (file://… or a path)"
	fs.StringVar(&f.agentCard, "agent-card", "", cardUsage)
	fs.StringVar(&f.agentCard, "a", "", "short for --agent-card")
	fs.StringVar(&f.output, "output", "text", "`format`: text (Label: value lines) or json (the protocol's own objects)")
	fs.StringVar(&f.output, "o", "text", "short for --output")
	fs.StringVar(&f.bearer, "bearer", "", "bearer `token` for the agent (env A2ACLI_BEARER: a flag shows in the process table and shell history)")
	fs.StringVar(&f.apiKey, "api-key", "", "API `key`, sent where the card's API key scheme says (env A2ACLI_API_KEY)")
	fs.Var(&f.svcParams, "svc-param", "A2A service parameter `K:V`, an HTTP header of every request (repeatable)")
	fs.Var(&f.transports, "transport", "`binding` to prefer: JSONRPC or HTTP+JSON (repeatable, first preferred; default: the card's order)")
	fs.StringVar(&f.a2aVersion, "a2a-version", "", "A2A `version` to speak (default: the highest both speak, never below 1.0; 0.3 only when named)")
	fs.BoolVar(&f.verbose, "verbose", false, "show every part sent and received on its own (kind, media type, file name, metadata), the task's history and metadata (default: concise: ids, state, status message, artifacts)")
	fs.BoolVar(&f.debug, "debug", false, "write every request and answer to stderr as they go on the wire (secrets redacted)")
	fs.BoolVar(&f.insecure, "insecure", false, "do not verify TLS certificates (development only: warns)")
	fs.StringVar(&f.config, "config", "", "dotenv `file` of A2ACLI_* settings, read in place of the nearest .env")
}

// refArg is the agent of a command that also takes it as its one argument: REF, or --agent-card.
func (f *agentFlags) refArg(pos []string) (string, *cliError) {
	switch {
	case len(pos) == 1 && f.agentCard == "":
		return pos[0], nil
	case len(pos) > 0:
		return "", &cliError{code: errUsage, message: "one card reference: REF or --agent-card", exit: exitUsage}
	}
	return f.agentCard, nil
}

// text is the text output of the command, at the detail --verbose asks for.
func (f *agentFlags) text(w io.Writer) textOut { return textOut{w: w, verbose: f.verbose} }

// parseAgentArgs parses a command of the specification: its flags, then the settings the
// command line left to the environment and dotenv files, then -o's value.
func parseAgentArgs(name string, args []string, s streams, f *agentFlags, register func(*flag.FlagSet)) ([]string, error) {
	fs, pos, err := parseFlags(name, args, s, register)
	if err != nil {
		if !errors.Is(err, errHelp) && asksJSON(args) { // §11.4: the error object, whatever failed
			report(s, true, &cliError{code: errUsage, message: err.Error(), exit: exitUsage})
		}
		return nil, err
	}
	fs.Visit(func(fl *flag.Flag) { f.givenFlags = append(f.givenFlags, fl.Name) })
	config := f.config
	if config == "" {
		config = os.Getenv(settingsEnv("config"))
	}
	if f.settings, err = resolveSettings(fs, config, s.stderr); err != nil {
		usageError(s.stderr, name, err.Error())
		return nil, err
	}
	if f.output != "text" && f.output != "json" {
		err := fmt.Errorf("-o %q: want text or json", f.output)
		usageError(s.stderr, name, err.Error())
		return nil, err
	}
	return pos, nil
}

// agentConn is a client of the agent, on the interface the card and the flags chose.
type agentConn struct {
	*a2aclient.Client
	card  *a2a.AgentCard
	ref   string // the card's URL or file, as resolved
	iface *a2a.AgentInterface
	http  *agentTransport
}

// cardRef is where the card of a reference is: a file, or a URL (a host or an origin gets the
// well-known path).
func cardRef(ref string) (path, card string, err error) {
	if p, ok := strings.CutPrefix(ref, "file://"); ok {
		return p, "", nil
	}
	if !strings.Contains(ref, "://") {
		if exists(ref) {
			return ref, "", nil
		}
		host := ref
		if h, _, err := net.SplitHostPort(ref); err == nil {
			host = h
		}
		scheme := "https://"
		if ip := net.ParseIP(host); host == "localhost" || (ip != nil && ip.IsLoopback()) {
			scheme = "http://"
		}
		ref = scheme + ref
	}
	card, err = cardURL(ref)
	return "", card, err
}

// loadCard reads the card a reference names, over TLS that f's --insecure may leave unverified
// (with its warning on stderr).
func loadCard(ctx context.Context, ref string, f *agentFlags, stderr io.Writer) (*a2a.AgentCard, string, []byte, error) {
	if ref == "" {
		return nil, "", nil, &cliError{code: errUsage, message: "no agent: give --agent-card (or A2ACLI_AGENT_CARD)", exit: exitUsage}
	}
	path, u, err := cardRef(ref)
	if err != nil {
		return nil, "", nil, &cliError{code: errUsage, message: err.Error(), exit: exitUsage}
	}
	var raw []byte
	if path != "" {
		if raw, err = os.ReadFile(path); err != nil {
			return nil, "", nil, &cliError{code: errCardNotFound, message: err.Error(), exit: exitUnreachable}
		}
		u = path
	} else if raw, err = fetchCardOver(ctx, u, a2aport.Options{}, f.tlsTransport(stderr)); err != nil {
		var e *a2aport.Error
		if errors.As(err, &e) && e.Status == 0 {
			return nil, "", nil, &cliError{code: errUnreachable, message: err.Error(), exit: exitUnreachable}
		}
		c := &cliError{code: errCardNotFound, message: err.Error(), exit: exitUnreachable}
		if e != nil && (e.Status == 401 || e.Status == 403) {
			c.code, c.exit = errAuthFailed, exitAuth
		}
		return nil, "", nil, c
	}
	card, _, err := adapter.ReadCard(raw)
	if err != nil {
		return nil, "", nil, &cliError{code: errCardInvalid, message: fmt.Sprintf("%s: %v", u, err), exit: exitError}
	}
	return card, u, raw, nil
}

// dial reads the card and opens a client on the first interface of it that the flags allow: the
// client's preferred transports first, the card's order otherwise, and A2A 1.x only unless
// --a2a-version names another version (SPEC.md §13).
func (f *agentFlags) dial(ctx context.Context, ref string, stderr io.Writer) (*agentConn, error) {
	card, u, _, err := loadCard(ctx, ref, f, stderr)
	if err != nil {
		return nil, err
	}
	t, err := f.transport(card, u, stderr)
	if err != nil {
		return nil, err
	}
	allowed := *card
	allowed.SupportedInterfaces = nil
	var offered []string
	for _, iface := range card.SupportedInterfaces {
		if iface == nil {
			continue
		}
		offered = append(offered, string(iface.ProtocolVersion))
		if versionAllowed(string(iface.ProtocolVersion), f.a2aVersion) {
			allowed.SupportedInterfaces = append(allowed.SupportedInterfaces, iface)
		}
	}
	if len(allowed.SupportedInterfaces) == 0 {
		hint := "pass --a2a-version with one of the versions it offers"
		if f.a2aVersion == "" {
			hint = "an A2A version below 1.0 is legacy: pass --a2a-version 0.3 to speak it"
		}
		return nil, &cliError{code: "VersionNotSupportedError", exit: exitError, hint: hint,
			message: fmt.Sprintf("the card offers A2A %s, not %s", strings.Join(slices.Compact(slices.Sorted(slices.Values(offered))), ", "), orDefault(f.a2aVersion, "1.x"))}
	}
	client := &http.Client{Transport: t}
	opts := []a2aclient.FactoryOption{a2aclient.WithDefaultsDisabled(),
		a2aclient.WithJSONRPCTransport(client), a2aclient.WithRESTTransport(client),
		a2av0.WithJSONRPCTransport(a2av0.JSONRPCTransportConfig{Client: client}),
		a2av0.WithRESTTransport(a2av0.RESTTransportConfig{Client: client})}
	var prefs []a2a.TransportProtocol
	for _, p := range f.transports {
		for _, one := range strings.Split(p, ",") {
			prefs = append(prefs, a2a.TransportProtocol(strings.TrimSpace(one)))
		}
	}
	opts = append(opts, a2aclient.WithConfig(a2aclient.Config{PreferredTransports: prefs}))
	c, err := a2aclient.NewFromCard(ctx, &allowed, opts...)
	if err != nil {
		return nil, &cliError{code: errCardInvalid, message: err.Error(), exit: exitError,
			hint: "the card offers no interface a2aport speaks (JSONRPC or HTTP+JSON): a2aport card get shows them"}
	}
	conn := &agentConn{Client: c, card: card, ref: u, http: t}
	conn.iface = chosenInterface(&allowed, prefs)
	if f.debug {
		fmt.Fprintf(stderr, "a2aport debug card %s: %s %s at %s\n", u, conn.iface.ProtocolBinding, conn.iface.ProtocolVersion, conn.iface.URL)
	}
	return conn, nil
}

// versionAllowed says whether an interface of version v may be used when --a2a-version is want.
func versionAllowed(v, want string) bool {
	if want == "" {
		return !strings.HasPrefix(v, "0.") && v != ""
	}
	return v == want || strings.HasPrefix(v, want+".")
}

// chosenInterface is the interface a2a-go's factory takes: the newest version, then the first
// preferred binding, then the card's order.
func chosenInterface(card *a2a.AgentCard, prefs []a2a.TransportProtocol) *a2a.AgentInterface {
	best, bestRank := card.SupportedInterfaces[0], -1
	for i, iface := range card.SupportedInterfaces {
		if iface.ProtocolBinding != a2a.TransportProtocolJSONRPC && iface.ProtocolBinding != a2a.TransportProtocolHTTPJSON {
			continue
		}
		pref := slices.Index(prefs, iface.ProtocolBinding)
		if pref < 0 {
			pref = len(prefs)
		}
		rank := pref*1000 + i
		if bestRank < 0 || iface.ProtocolVersion > best.ProtocolVersion || (iface.ProtocolVersion == best.ProtocolVersion && rank < bestRank) {
			best, bestRank = iface, rank
		}
	}
	return best
}

// transport is the HTTP of the commands: service parameters and credentials added, the wire
// logged with --debug, TLS verified unless --insecure (which warns).
func (f *agentFlags) transport(card *a2a.AgentCard, ref string, stderr io.Writer) (*agentTransport, error) {
	t := &agentTransport{base: f.tlsTransport(stderr), headers: http.Header{}}
	if f.debug {
		t.debug = stderr
	}
	for _, p := range f.svcParams {
		k, v, ok := strings.Cut(p, ":")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, &cliError{code: errUsage, message: fmt.Sprintf("--svc-param %q: want KEY:VALUE", p), exit: exitUsage}
		}
		t.headers.Add(strings.TrimSpace(k), strings.TrimSpace(v))
		t.secrets = append(t.secrets, sensitiveValue(k, strings.TrimSpace(v))...)
	}
	if f.bearer != "" {
		t.headers.Set("Authorization", "Bearer "+f.bearer)
		t.secrets = append(t.secrets, f.bearer)
	}
	if f.apiKey != "" {
		scheme := apiKeyScheme(card)
		if scheme == nil {
			return nil, &cliError{code: errUsage, exit: exitUsage, message: "--api-key: the card declares no API key scheme to send it by",
				hint: "a2aport card get shows the card's security schemes"}
		}
		switch scheme.Location {
		case a2a.APIKeySecuritySchemeLocationQuery:
			t.query = url.Values{scheme.Name: {f.apiKey}}
		case a2a.APIKeySecuritySchemeLocationCookie:
			t.cookies = []*http.Cookie{{Name: scheme.Name, Value: f.apiKey}}
		default:
			t.headers.Set(scheme.Name, f.apiKey)
		}
		t.secrets = append(t.secrets, f.apiKey)
	}
	if f.bearer == "" && f.apiKey == "" {
		if tok := storedToken(ref); tok != "" { // auth login's, for this agent
			t.headers.Set("Authorization", "Bearer "+tok)
			t.secrets = append(t.secrets, tok)
		}
	}
	return t, nil
}

// tlsTransport is Go's HTTP transport, its TLS certificates verified unless --insecure, which
// warns on stderr (once a run, for the card and the agent alike).
func (f *agentFlags) tlsTransport(stderr io.Writer) *http.Transport {
	base := http.DefaultTransport.(*http.Transport).Clone()
	if f.insecure {
		base.TLSClientConfig = &tls.Config{InsecureSkipVerify: true} //nolint:gosec // asked for, and warned of
		if !f.warned {
			f.warned = true
			fmt.Fprintln(stderr, "a2aport: WARNING: --insecure: TLS certificates are not verified; anyone between you and the agent can read and change what is sent, credentials included")
		}
	}
	return base
}

// sensitiveValue is v when the service parameter k carries a credential by its name.
func sensitiveValue(k, v string) []string {
	lower := strings.ToLower(k)
	for _, s := range sensitiveHeaders {
		if strings.Contains(lower, s) {
			if scheme, rest, ok := strings.Cut(v, " "); ok && len(scheme) < 10 {
				return []string{v, rest}
			}
			return []string{v}
		}
	}
	return nil
}

// apiKeyScheme is the card's first API key scheme.
func apiKeyScheme(card *a2a.AgentCard) *a2a.APIKeySecurityScheme {
	names := make([]string, 0, len(card.SecuritySchemes))
	for name := range card.SecuritySchemes {
		names = append(names, string(name))
	}
	slices.Sort(names)
	for _, name := range names {
		switch s := card.SecuritySchemes[a2a.SecuritySchemeName(name)].(type) {
		case a2a.APIKeySecurityScheme:
			return &s
		case *a2a.APIKeySecurityScheme:
			return s
		}
	}
	return nil
}

// openTask is how every task command starts: its flags, one task id, the agent dialled. check,
// when set, refuses the flags' values before anything is sent. Not ok: the error is reported and
// code is the exit status.
func openTask(ctx context.Context, name string, args []string, s streams, f *agentFlags, register func(*flag.FlagSet),
	check func() *cliError) (conn *agentConn, task string, code int, ok bool) {
	pos, err := parseAgentArgs(name, args, s, f, register)
	if err != nil {
		return nil, "", usageCode(err), false
	}
	asJSON := f.output == "json"
	if len(pos) != 1 {
		return nil, "", report(s, asJSON, &cliError{code: errUsage, message: "want one task id", exit: exitUsage}), false
	}
	if check != nil {
		if e := check(); e != nil {
			return nil, "", report(s, asJSON, e), false
		}
	}
	if conn, err = f.dial(ctx, f.agentCard, s.stderr); err != nil {
		return nil, "", report(s, asJSON, classify(err, nil, f.hasCredentials())), false
	}
	return conn, pos[0], exitOK, true
}

// asksJSON reports whether a command line that did not parse asked for -o json, as its flags or
// A2ACLI_OUTPUT say: its usage error is then the specification's error object on stdout too.
func asksJSON(args []string) bool {
	for i, a := range args {
		switch {
		case a == "--":
			return false
		case a == "-o=json" || a == "--output=json" || a == "-output=json":
			return true
		case (a == "-o" || a == "--output" || a == "-output") && i+1 < len(args):
			return args[i+1] == "json"
		}
	}
	return os.Getenv(settingsEnv("output")) == "json"
}

// agentRef is how a command that names its agent (card get, conformance) starts: its flags, then
// the agent from the one argument, -a or A2ACLI_AGENT_CARD. Not ok: the error is reported and
// code is the exit status.
func agentRef(name string, args []string, s streams, f *agentFlags, register func(*flag.FlagSet)) (ref string, code int, ok bool) {
	pos, err := parseAgentArgs(name, args, s, f, register)
	if err != nil {
		return "", usageCode(err), false
	}
	ref, bad := f.refArg(pos)
	if bad != nil {
		return "", report(s, f.output == "json", bad), false
	}
	return ref, exitOK, true
}
