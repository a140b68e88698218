package tests

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/internal/testkit/agent"
)

// TestBadCards: cards no agent should serve fail Start with a typed error naming the problem,
// natively and in the module; nothing is sent to an interface that is not one.
func TestBadCards(t *testing.T) {
	t.Parallel()
	cards := map[string]string{
		"/html":         `<html><body>Welcome</body></html>`,
		"/empty":        `{}`,
		"/no-iface":     `{"name":"x","version":"1","capabilities":{},"supportedInterfaces":[]}`,
		"/relative":     `{"name":"x","version":"1","capabilities":{},"supportedInterfaces":[{"url":"/a2a","protocolBinding":"JSONRPC","protocolVersion":"1.0"}]}`,
		"/ftp":          `{"name":"x","version":"1","capabilities":{},"supportedInterfaces":[{"url":"ftp://127.0.0.1/a2a","protocolBinding":"JSONRPC","protocolVersion":"1.0"}]}`,
		"/grpc-only":    `{"name":"x","version":"1","capabilities":{},"supportedInterfaces":[{"url":"127.0.0.1:1","protocolBinding":"GRPC","protocolVersion":"1.0"}]}`,
		"/v03-relative": `{"name":"x","version":"1","protocolVersion":"0.3.0","url":"/rpc","preferredTransport":"JSONRPC","capabilities":{},"defaultInputModes":[],"defaultOutputModes":[],"skills":[]}`,
		"/array":        `[1, 2, 3]`,
		"/truncated":    `{"name":"x","supportedInterfaces":[{"url":"http://127.0.0.1:1/a`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := cards[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(body)) // a test server: a failed write shows as the test's failure
	}))
	t.Cleanup(srv.Close)
	want := map[string]struct {
		err  *a2aport.Error
		text string
	}{
		"/html":         {a2aport.ErrDiscoveryFailed, "not valid JSON"},
		"/empty":        {a2aport.ErrNoCompatibleTransport, "declares no interface"},
		"/no-iface":     {a2aport.ErrNoCompatibleTransport, "declares no interface"},
		"/relative":     {a2aport.ErrNoCompatibleTransport, "not an absolute http(s) URL"},
		"/ftp":          {a2aport.ErrNoCompatibleTransport, "not an absolute http(s) URL"},
		"/grpc-only":    {a2aport.ErrNoCompatibleTransport, "GRPC"},
		"/v03-relative": {a2aport.ErrNoCompatibleTransport, "not an absolute http(s) URL"},
		"/array":        {a2aport.ErrDiscoveryFailed, ""},
		"/truncated":    {a2aport.ErrDiscoveryFailed, ""},
	}
	for _, impl := range implementations {
		for path, w := range want {
			t.Run(impl.name+path, func(t *testing.T) {
				t.Parallel()
				_, err := newPort(t, impl, a2aport.Options{AgentCardURL: srv.URL + path}).Start(testContext(t))
				if !errors.Is(err, w.err) || !strings.Contains(err.Error(), w.text) {
					t.Errorf("Start() = %v (code %q), want %s mentioning %q", err, a2aport.CodeOf(err), w.err.Code, w.text)
				}
			})
		}
	}
}

// TestBadWork: Works that cannot be sent fail Submit with INVALID_WORK before any request, and the
// adapter stays usable; a large instruction is sent whole.
func TestBadWork(t *testing.T) {
	t.Parallel()
	for _, impl := range implementations {
		t.Run(impl.name, func(t *testing.T) {
			t.Parallel()
			ctx := testContext(t)
			p := newPort(t, impl, a2aport.Options{AgentCardURL: server.CardURL(agent.Variants()[0])})
			for name, w := range map[string]a2aport.Work{
				"no id":              {OwnerID: "alice", Instruction: "x"},
				"no owner":           {ID: "w-bad-1", Instruction: "x"},
				"no input":           {ID: "w-bad-2", OwnerID: "alice", Instruction: "   "},
				"unknown continuity": {ID: "w-bad-3", OwnerID: "alice", Instruction: "x", Continuity: "shared"},
				"malformed data URL": {ID: "w-bad-4", OwnerID: "alice", Instruction: "x", InputParts: []a2aport.InputPart{{Type: "file", URL: "data:text/plain;base64,%%%"}}},
				"not a URL":          {ID: "w-bad-5", OwnerID: "alice", Instruction: "x", InputParts: []a2aport.InputPart{{Type: "file", URL: "file:///etc/passwd"}}},
				"not a file part":    {ID: "w-bad-6", OwnerID: "alice", Instruction: "x", InputParts: []a2aport.InputPart{{Type: "text", URL: "https://a.example/x"}}},
			} {
				if _, err := p.Submit(ctx, w); !errors.Is(err, a2aport.ErrInvalidWork) {
					t.Errorf("Submit(%s) = %v, want INVALID_WORK", name, err)
				}
			}
			big := "complete " + strings.Repeat("long instruction ", 1<<16) // 1 MiB
			out, err := p.Submit(ctx, newWork("alice", big))
			if err != nil || !strings.Contains(out.Content, strings.TrimSpace(big)) {
				t.Errorf("Submit(a 1 MiB instruction) = %d bytes, %v; want it echoed whole", len(out.Content), err)
			}
		})
	}
}
