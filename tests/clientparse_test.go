package tests

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/internal/testkit/agent"
)

// TestClientKeepsErrorsWhateverTheirData: an agent's JSON-RPC error keeps its code and message
// whatever its data holds (an object, as 0.3 servers write it; a string; an array of A2A 1.0's
// typed details), natively and in the module: "task not found" stays the agent's words, where a
// data object made a2a-go's decoder refuse the whole answer (A2A_INVALID_RESPONSE). Likewise an
// HTTP+JSON error whose details are an object.
func TestClientKeepsErrorsWhateverTheirData(t *testing.T) {
	t.Parallel()
	var srv *httptest.Server
	data := map[string]string{
		"object": `{"taskId":"t-1","reason":"gone"}`,
		"string": `"no such task"`,
		"array":  `[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","domain":"a2a-protocol.org"}]`,
		"null":   `null`,
	}
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name, rest, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
		w.Header().Set("Content-Type", "application/json")
		switch {
		case rest == ".well-known/agent-card.json" && name == "rest-object":
			_, _ = w.Write([]byte(`{"name":"x","description":"x","version":"1","capabilities":{},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"skills":[],
				"supportedInterfaces":[{"url":"` + srv.URL + `/rest-object/a2a","protocolBinding":"HTTP+JSON","protocolVersion":"1.0"}]}`))
		case rest == ".well-known/agent-card.json":
			_, _ = w.Write([]byte(`{"name":"x","description":"x","version":"1","capabilities":{},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"skills":[],
				"supportedInterfaces":[{"url":"` + srv.URL + `/` + name + `/rpc","protocolBinding":"JSONRPC","protocolVersion":"1.0"}]}`))
		case name == "rest-object":
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"error":{"code":404,"status":"NOT_FOUND","message":"Task not found","details":{"taskId":"t-1"}}}`))
		default:
			_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"Task not found","data":` + data[name] + `}}`))
		}
	}))
	t.Cleanup(srv.Close)
	for _, impl := range implementations {
		for _, name := range []string{"object", "string", "array", "null", "rest-object"} {
			t.Run(impl.name+"/"+name, func(t *testing.T) {
				t.Parallel()
				p := newPort(t, impl, a2aport.Options{AgentCardURL: srv.URL + "/" + name + "/.well-known/agent-card.json", RecoveryAttempts: -1})
				_, err := p.Submit(testContext(t), newWork("alice", "anything"))
				if !errors.Is(err, a2aport.ErrProtocolError) && !errors.Is(err, a2aport.ErrHTTPError) || !strings.Contains(err.Error(), "Task not found") {
					t.Errorf("Submit() = %v (code %s), want the agent's error with its words", err, a2aport.CodeOf(err))
				}
			})
		}
	}
}

// TestClientReadsBindingNamesAgentsUse: a card that names HTTP+JSON "REST" (as the draft
// conformance suite and some servers write it) is read as HTTP+JSON, and a note says so; the Work
// runs there, natively and in the module. A name that means nothing known is still refused.
func TestClientReadsBindingNamesAgentsUse(t *testing.T) {
	t.Parallel()
	v := agent.Variants()[3] // 1.0 HTTP+JSON, polling
	_, card := getText(t, server.CardURL(v))
	if !strings.Contains(card, `"HTTP+JSON"`) {
		t.Fatalf("the test agent's card names no HTTP+JSON interface: %s", card)
	}
	cards := map[string]string{
		"/rest":    strings.ReplaceAll(card, `"HTTP+JSON"`, `"REST"`),
		"/unknown": strings.ReplaceAll(card, `"HTTP+JSON"`, `"SOAP"`),
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(cards[r.URL.Path]))
	}))
	t.Cleanup(srv.Close)
	for _, impl := range implementations {
		t.Run(impl.name, func(t *testing.T) {
			t.Parallel()
			p := newPort(t, impl, a2aport.Options{AgentCardURL: srv.URL + "/rest", AllowedOrigins: []string{server.URL()}})
			out, err := p.Submit(testContext(t), newWork("alice", "complete by a binding named REST"))
			if err != nil || !strings.Contains(out.Content, "echo: complete by a binding named REST") {
				t.Fatalf("Submit() = %+v, %v", out, err)
			}
			d := p.Describe()
			if d.Transport != "HTTP+JSON" || !slices.ContainsFunc(d.CardNotes, func(n string) bool { return strings.Contains(n, `binding "REST" as HTTP+JSON`) }) {
				t.Errorf("transport %q, notes %q: want HTTP+JSON and a note on the name", d.Transport, d.CardNotes)
			}
			_, err = newPort(t, impl, a2aport.Options{AgentCardURL: srv.URL + "/unknown", AllowedOrigins: []string{server.URL()}}).Start(testContext(t))
			if !errors.Is(err, a2aport.ErrNoCompatibleTransport) || !strings.Contains(err.Error(), "SOAP") {
				t.Errorf("a binding named SOAP: %v, want no compatible transport naming it", err)
			}
		})
	}
}

// TestClientReadsZeroThreeFileParts: a 1.0 agent whose answer holds one file part written the 0.3
// way ({"kind":"file","file":{"uri",...}}) is read whole, natively and in the module: the file is
// an artifact's URL part, the text beside it kept (the whole task was refused as not A2A).
func TestClientReadsZeroThreeFileParts(t *testing.T) {
	t.Parallel()
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if strings.HasSuffix(r.URL.Path, "agent-card.json") {
			_, _ = w.Write([]byte(`{"name":"x","description":"x","version":"1","capabilities":{},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"skills":[],
				"supportedInterfaces":[{"url":"` + srv.URL + `/rpc","protocolBinding":"JSONRPC","protocolVersion":"1.0"}]}`))
			return
		}
		_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":null,"result":{"task":{"id":"t-1","contextId":"c-1","status":{"state":"TASK_STATE_COMPLETED"},
			"artifacts":[{"artifactId":"a","parts":[{"text":"the report"},{"kind":"file","file":{"uri":"https://files.example/r.pdf","mimeType":"application/pdf","name":"r.pdf"}}]}]}}}`))
	}))
	t.Cleanup(srv.Close)
	for _, impl := range implementations {
		t.Run(impl.name, func(t *testing.T) {
			t.Parallel()
			p := newPort(t, impl, a2aport.Options{AgentCardURL: srv.URL + "/.well-known/agent-card.json"})
			out, err := p.Submit(testContext(t), newWork("alice", "report please"))
			if err != nil {
				t.Fatalf("Submit() = %v (code %s)", err, a2aport.CodeOf(err))
			}
			var url, text string
			for _, a := range out.Artifacts {
				for _, part := range a.Parts {
					switch part.Type {
					case a2aport.PartURL:
						url = part.URL
					case a2aport.PartText:
						text += part.Text
					}
				}
			}
			if url != "https://files.example/r.pdf" || !strings.Contains(text, "the report") {
				t.Errorf("artifacts %+v: want the text and the file's URL", out.Artifacts)
			}
		})
	}
}
