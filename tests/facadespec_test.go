package tests

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/a2aport/a2aport/facade"
)

// The facade answers as A2A 1.0 says where a2a-go's server, which it runs on, or the official
// suites (the TCK, the draft conformance specification) found it did not: each test names the
// section it holds the facade to.

// TestFacadeCardIsCacheable: the card has Cache-Control with max-age, an ETag and Last-Modified
// (§8.6.1), a client that has it gets 304, and its version is the program's when none is set.
func TestFacadeCardIsCacheable(t *testing.T) {
	t.Parallel()
	card := serveFacade(t, innerPort(t), facade.Options{Name: "cacheable"})
	resp, err := http.Get(card)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	etag, modified := resp.Header.Get("ETag"), resp.Header.Get("Last-Modified")
	if resp.StatusCode != http.StatusOK || etag == "" || modified == "" || !strings.Contains(resp.Header.Get("Cache-Control"), "max-age=") {
		t.Fatalf("card: %d, headers %v", resp.StatusCode, resp.Header)
	}
	var served struct{ Version string }
	if err := json.Unmarshal(body, &served); err != nil || served.Version == "" {
		t.Errorf("the card's version %q (%v)", served.Version, err)
	}
	for _, h := range []http.Header{{"If-None-Match": {etag}}, {"If-Modified-Since": {modified}}} {
		req, _ := http.NewRequest(http.MethodGet, card, nil)
		req.Header = h
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusNotModified {
			t.Errorf("GET with %v: %d, want 304", h, resp.StatusCode)
		}
	}
}

// TestFacadePushNotSupportedFirst: a push-config call on a task that does not exist is
// PushNotificationNotSupportedError when the card offers no push notifications (§3.1.7): what the
// agent cannot do at all comes before what it does not have.
func TestFacadePushNotSupportedFirst(t *testing.T) {
	t.Parallel()
	card := serveFacade(t, innerPort(t), facade.Options{Name: "no push"})
	base := strings.TrimSuffix(card, facade.CardPath)
	status, body := versionedPost(t, base+facade.EndpointPath, "1.0",
		`{"jsonrpc":"2.0","id":1,"method":"CreateTaskPushNotificationConfig","params":{"taskId":"no-such-task","url":"https://example.com/hook"}}`)
	if status != http.StatusOK || !strings.Contains(body, "-32003") {
		t.Errorf("JSON-RPC: %d %s, want -32003 PushNotificationNotSupported", status, body)
	}
	status, body = versionedPost(t, base+facade.RESTPath+"/tasks/no-such-task/pushNotificationConfigs", "1.0", `{"url":"https://example.com/hook"}`)
	if status != http.StatusBadRequest || !strings.Contains(body, "PUSH_NOTIFICATION_NOT_SUPPORTED") {
		t.Errorf("HTTP+JSON: %d %s, want 400 PUSH_NOTIFICATION_NOT_SUPPORTED", status, body)
	}
}
