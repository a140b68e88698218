// Package adapter is a2aport's A2A client, in Go: New returns an [a2aport.Port] that hands each
// Work to a remote A2A agent (A2A 1.0 and 0.3, JSON-RPC and HTTP+JSON, streaming or polling) and
// gives back one outcome, with activity, messages and artifacts as events on the way. The Port,
// the Work, the events, the errors and the options are package a2aport's; the same client runs in
// the WebAssembly module through package host, with the same behaviour.
//
//	port, err := adapter.New(a2aport.Options{
//		AgentCardURL: "https://agent.example/", // its card at /.well-known/agent-card.json
//		Token:        os.Getenv("AGENT_TOKEN"),
//	})
//	if err != nil {
//		return err
//	}
//	defer port.Close()
//	out, err := port.Submit(ctx, a2aport.Work{ID: "w1", OwnerID: "alice", Instruction: "Summarize the report"},
//		a2aport.OnEvent(func(ev a2aport.Event) { log.Println(ev.Type, ev.State, ev.Text) }))
//	if errors.Is(err, a2aport.ErrTaskFailed) {
//		// the agent failed the task: err.(*a2aport.Error).AgentText says why, in its words
//	}
//	fmt.Println(out.Text())
package adapter
