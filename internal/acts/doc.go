// Package acts runs the draft A2A Conformance Test Specification (ACTS, a2aproject/A2A branch
// conformance-spec: docs/acts-specification.md and tests/acts/*.acts.yaml) against an A2A 1.0
// agent over JSON-RPC or HTTP+JSON. It is a small interpreter of the YAML test format, written
// because the suite's own runner needs Python packages this project cannot install. It serves
// twice: as a measuring tool of a2aport's own agents (the command cmd/acts-run), and as the
// engine of `a2aport conformance --suite PATH`, which runs the suite against any agent with
// the terminal client's credentials. The suite itself is never embedded, in either: it is read
// from the path given on the command line, since it is a draft that moves on its own branch.
//
// Usage of the measuring command:
//
//	go run ./internal/acts/cmd/acts-run -suite PATH/tests/acts/suite.acts.yaml \
//	    -card http://127.0.0.1:8090/.well-known/agent-card.json [-binding jsonrpc,rest] \
//	    [-token T] [-raw-base card|interface] [-var name=value] [-run REGEXP] [-json DIR] [-v]
//
// It prints one line per test and binding (PASS, FAIL, SKIP or ERROR, the id, the level and
// the reason; with -v also the request and the answer of a failing step), then the totals per
// binding and level. -json writes one report per binding in the ACTS §13 format. The exit
// status is 0 when the run completed, whatever the results, 1 when it could not run.
//
// # How the runner reads the suite
//
// Where the suite is loose or departs from its own specification, the runner does this (each
// choice is named so a result can be traced to it):
//
//   - Bindings: the ACTS names jsonrpc and rest are the card's JSONRPC and HTTP+JSON; the first
//     A2A 1.x interface of that binding on the card is used. A test limited to other bindings
//     (grpc) is skipped.
//   - Operations use the A2A 1.0 specification's wire form (§5.3, §9.4, §11.3): JSON-RPC
//     methods such as GetTask and CreateTaskPushNotificationConfig; HTTP+JSON routes such as
//     POST /tasks/{id}:subscribe and /tasks/{id}/pushNotificationConfigs (the ACTS §4.1 table
//     says GET ...:subscribe and /pushNotifications). The suite's set_/get_/list_/delete_
//     push_notification_config names are accepted for ACTS §4.1's create_/get_/list_/delete_
//     push_config. Every request carries A2A-Version: 1.0 (ACTS §12.4).
//   - send_message params: a message without messageId gets a UUID (ACTS §4.3); taskId and
//     contextId written beside the message (params.taskId) are moved into it, where A2A 1.0
//     has them.
//   - Errors are typed by the A2A specification's codes (§5.4, §9.5): a JSON-RPC error.code,
//     or an HTTP+JSON answer's google.rpc.ErrorInfo reason (§11.6), else its HTTP status. The
//     ACTS §6.2 table (VersionNotSupportedError -32006, 405/406/409/501 statuses) is not used
//     where it differs: ACTS says the A2A specification takes precedence. expect_error accepts
//     error_type (ACTS §6.2) and code (what most tests write); its message, data and details
//     assert on the error's message and error.data / error.details.
//   - expect holds status (the HTTP status) and body (the unwrapped A2A object, ACTS §4.2).
//     An expect with other keys at its top (expect: {task: ...}) is read as the body; an
//     "error" key there, or status: error, expects an error answer.
//   - Assertions are ACTS §5.1 plus "items", which the suite uses: a map applies to every
//     element, a list to the elements at its positions. A list in an expectation matches the
//     elements at its positions. one_of alternatives that are maps are assertions.
//   - Streams: each event is the StreamResponse (for raw steps, the JSON-RPC envelope); an
//     event assertion also sees status_update / artifact_update for statusUpdate /
//     artifactUpdate and the payload's own fields at the top, so final_event: {status: ...}
//     reads a Task and a TaskStatusUpdateEvent alike. A JSON-RPC error inside an event
//     stream is the operation's error.
//   - Raw steps' paths are below the card's base URL (the card URL without
//     /.well-known/agent-card.json, ACTS's baseUrl); -raw-base interface puts them below
//     the binding's interface URL instead (path "/" is then the interface URL itself).
//   - -token is sent on every request, raw ones included unless the step sets Authorization.
//     Config.Client, when a caller gives one, sends every request: the terminal client's
//     carries its API key, service parameters, TLS settings and wire log that way.
//   - Preconditions compare the card's capabilities (an absent boolean is false), skills,
//     extensions; client_response tests (client parsing) are skipped: no client is under test.
//     runner-special tests run their steps as written.
package acts
