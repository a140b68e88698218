package adapter_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/a2aport/a2aport/adapter"
	"github.com/a2aport/a2aport/tests/agent"
)

// The remote agent here is the repository's test agent (a2a-go's own server on loopback).
func ExampleNew() {
	server, err := agent.Start()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer server.Close()

	a, err := adapter.New(adapter.Options{AgentCardURL: server.CardURL(agent.Variants()[0])})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer func() { _ = a.Close() }()

	out, err := a.Submit(context.Background(),
		adapter.Work{ID: "w1", OwnerID: "alice", Instruction: "complete the report"},
		adapter.OnEvent(func(ev adapter.Event) {
			if ev.Type == adapter.EventArtifact {
				fmt.Println("artifact:", ev.Artifact.Name)
			}
		}))
	fmt.Printf("%q %v\n", out.Content, err)

	_, err = a.Submit(context.Background(), adapter.Work{ID: "w2", OwnerID: "alice", Instruction: "fail please"})
	fmt.Println(errors.Is(err, adapter.ErrTaskFailed), adapter.CodeOf(err))
	// Output:
	// artifact: result
	// "done\n\necho: complete the report" <nil>
	// true A2A_TASK_FAILED
}
