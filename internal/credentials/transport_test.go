package credentials

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestPrecedenceAndRedaction(t *testing.T) {
	t.Parallel()
	var got http.Header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { got = r.Header.Clone() }))
	defer srv.Close()
	rt := &Transport{Base: http.DefaultTransport, Token: "token-secret", Headers: http.Header{"x-static": {"static-secret"}},
		HeaderFunc: func(*http.Request) (http.Header, error) { return http.Header{"X-Dynamic": {"dynamic-secret"}}, nil }}
	req, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
	resp, err := rt.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if got.Get("Authorization") != "Bearer token-secret" || got.Get("X-Static") != "static-secret" || got.Get("X-Dynamic") != "dynamic-secret" {
		t.Errorf("server saw %v", got)
	}
	if req.Header.Get("Authorization") != "" {
		t.Error("RoundTrip modified the caller's request")
	}
	text := rt.Redact("token-secret static-secret dynamic-secret Bearer token-secret ok")
	if strings.Contains(text, "secret") || !strings.HasSuffix(text, " ok") {
		t.Errorf("Redact() = %q", text)
	}
	if rt.Redact("a 1 b") != "a 1 b" {
		t.Error("Redact() touched text shorter than any secret")
	}
}

func TestHeaderFuncFailureSendsNothing(t *testing.T) {
	t.Parallel()
	sent := false
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { sent = true }))
	defer srv.Close()
	rt := &Transport{Base: http.DefaultTransport, HeaderFunc: func(*http.Request) (http.Header, error) { return nil, errors.New("refresh failed") }}
	req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader("body"))
	_, err := rt.RoundTrip(req)
	var hf *HeaderFuncError
	if !errors.As(err, &hf) || sent {
		t.Errorf("RoundTrip() = %v, sent %v; want HeaderFuncError and no request", err, sent)
	}
}
