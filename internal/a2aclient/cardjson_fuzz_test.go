package a2aclient

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// FuzzParseCard: any bytes served as an Agent Card are read or refused with an error, never a
// panic; a card that is read has what discovery needs.
func FuzzParseCard(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "cards", "*.json"))
	for _, file := range files {
		body, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(body)
	}
	f.Add([]byte(`{"name":"x","supportedInterfaces":[{"url":"http://127.0.0.1/","protocolBinding":"JSONRPC"}],"capabilities":{},"securityRequirements":[{"schemes":{"b":{}}}]}`))
	f.Add([]byte(`{"name":null,"skills":[null,{"id":1}],"securitySchemes":{"x":{"type":"http"}}}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, parse := range []func([]byte) (*a2a.AgentCard, error){parseCurrentCard, parseLegacyCard} {
			card, _, err := parseCard(body, parse)
			if err == nil && card == nil {
				t.Fatal("parseCard returned neither a card nor an error")
			}
		}
	})
}
