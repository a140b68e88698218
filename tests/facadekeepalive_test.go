package tests

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/a2aport/a2aport/facade"
)

// TestFacadeKeepsQuietStreamsAlive: a stream whose task says nothing for longer than KeepAlive
// carries SSE comments meanwhile, on every streaming binding (proxies drop idle streams); with a
// negative KeepAlive it carries none.
func TestFacadeKeepsQuietStreamsAlive(t *testing.T) {
	t.Parallel()
	const interval = 50 * time.Millisecond
	rpc10 := `{"jsonrpc":"2.0","id":"1","method":"SendStreamingMessage","params":{"message":{"messageId":"%s","role":"ROLE_USER","parts":[{"text":"hold quietly"}]}}}`
	rpc03 := `{"jsonrpc":"2.0","id":"1","method":"message/stream","params":{"message":{"kind":"message","messageId":"%s","role":"user","parts":[{"kind":"text","text":"hold quietly"}]}}}`
	rest10 := `{"message":{"messageId":"%s","role":"ROLE_USER","parts":[{"text":"hold quietly"}]}}`
	rest03 := `{"message":{"messageId":"%s","role":"ROLE_USER","content":[{"text":"hold quietly"}]}}` // 0.3 REST is proto-JSON
	for _, keepAlive := range []time.Duration{interval, -1} {
		base := strings.TrimSuffix(serveFacade(t, innerPort(t), facade.Options{Name: "keep-alive", KeepAlive: keepAlive}), facade.CardPath)
		for i, c := range []struct{ name, path, version, body string }{
			{"one endpoint, 1.0", facade.EndpointPath, "1.0", rpc10},
			{"one endpoint, 0.3", facade.EndpointPath, "", rpc03},
			{"1.0 HTTP+JSON", facade.RESTPath + "/message:stream", "", rest10},
			{"0.3 HTTP+JSON", facade.V03RESTPath + "/v1/message:stream", "", rest03},
		} {
			comments := quietComments(t, base+c.path, c.version, strings.Replace(c.body, "%s", c.name+"-"+keepAlive.String()+"-"+string(rune('a'+i)), 1), 8*interval)
			if keepAlive > 0 && comments < 2 {
				t.Errorf("%s, KeepAlive %v: %d comments in %v of quiet", c.name, keepAlive, comments, 8*interval)
			}
			if keepAlive < 0 && comments != 0 {
				t.Errorf("%s, KeepAlive %v: %d comments, want none", c.name, keepAlive, comments)
			}
		}
	}
}

// quietComments opens a stream and counts the SSE comment lines that arrive within quiet after
// its first event.
func quietComments(t *testing.T, endpoint, version, body string, quiet time.Duration) int {
	t.Helper()
	ctx, cancel := context.WithCancel(testContext(t))
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	if version != "" {
		req.Header.Set("A2A-Version", version)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: HTTP %d", endpoint, resp.StatusCode)
	}
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			case <-ctx.Done():
				return
			}
		}
	}()
	var deadline <-chan time.Time
	comments := 0
	for {
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatalf("%s: the stream ended while the task held", endpoint)
			}
			if strings.HasPrefix(line, "data:") && deadline == nil {
				deadline = time.After(quiet)
			}
			if strings.HasPrefix(line, ":") && deadline != nil {
				comments++
			}
		case <-deadline:
			return comments
		case <-ctx.Done():
			t.Fatalf("%s: no event before the test's deadline", endpoint)
		}
	}
}
