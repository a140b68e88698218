package conformance_test

import (
	"fmt"
	"testing"

	"github.com/a2aport/a2aport"

	"github.com/a2aport/a2aport/adapter"
	"github.com/a2aport/a2aport/conformance"
)

// A Port checked against the BackendPort contract, in a test of its own package: the fixture
// gives a fresh backend and Works for each check. Here the Port is a2aport's adapter on an agent
// whose "hold" Works run until cancelled; a Port of your own fits the same way.
func ExampleRun() {
	testMyPort := func(t *testing.T) { // func TestMyPort(t *testing.T) in your package
		conformance.Run(t, func(t *testing.T, opts conformance.FixtureOptions) conformance.Fixture {
			port, err := adapter.New(a2aport.Options{AgentCardURL: "http://127.0.0.1:8080/.well-known/agent-card.json"})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = port.Close() })
			instruction := "complete"
			if opts.Hold {
				instruction = "hold until cancelled"
			}
			n := 0
			next := func() a2aport.Work {
				n++
				return a2aport.Work{ID: fmt.Sprintf("work-%d", n), OwnerID: "alice", Instruction: instruction}
			}
			// With Hold, Started must also say when the held Work reached the agent (the
			// repository's fixtures watch their test agent for it: tests/conformance_test.go).
			return conformance.Fixture{Backend: port, Work: next(), NextWork: next}
		})
	}
	_ = testMyPort
}
