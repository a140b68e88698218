package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/a2aport/a2aport"

	"github.com/a2aport/a2aport/adapter"
)

var cardCommand = &subcommand{
	name: "card", args: "URL", summary: "show an agent's card and how a2aport would use it",
	about: `Fetches the Agent Card (URL: the agent's base URL, or the card's own) and shows the agent, the
interfaces a2aport could use (and the one it picks), its capabilities, whether the card is signed
and verified, its security schemes and its skills. --json prints the card as received.`,
	examples: `$ a2aport card http://127.0.0.1:8080
$ a2aport card https://agent.example/.well-known/agent-card.json --json | jq .skills
$ a2aport card https://agent.example --card-keys keys.jwks          # check its signature with these keys`,
	groups:   []flagGroup{{"Card", []string{"json", "card-keys"}}, connectionFlags, runtimeFlags},
	operands: operandURL,
	flags:    func(fs *flag.FlagSet) { new(cardFlags).register(fs) },
	run:      func(ctx context.Context, args []string, s streams) int { return runCard(ctx, args, s.stdout, s.stderr) },
}

// cardFlags are card's flags.
type cardFlags struct {
	conn     connection
	asJSON   bool
	keysFile string
}

func (f *cardFlags) register(fs *flag.FlagSet) {
	f.conn.register(fs)
	fs.BoolVar(&f.asJSON, "json", false, "print the card as received")
	fs.StringVar(&f.keysFile, "card-keys", "", "JWK Set `file` of keys trusted to sign the card")
}

// runCard shows the Agent Card at args[0] and how a2aport would use it.
func runCard(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var f cardFlags
	pos, err := parseArgs("card", args, streams{stdout: stdout, stderr: stderr}, f.register)
	if err != nil {
		return usageCode(err)
	}
	if len(pos) != 1 {
		usageError(stderr, "card", "want the agent's URL")
		return exitUsage
	}
	conn := f.conn
	card, err := cardURL(pos[0])
	if err != nil {
		fmt.Fprintln(stderr, "a2aport:", err)
		return exitUsage
	}
	opts, err := conn.options(card)
	if err != nil {
		fmt.Fprintln(stderr, "a2aport:", err)
		return exitUsage
	}
	raw, err := fetchCard(ctx, card, opts)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitCode(err)
	}
	if f.asJSON {
		_, _ = stdout.Write(raw) // as received, byte for byte
		return exitOK
	}
	parsed, notes, err := adapter.ReadCard(raw)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitError
	}
	v := cardView{card: parsed, notes: notes, signed: len(parsed.Signatures) > 0}
	if v.signed {
		opts.VerifyCard, opts.CardKeysFromJKU = a2aport.VerifyCardIfSigned, true
		if f.keysFile != "" {
			if opts.CardKeys, err = os.ReadFile(f.keysFile); err != nil {
				fmt.Fprintln(stderr, "a2aport:", err)
				return exitUsage
			}
		}
	}
	v.desc, v.startErr = describe(ctx, &conn, opts)
	if v.signed && a2aport.CodeOf(v.startErr) == a2aport.CodeCardSignatureInvalid {
		v.signatureErr = v.startErr
		opts.VerifyCard, opts.CardKeysFromJKU, opts.CardKeys = "", false, nil
		v.desc, v.startErr = describe(ctx, &conn, opts)
	}
	v.print(newStyles(stdout, "auto"), stdout)
	if v.startErr != nil {
		return exitCode(v.startErr)
	}
	return exitOK
}

// fetchCard GETs the card as the adapter would send it (token and headers included).
func fetchCard(ctx context.Context, card string, opts a2aport.Options) ([]byte, error) {
	return fetchCardOver(ctx, card, opts, nil)
}

// fetchCardOver is fetchCard over rt (nil: Go's default transport).
func fetchCardOver(ctx context.Context, card string, opts a2aport.Options, rt http.RoundTripper) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, card, nil)
	if err != nil {
		return nil, err
	}
	req.Header = opts.Headers.Clone()
	if req.Header == nil {
		req.Header = http.Header{}
	}
	req.Header.Set("Accept", "application/json")
	if opts.Token != "" && req.Header.Get("Authorization") == "" {
		req.Header.Set("Authorization", "Bearer "+opts.Token)
	}
	resp, err := cardClient(req, rt).Do(req)
	if err != nil {
		return nil, &a2aport.Error{Code: a2aport.CodeDiscoveryFailed, Message: "reading the card failed: " + errors.Unwrap(err).Error(), Err: err}
	}
	defer func() { _ = resp.Body.Close() }() // read whole or abandoned; nothing to report
	body, err := io.ReadAll(io.LimitReader(resp.Body, a2aport.DefaultMaxCardBytes+1))
	switch {
	case err != nil:
		return nil, err
	case resp.StatusCode != http.StatusOK:
		return nil, &a2aport.Error{Code: a2aport.CodeDiscoveryFailed, Status: resp.StatusCode, Message: "the card request answered " + resp.Status}
	case len(body) > a2aport.DefaultMaxCardBytes:
		return nil, fmt.Errorf("the card is larger than %d bytes", a2aport.DefaultMaxCardBytes)
	}
	return body, nil
}

// describe discovers the agent as a Work would, and reports what the adapter made of it.
func describe(ctx context.Context, conn *connection, opts a2aport.Options) (a2aport.Description, error) {
	port, err := conn.open(ctx, opts)
	if err != nil {
		return a2aport.Description{}, err
	}
	defer func() { _ = port.Close() }()
	_, err = port.Start(ctx)
	return port.Describe(), err
}

// cardView is what `a2aport card` prints.
type cardView struct {
	card         *a2a.AgentCard
	notes        []string
	desc         a2aport.Description
	startErr     error
	signed       bool
	signatureErr error
}

func (v *cardView) print(st styles, w io.Writer) {
	c := cleanCard(v.card) // the agent wrote every field: made inert (clean.go)
	fmt.Fprintf(w, "%s %s\n", st.title.Render(c.Name), c.Version)
	if c.Provider != nil {
		fmt.Fprintf(w, "by %s %s\n", c.Provider.Org, st.dim.Render(c.Provider.URL))
	}
	if c.Description != "" {
		fmt.Fprintln(w, c.Description)
	}
	if c.DocumentationURL != "" {
		fmt.Fprintln(w, "docs:", c.DocumentationURL)
	}

	fmt.Fprintln(w, "\n"+st.heading.Render("Interfaces")+st.dim.Render(" (a2aport takes the first one it speaks, in the card's order)"))
	picked := false
	for _, iface := range c.SupportedInterfaces {
		line := fmt.Sprintf("%-9s %-4s %s", iface.ProtocolBinding, iface.ProtocolVersion, iface.URL)
		if iface.Tenant != "" {
			line += " tenant " + iface.Tenant
		}
		why := v.whyNot(iface, &picked)
		if why == "" {
			fmt.Fprintf(w, "  %s %s  %s\n", st.ok.Render("▸"), line, st.ok.Render("← picked"))
			continue
		}
		fmt.Fprintf(w, "    %s  %s\n", line, st.dim.Render(why))
	}
	if v.startErr != nil {
		fmt.Fprintf(w, "  %s\n", st.bad.Render(fmt.Sprintf("a2aport cannot use this agent: %s (%s)", cleanLine(v.startErr.Error()), a2aport.CodeOf(v.startErr))))
	}

	caps := c.Capabilities
	fmt.Fprintf(w, "\n%s streaming %s, push notifications %s, extended card %s\n", st.heading.Render("Capabilities"),
		yesNo(caps.Streaming), yesNo(caps.PushNotifications), yesNo(caps.ExtendedAgentCard))
	for _, ext := range caps.Extensions {
		req := ""
		if ext.Required {
			req = st.bad.Render(" (required: pass --extension " + ext.URI + ")")
		}
		fmt.Fprintf(w, "  extension %s%s %s\n", ext.URI, req, st.dim.Render(ext.Description))
	}
	v.printSecurity(st, w)
	v.printSignature(st, w)

	if len(c.Skills) > 0 {
		fmt.Fprintln(w, "\n"+st.heading.Render("Skills"))
	}
	for _, s := range c.Skills {
		tags := ""
		if len(s.Tags) > 0 {
			tags = st.dim.Render(" [" + strings.Join(s.Tags, ", ") + "]")
		}
		fmt.Fprintf(w, "  %s — %s%s\n", st.bold.Render(s.Name), s.Description, tags)
		for _, ex := range s.Examples {
			fmt.Fprintf(w, "    e.g. %q\n", ex)
		}
	}
	for _, n := range append(append([]string(nil), v.notes...), v.desc.CardNotes...) {
		fmt.Fprintln(w, st.dim.Render("note: "+cleanLine(n)))
	}
}

// whyNot says why the adapter does not use iface ("" for the one it picked).
func (v *cardView) whyNot(iface *a2a.AgentInterface, picked *bool) string {
	if !v.desc.Discovered {
		return ""
	}
	speaks := string(iface.ProtocolBinding) == v.desc.Transport && strings.HasPrefix(string(iface.ProtocolVersion), v.desc.ProtocolVersion)
	switch {
	case speaks && !*picked:
		*picked = true
		return ""
	case iface.ProtocolBinding != a2a.TransportProtocolJSONRPC && iface.ProtocolBinding != a2a.TransportProtocolHTTPJSON:
		return "a2aport does not speak " + string(iface.ProtocolBinding)
	case *picked:
		return "later in the card"
	}
	return "not usable (version, pin or origin policy)"
}

func (v *cardView) printSecurity(st styles, w io.Writer) {
	sec := v.desc.Security
	if sec == nil {
		return
	}
	fmt.Fprintln(w, "\n"+st.heading.Render("Security"))
	for _, s := range sec.Schemes {
		s.Name, s.In, s.Param = cleanLine(s.Name), cleanLine(s.In), cleanLine(s.Param)
		fmt.Fprintf(w, "  %-10s %s   give %s\n", s.Name, schemeKind(s), st.bold.Render(credentialHint(s)))
	}
	if len(sec.Requirements) > 0 {
		sets := make([]string, len(sec.Requirements))
		for i, set := range sec.Requirements {
			sets[i] = cleanLine(strings.Join(set, " + "))
		}
		fmt.Fprintf(w, "  needs one of: %s\n", strings.Join(sets, "  |  "))
	}
	switch {
	case sec.InUse != nil:
		fmt.Fprintf(w, "  %s\n", st.ok.Render("satisfied by the credentials given: "+cleanLine(strings.Join(sec.InUse, " + "))))
	case sec.Missing:
		fmt.Fprintf(w, "  %s\n", st.bad.Render("no credentials given satisfy it: requests will be refused (A2A_AUTH_REQUIRED)"))
	}
}

func schemeKind(s a2aport.SecurityScheme) string {
	switch s.Kind {
	case "apiKey":
		return fmt.Sprintf("API key in %s %q", s.In, s.Param)
	case "bearer":
		return "HTTP bearer"
	case "basic":
		return "HTTP basic"
	case "oauth2":
		return "OAuth2"
	case "openIdConnect":
		return "OpenID Connect"
	case "mutualTLS":
		return "mutual TLS"
	}
	return s.Kind
}

func credentialHint(s a2aport.SecurityScheme) string {
	switch s.Kind {
	case "basic":
		return "--credential " + s.Name + "=basic:USER:PASS"
	case "oauth2":
		return "--credential " + s.Name + "=client:ID:SECRET (or a token)"
	case "mutualTLS":
		return "a client certificate (use the Go or JS API with a Transport)"
	case "unsupported":
		return "(not supported by a2aport)"
	}
	return "--credential " + s.Name + "=TOKEN"
}

func (v *cardView) printSignature(st styles, w io.Writer) {
	line := "not signed"
	switch sig := v.desc.CardSignature; {
	case v.signatureErr != nil:
		line = st.bad.Render("signed, does not verify: " + cleanLine(v.signatureErr.Error()))
	case sig != nil && sig.Status == "verified":
		line = st.ok.Render(fmt.Sprintf("signed, verified (%s, key %s)", cleanLine(sig.Algorithm), cleanLine(sig.KeyID)))
		if len(sig.Uncovered) > 0 {
			line += st.bad.Render(" — not covered: " + cleanLine(strings.Join(sig.Uncovered, ", ")))
		}
	case v.signed:
		line = "signed (not verified)"
	}
	fmt.Fprintf(w, "\n%s %s\n", st.heading.Render("Signature"), line)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// cardClient follows a redirect of the card request only within its origin: the request carries
// the caller's token and headers, which Go's client would take to another origin (it drops only
// Authorization and cookies there).
func cardClient(first *http.Request, rt http.RoundTripper) *http.Client {
	return &http.Client{Transport: rt, CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		if req.URL.Scheme != first.URL.Scheme || req.URL.Host != first.URL.Host {
			return fmt.Errorf("the card URL redirects to %s, another origin: not followed with your credentials", req.URL.Redacted())
		}
		return nil
	}}
}

// cleanCard is a copy of card with every text it shows made inert (clean.go).
func cleanCard(card *a2a.AgentCard) *a2a.AgentCard {
	c := *card
	c.Name, c.Version, c.Description = cleanLine(c.Name), cleanLine(c.Version), clean(c.Description)
	c.DocumentationURL, c.IconURL = cleanLine(c.DocumentationURL), cleanLine(c.IconURL)
	if c.Provider != nil {
		p := *c.Provider
		p.Org, p.URL = cleanLine(p.Org), cleanLine(p.URL)
		c.Provider = &p
	}
	c.SupportedInterfaces = make([]*a2a.AgentInterface, 0, len(card.SupportedInterfaces))
	for _, iface := range card.SupportedInterfaces {
		if iface == nil {
			continue
		}
		i := *iface
		i.URL, i.Tenant = cleanLine(i.URL), cleanLine(i.Tenant)
		i.ProtocolBinding = a2a.TransportProtocol(cleanLine(string(i.ProtocolBinding)))
		i.ProtocolVersion = a2a.ProtocolVersion(cleanLine(string(i.ProtocolVersion)))
		c.SupportedInterfaces = append(c.SupportedInterfaces, &i)
	}
	c.Capabilities.Extensions = make([]a2a.AgentExtension, len(card.Capabilities.Extensions))
	for i, ext := range card.Capabilities.Extensions {
		ext.URI, ext.Description = cleanLine(ext.URI), cleanLine(ext.Description)
		c.Capabilities.Extensions[i] = ext
	}
	c.Skills = make([]a2a.AgentSkill, len(card.Skills))
	for i, skill := range card.Skills {
		skill.ID, skill.Name, skill.Description = cleanLine(skill.ID), cleanLine(skill.Name), cleanLine(skill.Description)
		skill.Tags = cleanAll(skill.Tags)
		skill.Examples = cleanAll(skill.Examples)
		c.Skills[i] = skill
	}
	return &c
}

func cleanAll(texts []string) []string {
	out := make([]string, len(texts))
	for i, t := range texts {
		out[i] = cleanLine(t)
	}
	return out
}
