package credentials

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
)

// Transport is an http.RoundTripper that adds credentials to every request.
// Precedence, lowest first: Token (as Bearer), Headers, HeaderFunc.
type Transport struct {
	Base       http.RoundTripper
	Token      string
	Headers    http.Header
	HeaderFunc func(req *http.Request) (http.Header, error)

	mu      sync.Mutex
	dynamic map[string]struct{} // values HeaderFunc returned, for Redact
}

// HeaderFuncError reports that HeaderFunc failed; the request was not sent.
type HeaderFuncError struct{ Err error }

func (e *HeaderFuncError) Error() string { return fmt.Sprintf("header function failed: %v", e.Err) }
func (e *HeaderFuncError) Unwrap() error { return e.Err }

// maxRemembered bounds the dynamic values kept for redaction (a HeaderFunc may rotate tokens).
const maxRemembered = 64

// RoundTrip implements http.RoundTripper. It never modifies req.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	r := req.Clone(req.Context())
	if t.Token != "" {
		r.Header.Set("Authorization", "Bearer "+t.Token)
	}
	for name, values := range t.Headers {
		r.Header[http.CanonicalHeaderKey(name)] = append([]string(nil), values...)
	}
	if t.HeaderFunc != nil {
		extra, err := t.HeaderFunc(r)
		if err != nil {
			if r.Body != nil {
				_ = r.Body.Close() // RoundTrip must close the body even when it fails
			}
			return nil, &HeaderFuncError{Err: err}
		}
		for name, values := range extra {
			r.Header[http.CanonicalHeaderKey(name)] = append([]string(nil), values...)
			t.remember(values)
		}
	}
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	return base.RoundTrip(r)
}

func (t *Transport) remember(values []string) {
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
	t.mu.Lock()
	for v := range t.dynamic {
		secrets = append(secrets, v)
	}
	t.mu.Unlock()
	for _, secret := range secrets {
		for _, form := range []string{secret, strings.TrimPrefix(secret, "Bearer ")} {
			if len(form) >= minSecretLen {
				s = strings.ReplaceAll(s, form, "[redacted]")
			}
		}
	}
	return s
}
