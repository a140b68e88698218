package tests

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a2aport/a2aport/internal/testkit/agent"
)

// TestGatewayPushes: a gateway with push on (a webhook on loopback allowed by its configuration)
// POSTs a task's events to the webhook a caller gave with its message, with the caller's token,
// through to the completed state, and counts them in /metrics; the card offers push; a webhook
// the configuration does not allow (the metadata service) is refused and creates nothing.
func TestGatewayPushes(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var got []string
	tokens := map[string]bool{}
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, readAll(&http.Response{Body: r.Body}))
		tokens[r.Header.Get("X-A2A-Notification-Token")] = true
	}))
	t.Cleanup(hook.Close)
	base, _ := configuredGateway(t, `
publicURL: $BASE
default: agent
auth:
  bearerTokens: [{name: alice, token: alice-token}]
push:
  enabled: true
  allowedWebhooks: [`+hook.URL+`]
backends:
  - name: agent
    card: `+server.CardURL(agent.Variants()[1])+`
`)
	_, card := getText(t, base+"/.well-known/agent-card.json")
	if !strings.Contains(card, `"pushNotifications": true`) {
		t.Errorf("the card does not offer push:\n%s", card)
	}
	_, body := rpcCall(t, base, "alice-token", "SendMessage", `{"message":{"messageId":"p1","role":"ROLE_USER","parts":[{"text":"complete pushed"}]},
		"configuration":{"taskPushNotificationConfig":{"url":"`+hook.URL+`/hook","token":"hook-secret"}}}`)
	if !completed(body) {
		t.Fatalf("the message: %s", body)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		mu.Lock()
		done := len(got) > 0 && strings.Contains(got[len(got)-1], "TASK_STATE_COMPLETED")
		mu.Unlock()
		if done || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	mu.Lock()
	if len(got) == 0 || !strings.Contains(got[len(got)-1], "TASK_STATE_COMPLETED") || !tokens["hook-secret"] || len(tokens) != 1 {
		t.Errorf("the webhook got %d deliveries (last %q), tokens %v", len(got), got[max(0, len(got)-1):], tokens)
	}
	n := len(got)
	mu.Unlock()
	req, _ := http.NewRequest(http.MethodGet, base+"/metrics", nil)
	req.Header.Set("Authorization", "Bearer alice-token")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if metrics := readAll(resp); !strings.Contains(metrics, `a2aport_gateway_push_total{outcome="delivered"}`) {
		t.Errorf("/metrics does not count deliveries (%d delivered)", n)
	}
	_, body = rpcCall(t, base, "alice-token", "SendMessage", `{"message":{"messageId":"p2","role":"ROLE_USER","parts":[{"text":"complete not pushed"}]},
		"configuration":{"taskPushNotificationConfig":{"url":"http://169.254.169.254/latest/meta-data","token":"x"}}}`)
	if !strings.Contains(body, "-32602") || strings.Contains(body, "TASK_STATE") {
		t.Errorf("a webhook on the metadata service: %s, want invalid params and no task", body)
	}
}
