// Package agent is a scripted A2A agent for integration tests of A2A
// clients. It runs on a2a-go's own server stack (a2asrv, plus the a2av0
// compatibility handlers for A2A 0.3) and listens on loopback only.
//
// # Variants
//
// [Start] serves eight [Variants] on one port, each under its own path:
// {A2A 1.0, 0.3} x {JSON-RPC, HTTP+JSON} x {streaming, polling}, e.g.
// /v1/jsonrpc/stream or /v03/rest/poll. Each has an agent card at
// <prefix>/.well-known/agent-card.json ([Server.CardURL]) declaring exactly
// that endpoint; 0.3 cards use the 0.3/1.0 union JSON written by a2av0.
// Polling variants declare no streaming and refuse streaming calls. Three
// special cards ([Server.SpecialCardURL]) test interface selection:
// [CardGRPCOnly], [CardMixed] and [CardV03First]. Every response allows
// cross-origin calls, and preflight requests are answered with 204.
//
// # Scenarios
//
// The lowercased first word of the first text part of a task's first
// message picks the scenario; follow-up messages continue it. A task's
// first turn opens with the SUBMITTED task, and every turn then sets
// WORKING ("working" unless noted) before the events below. Status
// messages are agent messages with one text part.
//
//	complete ...    artifact "result" "echo: <instruction>", COMPLETED "done" (also any unknown word)
//	chunks N        N (default 3, 1..100) chunks "part-i " of artifact "report", COMPLETED "done"
//	paced N MS      N (default 10, 1..100) chunks "part-i " of artifact "report", MS (default 100, at most 1000) ms apart
//	hold ...        WORKING "holding" until cancelled (CANCELED "cancelled"); FAILED "held too long" after 60 s
//	slow MS         waits MS ms (default 500, at most 10000), artifact "result" "slow done", COMPLETED "done"
//	input ...       INPUT_REQUIRED "What is your name?"; a reply "again" asks "What is your name, really?",
//	                any other reply gets artifact "greeting" "Hello, <reply>!" and COMPLETED "done"
//	auth ...        AUTH_REQUIRED "Please authorize access to the calendar"; a reply containing "decline"
//	                gets COMPLETED "authorization declined", any other COMPLETED "authorized"
//	fail ...        FAILED "the agent failed on purpose"
//	reject ...      REJECTED "the agent rejected the request" (no WORKING)
//	message ...     a message reply, no task: text "plain reply" and data {"kind":"message"}
//	context ...     artifact "result" and COMPLETED status, both "context=<contextId>"
//	artifacts ...   artifacts a-text, a-raw, a-url and a-data, one part of each kind, COMPLETED "done"
//	files ...       artifact "result", one line per non-text part of the message: "raw <filename>
//	                <mediaType> <len>", "url <url> <mediaType> <filename>" or "data <json>"
//	cutstream ...   like "slow 200" with text "after cut"; a stream is cut after its first event
//	big N           one artifact "big" of N bytes of "x" (default 1 MiB) in a single event
//	padded TEXT     artifact "answer" "\n\u3000 TEXT \n" in two chunks, COMPLETED without a message: an
//	                answer with white space around it and no status text
//	mismatch ...    like complete, but every contextId in the response is replaced (a moved context)
//	emptystream ... a streaming send gets an event stream without events, and no task is created;
//	                other sends behave like complete
//	status500 ...   any message send gets HTTP 500 with the plain-text body "agent exploded"
//
// Streams end at AUTH_REQUIRED, as at INPUT_REQUIRED: A2A 1.0 calls both
// interrupted states. a2asrv v2.4.0 cannot resume an AUTH_REQUIRED task,
// so the agent keeps that execution alive and hands it the follow-up
// message itself. The follow-up is answered with the task once it has
// completed (a stream carries just that task), and the reply is not
// added to the task history.
//
// # Observing the agent
//
// [Server.Requests] records every HTTP request, with the A2A method it
// called; [Server.Cancels] and [Server.Cancelled] report cancelations that
// reached the agent; [Server.WaitStarted] waits for a task to start.
//
// # Example
//
//	srv, err := agent.Start()
//	if err != nil {
//		t.Fatal(err)
//	}
//	defer srv.Close()
//	for _, v := range agent.Variants() {
//		t.Run(v.Name(), func(t *testing.T) {
//			client := connect(t, srv.CardURL(v)) // the client under test
//			// send "chunks 5", then check srv.Requests() ...
//		})
//	}
//
// The command a2aport-testagent serves the same agent as a process.
package agent
