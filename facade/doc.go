// Package facade serves any a2aport.Port as an A2A agent: its card, A2A 1.0 over JSON-RPC and
// HTTP+JSON, and A2A 0.3 over JSON-RPC and HTTP+JSON, all on a2a-go's server (a2asrv, and a2av0 for 0.3). It is
// the other half of a2aport: a Go service puts its own backends — or a remote agent behind
// a2aport's adapter — on the A2A network.
//
//	port, _ := adapter.New(a2aport.Options{AgentCardURL: "https://upstream.example/.well-known/agent-card.json"})
//	handler, err := facade.New(port, facade.Options{BaseURL: "https://gateway.example", Name: "Gateway"})
//	if err != nil {
//		return err
//	}
//	_ = http.ListenAndServe(":8080", handler)
//
// A message becomes a Work (its text is the instruction, its files the Work's input parts); the
// Work's events become task status and artifact updates; an input request becomes INPUT_REQUIRED,
// and the caller's next message on the task answers it; CancelTask cancels the Work. Tasks belong
// to the caller Options.Authenticate names: one caller never sees or cancels another's.
//
// With Options.MessageOnly each message is answered with a message and no task is kept. One
// process keeps tasks in memory; with Options.Cluster (package pgcluster) processes share them in
// PostgreSQL, and a process resumes through the Port a task another started.
package facade
