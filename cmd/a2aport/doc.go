// Command a2aport talks to an A2A agent from a terminal: it shows the agent's card, runs work and
// streams what happens, answers the agent's questions, and cancels on Ctrl-C. It runs a2aport's
// client in Go, which starts like a native tool; --module runs the same client as the WebAssembly
// module a browser runs (through wazero), to check that what works here works in a page.
//
//	a2aport card URL [--json]
//	a2aport send URL "instruction" [--file PATH]... [--answer TEXT]... [--json]
//	a2aport agent [--addr 127.0.0.1:8080]
//	a2aport gateway --config gateway.yaml
//
// URL is an Agent Card URL, or an agent's base URL (its /.well-known/agent-card.json is read).
// Credentials: --token (default $A2APORT_TOKEN), --header K:V, and --credential SCHEME=VALUE for a
// security scheme the card declares, VALUE being a token, basic:USER:PASSWORD or
// client:ID:SECRET (OAuth2 client credentials), or @VAR to read that from the environment variable
// VAR so that secrets stay out of shell history. Secrets are never printed.
//
// Exit status of send: 0 completed, 3 failed, 4 rejected, 5 cancelled by the agent or a timeout,
// 6 authentication required (also a card behind a 401 or 403), 7 network (the agent could not be
// reached, or the outcome is unknown), 8 the agent asked a question nobody could answer, 130
// interrupted (Ctrl-C, after a remote cancel), 1 any other error, 2 bad usage.
//
// With --module, the module comes from --wasm-dir, $A2APORT_WASM_DIR or the executable's directory (make build.cli
// puts bin/a2aport beside bin/a2aport*.wasm), else the binary's own embedded copy; its compiled
// code is cached in $A2APORT_WAZERO_CACHE or under the user cache directory, so only the first
// run pays for compiling it.
package main
