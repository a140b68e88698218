package credentials

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestCredentialForm(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		c    Credential
		want Form // "" means invalid
	}{
		{Credential{Token: "t"}, FormToken},
		{Credential{Username: "u", Password: "p"}, FormBasic},
		{Credential{Username: "u"}, FormBasic},
		{Credential{ClientID: "id", ClientSecret: "s", Scopes: []string{"a"}}, FormClientCredentials},
		{Credential{}, FormTransport},
		{Credential{Password: "p"}, ""},
		{Credential{Username: "a:b", Password: "p"}, ""},
		{Credential{ClientID: "id"}, ""},
		{Credential{Token: "t", ClientID: "id", ClientSecret: "s"}, ""},
		{Credential{Token: "t", Username: "u"}, ""},
	} {
		got, err := FormOf(tc.c)
		if got != tc.want || (err != nil) != (tc.want == "") {
			t.Errorf("%+vFormOf() = %q, %v; want %q", tc.c, got, err, tc.want)
		}
	}
}

func TestFits(t *testing.T) {
	t.Parallel()
	for kind, forms := range map[Kind][]Form{
		KindBearer: {FormToken}, KindAPIKey: {FormToken}, KindOpenIDConnect: {FormToken}, KindBasic: {FormBasic},
		KindOAuth2: {FormToken, FormClientCredentials}, KindMutualTLS: {FormTransport}, KindUnsupported: nil,
	} {
		for _, f := range []Form{FormToken, FormBasic, FormClientCredentials, FormTransport} {
			want := false
			for _, ok := range forms {
				want = want || ok == f
			}
			if got := f.Fits(Scheme{Kind: kind}); got != want {
				t.Errorf("%s.Fits(%s) = %v, want %v", f, kind, got, want)
			}
		}
	}
}

// Each kind of scheme lands where the card says; the request's own URL and headers are untouched.
func TestPlanPlacesEachScheme(t *testing.T) {
	t.Parallel()
	var got *http.Request
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { got = r.Clone(context.Background()) }))
	defer srv.Close()
	rt := &Transport{Base: http.DefaultTransport, Credentials: map[string]Credential{
		"b": {Token: "bearer-secret"}, "u": {Username: "user", Password: "pass-secret"},
		"h": {Token: "header-secret"}, "q": {Token: "query secret&"}, "c": {Token: "cookie-secret"}, "tls": {},
	}}
	for _, tc := range []struct {
		s     Scheme
		check func() string
	}{
		{Scheme{Name: "b", Kind: KindBearer}, func() string { return got.Header.Get("Authorization") }},
		{Scheme{Name: "u", Kind: KindBasic}, func() string { u, p, _ := got.BasicAuth(); return u + ":" + p }},
		{Scheme{Name: "h", Kind: KindAPIKey, In: InHeader, Param: "X-Key"}, func() string { return got.Header.Get("X-Key") }},
		{Scheme{Name: "q", Kind: KindAPIKey, In: InQuery, Param: "key"}, func() string { return got.URL.Query().Get("key") + "|" + got.URL.Query().Get("keep") }},
		{Scheme{Name: "c", Kind: KindAPIKey, In: InCookie, Param: "session"}, func() string { c, _ := got.Cookie("session"); return c.Value }},
		{Scheme{Name: "tls", Kind: KindMutualTLS}, func() string { return got.Header.Get("Authorization") }},
		{Scheme{Name: "absent", Kind: KindBearer}, func() string { return got.Header.Get("Authorization") }},
	} {
		req, _ := http.NewRequestWithContext(WithPlan(context.Background(), []Scheme{tc.s}), http.MethodGet, srv.URL+"/?keep=1", nil)
		resp, err := rt.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		want := map[string]string{"b": "Bearer bearer-secret", "u": "user:pass-secret", "h": "header-secret", "q": "query secret&|1",
			"c": "cookie-secret"}[tc.s.Name]
		if v := tc.check(); v != want {
			t.Errorf("%s: got %q, want %q", tc.s.Name, v, want)
		}
		if req.URL.RawQuery != "keep=1" || len(req.Header) != 0 {
			t.Errorf("%s: the caller's request changed: %v %v", tc.s.Name, req.URL, req.Header)
		}
	}
	if text := rt.Redact("bearer-secret pass-secret " + "query+secret%26"); strings.Contains(text, "secret") {
		t.Errorf("Redact() = %q", text)
	}
}

// tokenServer issues numbered tokens that live for life; the agent behind accepts only the latest.
func tokenServer(t *testing.T, life int) (*httptest.Server, *atomic.Int32) {
	var issued atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/token":
			id, secret, _ := r.BasicAuth()
			_ = r.ParseForm()
			if id != "client" || secret != "s3cret" || r.PostForm.Get("grant_type") != "client_credentials" || r.PostForm.Get("scope") != "a b" {
				w.WriteHeader(http.StatusUnauthorized)
				_, _ = io.WriteString(w, `{"error":"invalid_client"}`)
				return
			}
			n := issued.Add(1)
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(map[string]any{"access_token": fmt.Sprintf("tok-%d", n), "token_type": "bearer", "expires_in": life})
		default:
			body, _ := io.ReadAll(r.Body)
			if r.Header.Get("Authorization") != fmt.Sprintf("Bearer tok-%d", issued.Load()) {
				w.WriteHeader(http.StatusUnauthorized)
				return
			}
			_, _ = w.Write(body)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &issued
}

func TestClientCredentials(t *testing.T) {
	t.Parallel()
	srv, issued := tokenServer(t, 100)
	now := time.Unix(1000, 0)
	rt := &Transport{Base: http.DefaultTransport, Credentials: map[string]Credential{"o": {ClientID: "client", ClientSecret: "s3cret"}}}
	rt.tokens.now = func() time.Time { return now }
	plan := []Scheme{{Name: "o", Kind: KindOAuth2, TokenURL: srv.URL + "/token", Scopes: []string{"a", "b"}}}
	send := func() (int, string) {
		req, _ := http.NewRequestWithContext(WithPlan(context.Background(), plan), http.MethodPost, srv.URL+"/agent", strings.NewReader("hello"))
		resp, err := rt.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = resp.Body.Close() }()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	for range 3 {
		if status, body := send(); status != 200 || body != "hello" {
			t.Fatalf("send = %d %q", status, body)
		}
	}
	if n := issued.Load(); n != 1 {
		t.Errorf("%d tokens for three requests, want one", n)
	}
	now = now.Add(89 * time.Second) // renewed a tenth of the lifetime before expiry, not earlier
	send()
	if n := issued.Load(); n != 1 {
		t.Errorf("renewed at 89 s of 100: %d tokens", n)
	}
	now = now.Add(2 * time.Second)
	send()
	if n := issued.Load(); n != 2 {
		t.Errorf("not renewed at 91 s of 100: %d tokens", n)
	}
	issued.Add(1) // the server rotates: the cached token is now refused, once
	if status, body := send(); status != 200 || body != "hello" {
		t.Errorf("after a refused token: %d %q, want the request sent again, with its body, and a fresh token", status, body)
	}
	if text := rt.Redact("s3cret tok-2 tok-4"); strings.Contains(text, "s3cret") || strings.Contains(text, "tok-") {
		t.Errorf("Redact() = %q", text)
	}
}

func TestClientCredentialsRefused(t *testing.T) {
	t.Parallel()
	srv, _ := tokenServer(t, 100)
	rt := &Transport{Base: http.DefaultTransport, Credentials: map[string]Credential{"o": {ClientID: "client", ClientSecret: "wrong"}}}
	for _, tc := range []struct {
		scheme Scheme
		retry  bool
		text   string
	}{
		{Scheme{Name: "o", Kind: KindOAuth2, TokenURL: srv.URL + "/token", Scopes: []string{"a", "b"}}, false, "HTTP 401: invalid_client"},
		{Scheme{Name: "o", Kind: KindOAuth2}, false, "no client-credentials token URL"},
		{Scheme{Name: "o", Kind: KindOAuth2, TokenURL: "http://127.0.0.1:1/token"}, true, "token request failed"},
	} {
		req, _ := http.NewRequestWithContext(WithPlan(context.Background(), []Scheme{tc.scheme}), http.MethodGet, srv.URL+"/agent", nil)
		_, err := rt.RoundTrip(req)
		e, ok := err.(*AuthError)
		if !ok || e.Retry != tc.retry || !strings.Contains(e.Error(), tc.text) || !e.RequestNotSent() {
			t.Errorf("RoundTrip() = %v, want an AuthError (retry %v) saying %q", err, tc.retry, tc.text)
		}
	}
}
