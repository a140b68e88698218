package tests

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/internal/testkit/agent"
)

// TestExtensions: the extensions the options activate and the card declares are asked for on the
// Work's requests (A2A-Extensions), one the card does not declare is not; a card that requires an
// extension the options leave out fails discovery with A2A_EXTENSION_REQUIRED naming it.
func TestExtensions(t *testing.T) {
	t.Parallel()
	card := server.SpecialCardURL(agent.CardExtensions)
	for _, impl := range implementations {
		t.Run(impl.name+"/activated", func(t *testing.T) {
			t.Parallel()
			p := newPort(t, impl, a2aport.Options{AgentCardURL: card,
				Extensions: []string{agent.ExtensionRequired, agent.ExtensionOptional, "urn:a2aport:test:undeclared"}})
			tp := fmt.Sprintf("00-%032x-%016x-01", 0xe0000+workSeq.Add(1), 9) // finds this Work's requests
			if _, err := p.Submit(testContext(t), newWork("alice", "complete extended"), a2aport.Traceparent(tp)); err != nil {
				t.Fatalf("Submit() = %v", err)
			}
			var asked []string
			for _, r := range server.Requests() {
				if r.Header.Get("traceparent") == tp {
					for _, v := range r.Header.Values("A2A-Extensions") {
						for _, uri := range strings.Split(v, ",") {
							asked = append(asked, strings.TrimSpace(uri))
						}
					}
				}
			}
			slices.Sort(asked)
			if want := []string{agent.ExtensionOptional, agent.ExtensionRequired}; !slices.Equal(asked, want) {
				t.Errorf("A2A-Extensions on the Work's requests = %v, want %v", asked, want)
			}
		})
		t.Run(impl.name+"/required", func(t *testing.T) {
			t.Parallel()
			p := newPort(t, impl, a2aport.Options{AgentCardURL: card, Extensions: []string{agent.ExtensionOptional}})
			_, err := p.Start(testContext(t))
			if !errors.Is(err, a2aport.ErrExtensionRequired) || !strings.Contains(err.Error(), agent.ExtensionRequired) {
				t.Errorf("Start() = %v, want A2A_EXTENSION_REQUIRED naming %s", err, agent.ExtensionRequired)
			}
		})
	}
}
