package gateway

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/facade"
	"github.com/a2aport/a2aport/funcport"
)

// FuzzServeHTTP: whatever a caller's method, path and body, the gateway answers (it panicked on a
// path that is not UTF-8), and its metrics stay a closed set of valid labels.
func FuzzServeHTTP(f *testing.F) {
	f.Add("GET", "/%ff", "", "")
	f.Add("GET", "/\xff", "", "")
	f.Add("POST", "/a2a", `{"jsonrpc":"2.0","id":1,"method":"nope-\u0000\u009b"}`, "1.0")
	f.Add("POST", "/a2a/rest/tasks/\xc2\x9b:subscribe", `{}`, "1.0")
	f.Add("BREW", "/a2a/rest/message:send", `{"message":{"taskId":"x","taskId":""}}`, "")
	port := funcport.New(func(context.Context, a2aport.Work, *funcport.Turn) (a2aport.Outcome, error) {
		return a2aport.Outcome{Content: "ok"}, nil
	}, funcport.Options{})
	g, err := New(Options{Facade: facade.Options{BaseURL: "http://127.0.0.1:1"}, Backends: []Backend{{Name: "fn", Port: port}}, Default: "fn"})
	if err != nil {
		f.Fatal(err)
	}
	g.Start(context.Background())
	f.Cleanup(func() { _ = g.Close() })
	f.Fuzz(func(t *testing.T, method, path, body, version string) {
		if method == "" || strings.ContainsAny(method, " \r\n") {
			method = "GET"
		}
		r := &http.Request{Method: method, URL: &url.URL{Path: path}, Header: http.Header{"Content-Type": {"application/json"}},
			Body: http.NoBody, Host: "127.0.0.1:1", RemoteAddr: "127.0.0.1:9"}
		if version != "" {
			r.Header.Set("A2A-Version", version)
		}
		if body != "" {
			r.Body, r.ContentLength = httpBody(body), int64(len(body))
		}
		g.ServeHTTP(httptest.NewRecorder(), r.WithContext(context.Background()))
		scrape := httptest.NewRecorder()
		g.Admin().ServeHTTP(scrape, httptest.NewRequest(http.MethodGet, "/metrics", nil))
		out := scrape.Body.String()
		if scrape.Code != http.StatusOK || !utf8.ValidString(out) {
			t.Fatalf("/metrics after %q %q: %d", method, path, scrape.Code)
		}
		for _, m := range requestLabel.FindAllStringSubmatch(out, -1) {
			if !closedLabels[m[1]] {
				t.Fatalf("a metric label from outside the closed set after %q %q: %q", method, path, m[1])
			}
		}
	})
}

var requestLabel = regexp.MustCompile(`a2aport_gateway_requests_total\{method="([^"]*)"`)

// closedLabels are the request labels there are: the A2A operations, the card, everything else.
var closedLabels = map[string]bool{"other": true, "card": true, "SendMessage": true, "SendStreamingMessage": true,
	"GetTask": true, "ListTasks": true, "CancelTask": true, "SubscribeToTask": true, "GetExtendedAgentCard": true,
	"CreateTaskPushNotificationConfig": true, "GetTaskPushNotificationConfig": true, "ListTaskPushNotificationConfigs": true,
	"DeleteTaskPushNotificationConfig": true}

func httpBody(s string) *readCloser { return &readCloser{strings.NewReader(s)} }

type readCloser struct{ *strings.Reader }

func (readCloser) Close() error { return nil }
