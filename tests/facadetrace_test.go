package tests

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/a2aport/a2aport/facade"
)

// TestFacadePassesTraceparentOn: a caller's W3C trace context reaches the agent behind the facade's
// Port on the Work's requests; one that is not valid is dropped, and the task still runs.
func TestFacadePassesTraceparentOn(t *testing.T) {
	t.Parallel()
	endpoint := strings.TrimSuffix(serveFacade(t, innerPort(t), facade.Options{Name: "traced"}), facade.CardPath) + facade.EndpointPath
	for _, c := range []struct{ name, traceparent, instruction string }{
		{"valid", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "complete traced through the facade"},
		{"all zeros", "00-00000000000000000000000000000000-00f067aa0ba902b7-01", "complete with a zero trace"},
	} {
		body := `{"jsonrpc":"2.0","id":"1","method":"SendMessage","params":{"message":{"messageId":"` + c.name + `","role":"ROLE_USER","parts":[{"text":"` + c.instruction + `"}]}}}`
		req, _ := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("A2A-Version", "1.0")
		req.Header.Set("traceparent", c.traceparent)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		answer, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if !strings.Contains(string(answer), "echo: "+c.instruction) {
			t.Errorf("%s: %s", c.name, answer)
		}
		reached, carried := false, ""
		for _, r := range server.Requests() {
			if r.A2AMethod == "SendMessage" || r.A2AMethod == "SendStreamingMessage" {
				if strings.Contains(r.Header.Get("traceparent"), "4bf92f3577b34da6a3ce929d0e0e4736") || strings.Contains(r.Header.Get("traceparent"), "00000000000000000000000000000000") {
					carried = r.Header.Get("traceparent")
				}
				reached = true
			}
		}
		switch {
		case !reached:
			t.Errorf("%s: no send reached the agent", c.name)
		case c.name == "valid" && carried != c.traceparent:
			t.Errorf("%s: the agent saw traceparent %q", c.name, carried)
		case c.name == "all zeros" && strings.Contains(carried, "0000000000000000000000000000000"):
			t.Errorf("%s: an invalid traceparent was passed on", c.name)
		}
	}
}
