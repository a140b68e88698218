package host_test

import (
	"context"
	"fmt"

	"github.com/a2aport/a2aport"

	"github.com/a2aport/a2aport/host"
	"github.com/a2aport/a2aport/internal/testkit/agent"
)

// The same Work as adapter.New's example, on the WebAssembly module under wazero: the same
// options, events, outcome and errors. The remote agent is the repository's test agent.
func ExampleNew() {
	server, err := agent.Start()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer server.Close()

	port, err := host.New(context.Background(), a2aport.Options{AgentCardURL: server.CardURL(agent.Variants()[0])})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer func() { _ = port.Close() }()

	out, err := port.Submit(context.Background(), a2aport.Work{ID: "w1", OwnerID: "alice", Instruction: "complete the report"})
	fmt.Printf("%q %v\n", out.Content, err)
	fmt.Println(port.Describe().Transport, port.Describe().ProtocolVersion)
	// Output:
	// "done\n\necho: complete the report" <nil>
	// JSONRPC 1.0
}
