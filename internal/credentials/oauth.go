package credentials

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// AuthError says the secret for a scheme could not be had: the token endpoint refused or failed,
// or the token provider did. The request to the agent was not sent.
type AuthError struct {
	Scheme  string
	Status  int  // the token endpoint's HTTP status, if it answered
	Retry   bool // a network failure or a 5xx/429 of the token endpoint: trying later may work
	Message string
}

func (e *AuthError) Error() string {
	if e.Scheme == "" { // rebuilt from a host's report, whose message says it all
		return e.Message
	}
	return fmt.Sprintf("credentials for security scheme %q: %s", e.Scheme, e.Message)
}

// RequestNotSent reports that the request to the agent never left (see package netfail).
func (e *AuthError) RequestNotSent() bool { return true }

// maxTokenAnswer bounds a token endpoint's answer.
const maxTokenAnswer = 64 << 10

// tokens caches OAuth2 access tokens by scheme name. One lock for all: concurrent Works share one
// token request instead of each making its own.
type tokens struct {
	mu    sync.Mutex
	cache map[string]token
	now   func() time.Time // time.Now; tests move it
}

func (ts *tokens) clock() time.Time {
	if ts.now != nil {
		return ts.now()
	}
	return time.Now()
}

type token struct {
	value   string
	renewAt time.Time // zero: until the agent refuses it
}

// get returns a token for s from the client-credentials flow, asking the token endpoint through
// base only when the cache has none that is fresh.
func (ts *tokens) get(ctx context.Context, base http.RoundTripper, s Scheme, c Credential, origins []string) (string, error) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if t, ok := ts.cache[s.Name]; ok && (t.renewAt.IsZero() || ts.clock().Before(t.renewAt)) {
		return t.value, nil
	}
	t, err := requestToken(ctx, base, s, c, origins, ts.clock())
	if err != nil {
		return "", err
	}
	if ts.cache == nil {
		ts.cache = map[string]token{}
	}
	ts.cache[s.Name] = t
	return t.value, nil
}

// forget drops the cached token of scheme name if it is still value (the agent refused it).
func (ts *tokens) forget(name, value string) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.cache[name].value == value {
		delete(ts.cache, name)
	}
}

// requestToken runs the client-credentials grant (RFC 6749 §4.4), the client authenticating with
// HTTP basic as §2.3.1 asks of servers to support.
func requestToken(ctx context.Context, base http.RoundTripper, s Scheme, c Credential, origins []string, start time.Time) (token, error) {
	fail := func(status int, retry bool, format string, args ...any) (token, error) {
		return token{}, &AuthError{Scheme: s.Name, Status: status, Retry: retry, Message: fmt.Sprintf(format, args...)}
	}
	endpoint, configured := c.TokenURL, c.TokenURL != ""
	if endpoint == "" {
		endpoint = s.TokenURL
	}
	if endpoint == "" {
		return fail(0, false, "the card names no client-credentials token URL and the credential sets no TokenURL")
	}
	if why := refusedTokenURL(endpoint, configured, origins); why != "" {
		return fail(0, false, "the token URL %s is refused (%s): the client secret is not sent there", endpoint, why)
	}
	form := url.Values{"grant_type": {"client_credentials"}}
	scopes := c.Scopes
	if len(scopes) == 0 {
		scopes = s.Scopes
	}
	if len(scopes) > 0 {
		form.Set("scope", strings.Join(scopes, " "))
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return fail(0, false, "the token URL is not usable: %v", err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	req.SetBasicAuth(url.QueryEscape(c.ClientID), url.QueryEscape(c.ClientSecret))
	resp, err := base.RoundTrip(req)
	if err != nil {
		return fail(0, true, "the token request failed: %v", err)
	}
	defer func() { _ = resp.Body.Close() }() // read to the end or abandoned; nothing to report
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxTokenAnswer))
	if err != nil {
		return fail(0, true, "reading the token answer failed: %v", err)
	}
	var answer struct {
		AccessToken string  `json:"access_token"`
		TokenType   string  `json:"token_type"`
		ExpiresIn   float64 `json:"expires_in"`
		Error       string  `json:"error"`
	}
	media, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	decodeErr := json.Unmarshal(body, &answer)
	if resp.StatusCode != http.StatusOK {
		reason := ""
		if answer.Error != "" && decodeErr == nil {
			reason = ": " + answer.Error // an RFC 6749 error code, never a value
		}
		return fail(resp.StatusCode, resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests,
			"the token endpoint answered HTTP %d%s", resp.StatusCode, reason)
	}
	switch {
	case decodeErr != nil || (media != "" && !strings.HasSuffix(media, "json")):
		return fail(resp.StatusCode, false, "the token endpoint's answer is not JSON")
	case answer.AccessToken == "":
		return fail(resp.StatusCode, false, "the token endpoint's answer has no access_token")
	case answer.TokenType != "" && !strings.EqualFold(answer.TokenType, "bearer"):
		return fail(resp.StatusCode, false, "the token endpoint gave a %q token; only bearer tokens are supported", answer.TokenType)
	}
	t := token{value: answer.AccessToken}
	if answer.ExpiresIn > 0 {
		life := time.Duration(answer.ExpiresIn * float64(time.Second))
		// Renew ahead of expiry (a tenth of the lifetime, at most a minute) so that no request
		// carries a token that expires on the way.
		t.renewAt = start.Add(life - min(life/10, time.Minute))
	}
	return t, nil
}
