// Package demoagent is the a2aport demo agent, on a2a-go's server: streamed markdown reports with
// progress, questions when a request is ambiguous, attachments described, a slow task to cancel,
// failures on request; A2A 1.0 over JSON-RPC and HTTP+JSON and A2A 0.3 over JSON-RPC. The browser
// example serves it beside its page; `a2aport agent` serves it alone.
//
//	handler := demoagent.Handler("http://127.0.0.1:8080", demoagent.Options{})
//	_ = http.ListenAndServe("127.0.0.1:8080", handler)
package demoagent
