// Package host runs a2aport.wasm under wazero and implements a2aport.Port on top of it, so Go
// programs and tests use the very module that browsers and Node load, with the same Options and
// the same behaviour as the native adapter.
//
// The module is compiled once per machine (CompilationCacheDir, by default in the user's cache
// folder, keeps the compiled code on disk) and instantiated once per Adapter. Fetches are performed with Options.Transport and the
// credentials are added here, never inside the module; timers run on Options.Clock. A trapped
// instance rejects its pending calls with MODULE_TRAPPED and the next call starts a fresh one.
//
// Events and each Submit's result are delivered in order on one goroutine per Adapter, so a
// Submit returns after its events; a listener may call RespondInput, Cancel or Status, but must
// not wait for another Submit of the same Adapter (that Submit's result queues behind it).
//
// The modules are embedded in this Go module (internal/module), so a program that uses the host
// builds nothing at run time and needs no toolchain; Binary or ModuleDir give it others.
//
//	a, err := host.New(ctx, a2aport.Options{AgentCardURL: "https://agent.example/.well-known/agent-card.json"})
//	if err != nil {
//		return err
//	}
//	defer a.Close()
//	out, err := a.Submit(ctx, a2aport.Work{ID: "w1", OwnerID: "alice", Instruction: "Summarize the report"})
package host
