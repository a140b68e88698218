package adapter_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/a2aport/a2aport"

	"github.com/a2aport/a2aport/adapter"
	"github.com/a2aport/a2aport/internal/testkit/agent"
)

// The remote agent here is the repository's test agent (a2a-go's own server on loopback).
func ExampleNew() {
	server, err := agent.Start()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer server.Close()

	a, err := adapter.New(a2aport.Options{AgentCardURL: server.CardURL(agent.Variants()[0])})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer func() { _ = a.Close() }()

	out, err := a.Submit(context.Background(),
		a2aport.Work{ID: "w1", OwnerID: "alice", Instruction: "complete the report"},
		a2aport.OnEvent(func(ev a2aport.Event) {
			if ev.Type == a2aport.EventArtifact {
				fmt.Println("artifact:", ev.Artifact.Name)
			}
		}))
	fmt.Printf("%q %v\n", out.Content, err)

	_, err = a.Submit(context.Background(), a2aport.Work{ID: "w2", OwnerID: "alice", Instruction: "fail please"})
	fmt.Println(errors.Is(err, a2aport.ErrTaskFailed), a2aport.CodeOf(err))
	// Output:
	// artifact: result
	// "done\n\necho: complete the report" <nil>
	// true A2A_TASK_FAILED
}
