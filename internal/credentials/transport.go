package credentials

import (
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
)

// Transport is an http.RoundTripper that adds credentials to every request. Precedence, lowest
// first: the schemes of the request's plan (WithPlan) with Credentials and TokenProvider, Token
// (as Bearer), Headers, HeaderFunc: what the caller set explicitly wins over what the card implies.
type Transport struct {
	Base       http.RoundTripper // performs the requests; it must be set
	Token      string
	Headers    http.Header
	HeaderFunc func(req *http.Request) (http.Header, error)
	// Credentials are the secrets by security scheme name; TokenProvider gives the token of a
	// scheme that has none there (flows that need a user: authorization code, device code).
	Credentials   map[string]Credential
	TokenProvider func(ctx context.Context, scheme string) (string, error)
	// TokenOrigins are the origins where a token URL the card names may be (the card's own and
	// the adapter's AllowedOrigins; "*": any). Nil: any (an in-memory card is the caller's). A
	// token URL a Credential sets is the caller's choice and needs none. Either way it must be
	// https, or http on loopback: a client secret travels to no other place (tokenurl.go).
	TokenOrigins []string

	tokens  tokens
	mu      sync.Mutex
	dynamic map[string]struct{} // values HeaderFunc, TokenProvider and token endpoints gave, for Redact
}

// HeaderFuncError reports that HeaderFunc failed; the request was not sent.
type HeaderFuncError struct{ Err error }

func (e *HeaderFuncError) Error() string { return fmt.Sprintf("header function failed: %v", e.Err) }
func (e *HeaderFuncError) Unwrap() error { return e.Err }

// maxRemembered bounds the dynamic values kept for redaction (tokens rotate).
const maxRemembered = 64

// RoundTrip implements http.RoundTripper. It never modifies req. A request whose OAuth2 token
// (client credentials) the agent refuses with 401 is sent once more with a fresh token, when its
// body can be read again.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	r, fetched, err := t.prepare(req, req.Body)
	if err != nil {
		closeBody(req.Body) // RoundTrip must close the body even when it fails
		return nil, err
	}
	resp, err := t.Base.RoundTrip(r)
	if err != nil || resp.StatusCode != http.StatusUnauthorized || len(fetched) == 0 || (req.Body != nil && req.GetBody == nil) {
		return resp, err
	}
	body := req.Body
	if req.GetBody != nil {
		if body, err = req.GetBody(); err != nil {
			return resp, nil // the refusal stands
		}
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10)) // lets the connection be reused
	_ = resp.Body.Close()
	for name, value := range fetched {
		t.tokens.forget(name, value)
	}
	if r, _, err = t.prepare(req, body); err != nil {
		closeBody(body)
		return nil, err
	}
	return t.Base.RoundTrip(r)
}

func closeBody(body io.ReadCloser) {
	if body != nil {
		_ = body.Close()
	}
}

// prepare returns a copy of req with body and the credentials; fetched names the tokens that came
// from a token endpoint (scheme → token), which a 401 invalidates.
func (t *Transport) prepare(req *http.Request, body io.ReadCloser) (*http.Request, map[string]string, error) {
	r := req.Clone(req.Context())
	r.Body = body
	fetched, err := t.applyPlan(r, PlanOf(req.Context()))
	if err != nil {
		return nil, nil, err
	}
	if t.Token != "" {
		r.Header.Set("Authorization", "Bearer "+t.Token)
	}
	for name, values := range t.Headers {
		r.Header[http.CanonicalHeaderKey(name)] = append([]string(nil), values...)
	}
	if t.HeaderFunc != nil {
		extra, err := t.HeaderFunc(r)
		if err != nil {
			return nil, nil, &HeaderFuncError{Err: err}
		}
		for name, values := range extra {
			r.Header[http.CanonicalHeaderKey(name)] = append([]string(nil), values...)
			t.remember(values...)
		}
	}
	return r, fetched, nil
}

// applyPlan adds the secret of each scheme of plan that the transport holds one for.
func (t *Transport) applyPlan(r *http.Request, plan []Scheme) (map[string]string, error) {
	var fetched map[string]string
	for _, s := range plan {
		c, held := t.Credentials[s.Name]
		form, _ := FormOf(c) // validated where the credentials were given
		if !held && (t.TokenProvider == nil || !ProviderFits(s)) {
			continue // another header (Token, Headers) may carry it, or the agent will say
		}
		if s.Kind == KindMutualTLS {
			continue
		}
		if s.Kind == KindBasic {
			r.SetBasicAuth(c.Username, c.Password)
			t.remember(r.Header.Get("Authorization"))
			continue
		}
		var value string
		var err error
		switch {
		case !held:
			value, err = t.provide(r.Context(), s)
		case form == FormClientCredentials:
			if value, err = t.tokens.get(r.Context(), t.Base, s, c, t.TokenOrigins); err == nil {
				if fetched == nil {
					fetched = map[string]string{}
				}
				fetched[s.Name] = value
			}
		default:
			value = c.Token
		}
		if err != nil {
			return nil, err
		}
		t.remember(value, url.QueryEscape(value)) // a query parameter shows up escaped in URLs
		if err := put(r, s, value); err != nil {
			return nil, err
		}
	}
	return fetched, nil
}

// provide asks the TokenProvider for the token of s.
func (t *Transport) provide(ctx context.Context, s Scheme) (string, error) {
	value, err := t.TokenProvider(ctx, s.Name)
	switch {
	case err != nil:
		return "", &AuthError{Scheme: s.Name, Message: "the token provider failed: " + t.Redact(err.Error())}
	case value == "":
		return "", &AuthError{Scheme: s.Name, Message: "the token provider gave no token"}
	}
	return value, nil
}

// put places value where scheme s carries it.
func put(r *http.Request, s Scheme, value string) error {
	if s.bearerLike() {
		r.Header.Set("Authorization", "Bearer "+value)
		return nil
	}
	switch s.In {
	case InHeader:
		r.Header.Set(s.Param, value)
	case InQuery:
		q := r.URL.Query()
		q.Set(s.Param, value)
		r.URL.RawQuery = q.Encode()
	case InCookie:
		r.AddCookie(&http.Cookie{Name: s.Param, Value: value})
	default:
		return &AuthError{Scheme: s.Name, Message: fmt.Sprintf("API key location %q is not header, query or cookie", s.In)}
	}
	return nil
}

func (t *Transport) remember(values ...string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.dynamic == nil {
		t.dynamic = make(map[string]struct{})
	}
	for _, v := range values {
		if len(t.dynamic) >= maxRemembered {
			return
		}
		t.dynamic[v] = struct{}{}
	}
}

// minSecretLen keeps short header values such as "1" from redacting unrelated text.
const minSecretLen = 4

// Redact replaces every credential value this transport knows of in s with "[redacted]".
func (t *Transport) Redact(s string) string {
	secrets := []string{t.Token}
	for _, values := range t.Headers {
		secrets = append(secrets, values...)
	}
	for _, c := range t.Credentials {
		secrets = append(secrets, c.Token, c.Password, c.ClientSecret,
			base64.StdEncoding.EncodeToString([]byte(c.Username+":"+c.Password)))
	}
	t.mu.Lock()
	for v := range t.dynamic {
		secrets = append(secrets, v)
	}
	t.mu.Unlock()
	for _, secret := range secrets {
		for _, form := range []string{secret, strings.TrimPrefix(secret, "Bearer "), strings.TrimPrefix(secret, "Basic ")} {
			if len(form) >= minSecretLen {
				s = strings.ReplaceAll(s, form, "[redacted]")
			}
		}
	}
	return s
}
