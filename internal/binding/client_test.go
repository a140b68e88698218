package binding

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// TestClientRedirectsAsHTTPClient: Client follows each kind of redirect as http.Client does
// (method, body, where it ends) and reports a refused one as a *url.Error.
func TestClientRedirectsAsHTTPClient(t *testing.T) {
	mux := http.NewServeMux()
	for _, code := range []int{301, 302, 303, 307, 308} {
		mux.HandleFunc("/"+strconv.Itoa(code), func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "/echo", code)
		})
	}
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop", http.StatusFound) })
	mux.HandleFunc("/nowhere", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusFound) })
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		_, _ = io.WriteString(w, r.Method+" "+r.Header.Get("Content-Type")+" "+string(body))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	send := func(do func(*http.Request) (*http.Response, error), path string) string {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+path, strings.NewReader(`{"a":1}`))
		req.Header.Set("Content-Type", "application/json")
		resp, err := do(req)
		if err != nil {
			var ue *url.Error
			if !errors.As(err, &ue) {
				t.Errorf("%s: error %T is not a *url.Error", path, err)
			}
			return "error"
		}
		defer func() { _ = resp.Body.Close() }()
		b, _ := io.ReadAll(resp.Body)
		return strconv.Itoa(resp.StatusCode) + " " + string(b)
	}
	ours := &Client{Transport: http.DefaultTransport}
	theirs := &http.Client{}
	for _, path := range []string{"/301", "/302", "/303", "/307", "/308", "/loop", "/nowhere", "/echo"} {
		got, want := send(ours.Do, path), send(theirs.Do, path)
		if got != want {
			t.Errorf("%s: %q, http.Client %q", path, got, want)
		}
	}

	refuse := errors.New("refused")
	ours.CheckRedirect = func(*http.Request, []*http.Request) error { return refuse }
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/302", nil)
	if _, err := ours.Do(req); !errors.Is(err, refuse) {
		t.Errorf("refused redirect: %v", err)
	}
}
