package tests

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/internal/testkit/agent"
)

// corpusCard is a card of internal/a2aclient/testdata/cards (written by @a2a-js/sdk's own serializer and card
// handler, js/test/cards/generate.mjs) and the interface a2aport must pick from it.
type corpusCard struct {
	file    string
	version string // the version of the JSON-RPC interface picked: its URL is pointed at the test agent
}

var cardCorpus = []corpusCard{
	{"a2a-js-1.3.0-tojson.json", "1.0"},
	{"a2a-js-1.3.0-served.json", "1.0"},
	{"a2a-js-1.3.0-served-0.3.json", "0.3"},
	{"a2a-js-0.3.14-served.json", "0.3"},
	{"a2a-go-0.3.15.json", "0.3"},
	{"a2a-go-v2.4.0.json", "1.0"},
}

// corpusJSONRPC is the JSON-RPC interface URL in the corpus (its other interfaces are unreachable).
const corpusJSONRPC = "http://127.0.0.1:1/a2a/jsonrpc"

// TestCardCorpus discovers every corpus card natively and through the module: the first
// compatible interface is picked (past a GRPC one), nothing of the card is ignored, and a Work
// completes against the test agent behind it.
func TestCardCorpus(t *testing.T) {
	t.Parallel()
	cards := map[string][]byte{}
	for _, c := range cardCorpus {
		body, err := os.ReadFile(filepath.Join("..", "internal", "a2aclient", "testdata", "cards", c.file))
		if err != nil {
			t.Fatal(err)
		}
		v := agent.Variant{Version: c.version, Binding: "JSONRPC", Streaming: true}
		endpoint := strings.TrimSuffix(server.CardURL(v), "/.well-known/agent-card.json")
		cards["/"+c.file] = []byte(strings.ReplaceAll(string(body), corpusJSONRPC, endpoint))
	}
	corpusURL := serveCards(t, cards)
	for _, impl := range implementations {
		for _, c := range cardCorpus {
			t.Run(impl.name+"/"+c.file, func(t *testing.T) {
				t.Parallel()
				// The corpus is served from another origin than the test agent behind its interface.
				p := newPort(t, impl, a2aport.Options{AgentCardURL: corpusURL + "/" + c.file, AllowedOrigins: []string{agentOrigin(t)}})
				if _, err := p.Start(testContext(t)); err != nil {
					t.Fatalf("Start() = %v", err)
				}
				d := p.Describe()
				if d.Transport != "JSONRPC" || d.ProtocolVersion != c.version || d.AgentName != "full card" || len(d.CardNotes) != 0 {
					t.Errorf("Describe() = %+v, want JSONRPC %s of \"full card\", no notes", d, c.version)
				}
				out, err := p.Submit(testContext(t), newWork("alice", "complete corpus"))
				if err != nil || !strings.Contains(out.Content, "echo: complete corpus") {
					t.Errorf("Submit() = %+v, %v", out, err)
				}
			})
		}
	}
}

// agentOrigin is the test agent's origin.
func agentOrigin(t *testing.T) string {
	t.Helper()
	u, err := url.Parse(server.CardURL(agent.Variants()[0]))
	if err != nil {
		t.Fatal(err)
	}
	return u.Scheme + "://" + u.Host
}
