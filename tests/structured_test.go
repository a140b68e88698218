package tests

import (
	"errors"
	"strings"
	"testing"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/facade"
	"github.com/a2aport/a2aport/internal/testkit/agent"
)

// TestStructuredInput: a Work's structured input reaches the agent as one data part, natively and
// in the module; through the facade it becomes the inner Work's input again, the text winning over
// an "instruction" field; a value that does not encode as JSON is INVALID_WORK.
func TestStructuredInput(t *testing.T) {
	t.Parallel()
	for _, impl := range implementations {
		t.Run(impl.name, func(t *testing.T) {
			t.Parallel()
			p := newPort(t, impl, a2aport.Options{AgentCardURL: server.CardURL(agent.Variants()[0])})
			w := newWork("alice", "files with input")
			w.Input = map[string]any{"answer": 42, "ok": true}
			out, err := p.Submit(testContext(t), w)
			if err != nil || !strings.Contains(out.Content, `data {"answer":42,"ok":true}`) {
				t.Errorf("Submit() = %+v, %v", out, err)
			}
			bad := newWork("alice", "files with a function")
			bad.Input = map[string]any{"f": func() {}}
			if _, err := p.Submit(testContext(t), bad); !errors.Is(err, a2aport.ErrInvalidWork) {
				t.Errorf("Submit() with a function = %v, want INVALID_WORK", err)
			}
		})
	}
	t.Run("through the facade", func(t *testing.T) {
		t.Parallel()
		card := serveFacade(t, innerPort(t), facade.Options{Name: "facade"})
		p := newPort(t, implementations[0], a2aport.Options{AgentCardURL: card})
		w := newWork("alice", "files via the facade")
		w.Input = map[string]any{"instruction": "not this", "k": "v"}
		out, err := p.Submit(testContext(t), w)
		if err != nil || !strings.Contains(out.Content, `data {"k":"v"}`) || strings.Contains(out.Content, "not this") {
			t.Errorf("Submit() = %+v, %v", out, err)
		}
	})
}
