// Package adapter is the BackendPort of a2aport over the official A2A Go SDK: it hands a Work to a
// remote A2A agent and returns one clean outcome, streaming activity, messages and artifacts as
// protocol-neutral events on the way.
//
// The adapter is plain Go with no I/O of its own: HTTP goes through Options.Transport and time
// through Options.Clock. The same code runs natively (New) and inside the a2aport WebAssembly
// module, where the host supplies both.
//
// A Work runs to exactly one outcome: an Outcome, or an *Error whose Code says what happened
// (errors.Is works with the Err* sentinels). Credentials given in Options never appear in
// Describe, events or errors.
//
//	a, err := adapter.New(adapter.Options{
//		AgentCardURL: "https://agent.example/.well-known/agent-card.json",
//		Token:        os.Getenv("AGENT_TOKEN"),
//	})
//	if err != nil {
//		return err
//	}
//	defer a.Close()
//	out, err := a.Submit(ctx, adapter.Work{ID: "w1", OwnerID: "alice", Instruction: "Summarize the report"},
//		adapter.OnEvent(func(ev adapter.Event) { log.Println(ev.Type, ev.State, ev.Text) }))
//	if errors.Is(err, adapter.ErrTaskFailed) {
//		// the agent failed the task; err says why
//	}
//	fmt.Println(out.Content)
package adapter
