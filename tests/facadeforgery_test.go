package tests

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/facade"
)

// TestFacadeForgery: what a page of another site can make a browser send without a CORS preflight
// (text/plain, a form, multipart: with the browser's cookies) is refused with 415 and a JSON error
// on every A2A endpoint, as is a request the browser marks as cross-site (403); nothing runs. JSON
// and the A2A media type are served.
func TestFacadeForgery(t *testing.T) {
	t.Parallel()
	var events atomic.Int32
	inner := innerPort(t)
	unsub := inner.Subscribe(func(a2aport.Event) { events.Add(1) })
	defer unsub()
	card := serveFacade(t, inner, facade.Options{Name: "facade"})
	base := strings.TrimSuffix(card, facade.CardPath)
	rpc := `{"jsonrpc":"2.0","id":"1","method":"SendMessage","params":{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"complete forged"}]}}}`
	rpc03 := `{"jsonrpc":"2.0","id":"1","method":"message/send","params":{"message":{"kind":"message","messageId":"m1","role":"user","parts":[{"kind":"text","text":"complete forged"}]}}}`
	rest := `{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"complete forged"}]}}`
	rest03 := `{"message":{"messageId":"m1","role":"ROLE_USER","content":[{"text":"complete forged"}]}}` // 0.3 REST is proto-JSON
	endpoints := []struct{ name, url, body string }{
		{"1.0 JSON-RPC", base + facade.JSONRPCPath, rpc},
		{"1.0 HTTP+JSON", base + facade.RESTPath + "/message:send", rest},
		{"0.3 JSON-RPC", base + facade.V03RPCPath, rpc03},
		{"0.3 HTTP+JSON", base + facade.V03RESTPath + "/v1/message:send", rest03},
		{"1.0 HTTP+JSON cancel", base + facade.RESTPath + "/tasks/some-task:cancel", "x"},
	}
	post := func(url, contentType, body string, header map[string]string) (int, string) {
		req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		for k, v := range header {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = resp.Body.Close() }()
		data, _ := io.ReadAll(resp.Body)
		if !json.Valid(data) {
			t.Errorf("POST %s (%s): the answer is not JSON: %q", url, contentType, data)
		}
		return resp.StatusCode, string(data)
	}
	for _, e := range endpoints {
		for _, ct := range []string{"text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", ""} {
			if status, body := post(e.url, ct, e.body, nil); status != http.StatusUnsupportedMediaType {
				t.Errorf("%s with %q: %d %s, want 415", e.name, ct, status, body)
			}
		}
		if status, body := post(e.url, "application/json", e.body, map[string]string{"Sec-Fetch-Site": "cross-site"}); status != http.StatusForbidden {
			t.Errorf("%s from another site: %d %s, want 403", e.name, status, body)
		}
		if status, body := post(e.url, "application/json", e.body, map[string]string{"Origin": "https://evil.example"}); status != http.StatusForbidden {
			t.Errorf("%s with a foreign Origin: %d %s, want 403", e.name, status, body)
		}
	}
	if n := events.Load(); n != 0 {
		t.Fatalf("refused requests started Works: %d events", n)
	}
	for _, e := range endpoints[:4] {
		for _, ct := range []string{"application/json", "application/json; charset=utf-8", "application/a2a+json"} {
			if status, body := post(e.url, ct, e.body, map[string]string{"Sec-Fetch-Site": "same-origin"}); status != http.StatusOK || !strings.Contains(body, "echo: complete forged") {
				t.Errorf("%s with %q: %d %.300s, want the task", e.name, ct, status, body)
			}
		}
	}
}
