package gateway

import (
	"net/http"
	"testing"
)

// TestOriginHeaders: a backend's static headers go to its card's origin and the origins allowed
// for it (a default port spelt or not), and to no other scheme, host or port.
func TestOriginHeaders(t *testing.T) {
	t.Parallel()
	fn := originHeaders("https://agent.example/.well-known/agent-card.json", []string{"http://127.0.0.1:8081"}, map[string]string{"X-Api-Key": "k"})
	for url, want := range map[string]bool{
		"https://agent.example/a2a":           true,
		"https://AGENT.example:443/a2a":       true,
		"http://127.0.0.1:8081/rpc":           true,
		"http://agent.example/a2a":            false,
		"https://agent.example:8443/a2a":      false,
		"https://agent.example.evil.test/a2a": false,
		"https://idp.example/token":           false,
		"http://127.0.0.1:8082/rpc":           false,
	} {
		req, err := http.NewRequest(http.MethodGet, url, nil)
		if err != nil {
			t.Fatal(err)
		}
		h, err := fn(req)
		if got := err == nil && h.Get("X-Api-Key") == "k"; got != want {
			t.Errorf("%s: headers sent = %v, want %v", url, got, want)
		}
	}
	if originHeaders("https://agent.example/card", nil, nil) != nil {
		t.Error("a backend without headers has a header function")
	}
}
