package tests

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/a2aport/a2aport/facade"
)

// TestFacadeAllowsListedOrigins: with AllowedOrigins, a listed origin's preflight is answered and
// its cross-site request runs with its answer readable (credentials included); an unlisted
// origin's preflight is refused and its request too, with no CORS header; the card is readable by
// any page. A bad origin in the list fails facade.New.
func TestFacadeAllowsListedOrigins(t *testing.T) {
	t.Parallel()
	const listed, unlisted = "http://app.example:8080", "http://evil.example"
	base := strings.TrimSuffix(serveFacade(t, innerPort(t), facade.Options{Name: "cors", AllowedOrigins: []string{listed}}), facade.CardPath)
	do := func(method, path, origin string, header map[string]string, body string) (*http.Response, string) {
		t.Helper()
		req, err := http.NewRequest(method, base+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Origin", origin)
		for k, v := range header {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = resp.Body.Close() }()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	preflight := map[string]string{"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type, a2a-version"}
	resp, _ := do(http.MethodOptions, facade.EndpointPath, listed, preflight, "")
	if resp.StatusCode != http.StatusNoContent || resp.Header.Get("Access-Control-Allow-Origin") != listed ||
		resp.Header.Get("Access-Control-Allow-Credentials") != "true" || !strings.Contains(resp.Header.Get("Access-Control-Allow-Headers"), "a2a-version") {
		t.Errorf("listed preflight: %d %v", resp.StatusCode, resp.Header)
	}
	resp, _ = do(http.MethodOptions, facade.EndpointPath, unlisted, preflight, "")
	if resp.StatusCode != http.StatusForbidden || resp.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("unlisted preflight: %d %v", resp.StatusCode, resp.Header)
	}
	send := `{"jsonrpc":"2.0","id":"c","method":"SendMessage","params":{"message":{"messageId":"%s","role":"ROLE_USER","parts":[{"text":"complete across origins"}]}}}`
	cross := map[string]string{"Content-Type": "application/json", "A2A-Version": "1.0", "Sec-Fetch-Site": "cross-site"}
	resp, body := do(http.MethodPost, facade.EndpointPath, listed, cross, strings.Replace(send, "%s", "m-listed", 1))
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Access-Control-Allow-Origin") != listed || !strings.Contains(body, "echo: complete across origins") {
		t.Errorf("listed request: %d %v %s", resp.StatusCode, resp.Header, body)
	}
	resp, body = do(http.MethodPost, facade.EndpointPath, unlisted, cross, strings.Replace(send, "%s", "m-unlisted", 1))
	if resp.StatusCode != http.StatusForbidden || resp.Header.Get("Access-Control-Allow-Origin") != "" || strings.Contains(body, "echo") {
		t.Errorf("unlisted request: %d %v %s", resp.StatusCode, resp.Header, body)
	}
	resp, _ = do(http.MethodGet, facade.CardPath, unlisted, nil, "")
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Access-Control-Allow-Origin") == "" {
		t.Errorf("card: %d %v", resp.StatusCode, resp.Header)
	}
	if _, err := facade.New(innerPort(t), facade.Options{BaseURL: base, AllowedOrigins: []string{"http://app.example/path"}}); err == nil {
		t.Error("an origin with a path was accepted")
	}
}
