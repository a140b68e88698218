// Command a2aport talks to an A2A agent from a terminal: it shows the agent's card, runs work and
// streams what happens, answers the agent's questions, cancels on Ctrl-C, and finds a running
// Work again from another shell. It runs a2aport's client in Go, which starts like a native tool;
// --module runs the same client as the WebAssembly module a browser runs (through wazero), to
// check that what works here works in a page.
//
//	a2aport card URL [--json]
//	a2aport send URL "instruction" [--file PATH]... [--answer TEXT]... [--detach] [--json]
//	a2aport status [ID | URL TASK]
//	a2aport resume ID | URL TASK
//	a2aport cancel ID | URL TASK
//	a2aport agent [--addr 127.0.0.1:8080]
//	a2aport gateway --config gateway.yaml
//	a2aport completion bash|zsh|fish
//	a2aport help [COMMAND]
//
// URL is an Agent Card URL, or an agent's base URL (its /.well-known/agent-card.json is read).
// Credentials: --token (default $A2APORT_TOKEN), --header K:V, and --credential SCHEME=VALUE for a
// security scheme the card declares, VALUE being a token, basic:USER:PASSWORD or
// client:ID:SECRET (OAuth2 client credentials), or @VAR to read that from the environment variable
// VAR so that secrets stay out of shell history. Secrets are never printed.
//
// The commands are a table (commands.go) from which help (help.go) and shell completion
// (completion.go) are drawn; exitcode.go holds the exit statuses and the table help prints. A
// running Work is recorded under the user cache directory (works.go) for status, resume and
// cancel (status.go, resume.go, cancel.go, on the Work that target.go names), which go through the
// Port's Resume; follow.go shows a Work as it happens for send and resume, render.go and live.go
// draw it, internal/termmd lays out its markdown.
//
// With --module, the module comes from --wasm-dir, $A2APORT_WASM_DIR or the executable's directory (make build.cli
// puts bin/a2aport beside bin/a2aport*.wasm), else the binary's own embedded copy; its compiled
// code is cached in $A2APORT_WAZERO_CACHE or under the user cache directory, so only the first
// run pays for compiling it.
package main
