package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

var authLoginCommand = &subcommand{
	name: "auth login", args: "[REF]", summary: "obtain an OAuth token for an agent and keep it for the later commands",
	about: `Obtains an access token from the OAuth 2 server the agent's card names, by the device code
flow (RFC 8628: a code to enter at a page, in any browser, while a2aport waits) or the client
credentials flow (a client id and secret, for scripts), and keeps it (mode 0600, under the user
config directory, a2aport/tokens/) for that agent: card get, send -o, task … send it when they
are given no --bearer or --api-key. The card must declare an oauth2 scheme with that flow.
--client-secret's value is best given as A2ACLI_CLIENT_SECRET: a flag shows in the process table.`,
	examples: `$ a2aport auth login -a https://agent.example --client-id cli             # device code: open the page it prints
$ A2ACLI_CLIENT_SECRET=… a2aport auth login -a https://agent.example --flow client-credentials --client-id svc`,
	groups:   []flagGroup{{"Login", []string{"flow", "client-id", "client-secret", "scope"}}, agentFlagGroup},
	operands: operandURL,
	flags:    func(fs *flag.FlagSet) { new(loginFlags).register(fs) },
	run:      interruptible(runAuthLogin),
}

type loginFlags struct {
	agent        agentFlags
	flow         string
	clientID     string
	clientSecret string
	scope        string
}

func (f *loginFlags) register(fs *flag.FlagSet) {
	f.agent.register(fs)
	fs.StringVar(&f.flow, "flow", "device-code", "`flow`: device-code or client-credentials")
	fs.StringVar(&f.clientID, "client-id", "", "the OAuth client `id`")
	fs.StringVar(&f.clientSecret, "client-secret", "", "the OAuth client `secret` (default $A2ACLI_CLIENT_SECRET)")
	fs.StringVar(&f.scope, "scope", "", "the `scopes` to ask for, space-separated (default: every scope the card's flow lists)")
}

// tokenAnswer is an OAuth token endpoint's answer (RFC 6749 §5).
type tokenAnswer struct {
	AccessToken string `json:"access_token"`
	TokenType   string `json:"token_type"`
	ExpiresIn   int    `json:"expires_in"`
	Error       string `json:"error"`
	Description string `json:"error_description"`
}

func runAuthLogin(ctx context.Context, args []string, s streams) int {
	var f loginFlags
	pos, err := parseAgentArgs("auth login", args, s, &f.agent, f.register)
	if err != nil {
		return usageCode(err)
	}
	asJSON := f.agent.output == "json"
	usage := func(msg string) int {
		return report(s, asJSON, &cliError{code: errUsage, message: msg, exit: exitUsage})
	}
	ref, bad := f.agent.refArg(pos)
	if bad != nil {
		return report(s, asJSON, bad)
	}
	if f.clientSecret == "" {
		f.clientSecret = os.Getenv(settingsEnv("client-secret"))
	}
	if f.clientID == "" {
		return usage("--client-id is needed")
	}
	card, u, _, err := loadCard(ctx, ref, &f.agent, s.stderr)
	if err != nil {
		return report(s, asJSON, classify(err, nil, false))
	}
	t, err := f.agent.transport(card, u, s.stderr)
	if err != nil {
		return report(s, asJSON, classify(err, nil, false))
	}
	client := &http.Client{Transport: t, Timeout: 30 * time.Second}
	var tok tokenAnswer
	switch f.flow {
	case "client-credentials":
		flow, ok := findFlow[a2a.ClientCredentialsOAuthFlow](card)
		if !ok {
			return report(s, asJSON, &cliError{code: errCredentialsMissing, exit: exitAuth, message: "the card declares no oauth2 scheme with the client credentials flow"})
		}
		if f.clientSecret == "" {
			return usage("the client credentials flow needs --client-secret (or A2ACLI_CLIENT_SECRET)")
		}
		t.secrets = append(t.secrets, f.clientSecret)
		form := url.Values{"grant_type": {"client_credentials"}, "scope": {scopeOf(f.scope, flow.Scopes)}}
		tok, err = postToken(ctx, client, flow.TokenURL, form, f.clientID, f.clientSecret)
	case "device-code":
		flow, ok := findFlow[a2a.DeviceCodeOAuthFlow](card)
		if !ok {
			return report(s, asJSON, &cliError{code: errCredentialsMissing, exit: exitAuth, message: "the card declares no oauth2 scheme with the device code flow"})
		}
		tok, err = deviceLogin(ctx, client, flow, &f, s.stderr)
	default:
		return usage("--flow: device-code or client-credentials")
	}
	if err != nil {
		var c *cliError
		if !errors.As(err, &c) {
			c = &cliError{code: errAuthFailed, message: err.Error(), exit: exitAuth}
		}
		return report(s, asJSON, c)
	}
	login := storedLogin{Card: u, AccessToken: tok.AccessToken, TokenType: tok.TokenType, Flow: f.flow}
	if tok.ExpiresIn > 0 {
		login.Expires = time.Now().Add(time.Duration(tok.ExpiresIn) * time.Second)
	}
	path, err := saveToken(login)
	if err != nil {
		return report(s, asJSON, &cliError{code: errInternal, message: err.Error(), exit: exitError})
	}
	if asJSON {
		_ = writeJSON(s.stdout, map[string]any{"card": u, "flow": f.flow, "stored": path, "expires": login.Expires})
		return exitOK
	}
	field(s.stdout, "Card", u)
	field(s.stdout, "Flow", f.flow)
	field(s.stdout, "Token", "stored in "+path)
	if !login.Expires.IsZero() {
		field(s.stdout, "Expires", login.Expires.UTC().Format(time.RFC3339))
	}
	return exitOK
}

// findFlow is the first flow of kind F among the card's oauth2 schemes, by the schemes' names.
func findFlow[F any](card *a2a.AgentCard) (F, bool) {
	names := make([]string, 0, len(card.SecuritySchemes))
	for name := range card.SecuritySchemes {
		names = append(names, string(name))
	}
	sort.Strings(names)
	for _, name := range names {
		var flows a2a.OAuthFlows
		switch s := card.SecuritySchemes[a2a.SecuritySchemeName(name)].(type) {
		case a2a.OAuth2SecurityScheme:
			flows = s.Flows
		case *a2a.OAuth2SecurityScheme:
			flows = s.Flows
		}
		if flow, ok := flows.(F); ok {
			return flow, true
		}
	}
	var zero F
	return zero, false
}

// scopeOf is the scopes to ask for: those given, else every one the flow lists.
func scopeOf(given string, listed map[string]string) string {
	if given != "" {
		return given
	}
	scopes := make([]string, 0, len(listed))
	for s := range listed {
		scopes = append(scopes, s)
	}
	sort.Strings(scopes)
	return strings.Join(scopes, " ")
}

// postToken asks the token endpoint and reads its answer (an OAuth error is returned as one).
func postToken(ctx context.Context, client *http.Client, endpoint string, form url.Values, id, secret string) (tokenAnswer, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return tokenAnswer{}, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	if secret != "" { // RFC 6749 §2.3.1; a public client (device code) names itself in the form
		req.SetBasicAuth(url.QueryEscape(id), url.QueryEscape(secret))
	}
	resp, err := client.Do(req)
	if err != nil {
		return tokenAnswer{}, &cliError{code: errUnreachable, message: err.Error(), exit: exitUnreachable}
	}
	defer func() { _ = resp.Body.Close() }()
	var tok tokenAnswer
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err := json.Unmarshal(body, &tok); err != nil {
		return tok, fmt.Errorf("the token endpoint answered %s, not JSON", resp.Status)
	}
	if tok.Error != "" || tok.AccessToken == "" {
		return tok, &oauthError{code: tok.Error, description: tok.Description, status: resp.Status}
	}
	return tok, nil
}

// oauthError is an OAuth error answer (RFC 6749 §5.2, RFC 8628 §3.5).
type oauthError struct{ code, description, status string }

func (e *oauthError) Error() string {
	return fmt.Sprintf("the token endpoint refused (%s): %s %s", e.status, orDefault(e.code, "no token"), e.description)
}

// deviceLogin is RFC 8628: a device code and a user code, the page to enter it at written to
// stderr, then the token endpoint asked every interval (5 s more after slow_down) until the user
// has approved, refused, or the code expired.
func deviceLogin(ctx context.Context, client *http.Client, flow a2a.DeviceCodeOAuthFlow, f *loginFlags, stderr io.Writer) (tokenAnswer, error) {
	form := url.Values{"client_id": {f.clientID}, "scope": {scopeOf(f.scope, flow.Scopes)}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, flow.DeviceAuthorizationURL, strings.NewReader(form.Encode()))
	if err != nil {
		return tokenAnswer{}, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := client.Do(req)
	if err != nil {
		return tokenAnswer{}, &cliError{code: errUnreachable, message: err.Error(), exit: exitUnreachable}
	}
	var device struct {
		DeviceCode      string `json:"device_code"`
		UserCode        string `json:"user_code"`
		VerificationURI string `json:"verification_uri"`
		Complete        string `json:"verification_uri_complete"`
		ExpiresIn       int    `json:"expires_in"`
		Interval        int    `json:"interval"`
	}
	err = json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&device)
	_ = resp.Body.Close()
	if err != nil || device.DeviceCode == "" {
		return tokenAnswer{}, fmt.Errorf("the device authorization endpoint answered %s without a device code", resp.Status)
	}
	fmt.Fprintf(stderr, "Open %s and enter the code %s", cleanLine(device.VerificationURI), cleanLine(device.UserCode))
	if device.Complete != "" {
		fmt.Fprintf(stderr, " (or open %s)", cleanLine(device.Complete))
	}
	fmt.Fprintln(stderr, "; waiting for you to approve…")
	interval := time.Duration(max(device.Interval, 1)) * time.Second
	deadline := time.Now().Add(time.Duration(max(device.ExpiresIn, 60)) * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-ctx.Done():
			return tokenAnswer{}, ctx.Err()
		case <-time.After(interval):
		}
		tok, err := postToken(ctx, client, flow.TokenURL, url.Values{"grant_type": {"urn:ietf:params:oauth:grant-type:device_code"},
			"device_code": {device.DeviceCode}, "client_id": {f.clientID}}, f.clientID, f.clientSecret)
		var oe *oauthError
		switch {
		case err == nil:
			return tok, nil
		case errors.As(err, &oe) && oe.code == "authorization_pending":
		case errors.As(err, &oe) && oe.code == "slow_down":
			interval += 5 * time.Second
		default:
			return tokenAnswer{}, err
		}
	}
	return tokenAnswer{}, &cliError{code: errTimeout, message: "the device code expired before it was approved", exit: exitTimeout}
}
