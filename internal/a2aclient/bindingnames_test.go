package a2aclient

import (
	"strings"
	"testing"
)

// TestBindingNamesAgentsUse: the names agents give A2A's bindings are read as A2A's, each noted
// once; A2A's own names are left alone without a note, and a name of no known binding stays for
// the interface selection to refuse.
func TestBindingNamesAgentsUse(t *testing.T) {
	t.Parallel()
	card := `{"name":"x","version":"1","capabilities":{},"url":"http://127.0.0.1:1/rpc","preferredTransport":"json-rpc",
		"additionalInterfaces":[{"url":"http://127.0.0.1:1/rest","transport":"REST"}],
		"supportedInterfaces":[{"url":"http://127.0.0.1:1/rest","protocolBinding":"REST","protocolVersion":"1.0"},
			{"url":"http://127.0.0.1:1/v1","protocolBinding":"http_json","protocolVersion":"1.0"},
			{"url":"http://127.0.0.1:1/rpc","protocolBinding":"JSONRPC","protocolVersion":"1.0"},
			{"url":"http://127.0.0.1:1/soap","protocolBinding":"SOAP","protocolVersion":"1.0"}]}`
	c, notes, err := ReadCard([]byte(card))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, iface := range c.SupportedInterfaces {
		got = append(got, string(iface.ProtocolBinding))
	}
	if strings.Join(got, " ") != "HTTP+JSON HTTP+JSON JSONRPC SOAP" {
		t.Errorf("bindings %v", got)
	}
	joined := strings.Join(notes, "\n")
	for _, want := range []string{`binding "REST" as HTTP+JSON`, `binding "http_json" as HTTP+JSON`, `binding "json-rpc" as JSONRPC`} {
		if !strings.Contains(joined, want) {
			t.Errorf("notes %q lack %q", notes, want)
		}
	}
	if strings.Count(joined, `"REST"`) != 1 || strings.Contains(joined, "SOAP") || strings.Contains(joined, `"JSONRPC"`) {
		t.Errorf("notes %q: one note per name, none for A2A's names or unknown ones", notes)
	}
}
