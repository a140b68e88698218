// Package a2aport is the contract of a2aport's BackendPort: what a frontend hands to a remote
// agent (a Work), what it gets back (events while the Work runs, then one Outcome or one *Error
// whose Code says what happened), and the Port that connects them. It holds no client: package
// adapter gives the A2A client as a Port natively, package host the same client inside the
// WebAssembly module, package funcport a Port from a function of your own, and package facade
// serves any Port as an A2A agent. The conformance suite (package conformance) checks a Port
// against this contract.
//
//	port, err := adapter.New(a2aport.Options{AgentCardURL: "https://agent.example/"})
//	if err != nil {
//		return err
//	}
//	defer port.Close()
//	out, err := port.Submit(ctx, a2aport.Work{ID: "w1", OwnerID: "alice", Instruction: "Summarize the report"},
//		a2aport.OnEvent(func(ev a2aport.Event) {
//			if ev.Type == a2aport.EventArtifact && ev.Delta != nil {
//				fmt.Print(ev.Delta.Text) // a streamed answer, as it grows
//			}
//		}))
//	switch {
//	case errors.Is(err, a2aport.ErrWorkCancelled):
//	case err != nil:
//		return err
//	default:
//		fmt.Println(out.Text())
//	}
//
// Nothing here does I/O or imports the rest of the project; every part of a2aport depends on it.
package a2aport
