package optiontable

// Options is every option of the adapter, in the order a2aport.Options, index.d.ts and
// docs/options.md list them. It is the one place an option is added: go generate ./... writes the
// rest from it (doc.go says what).
var Options = []Option{
	{
		Go: "AgentCardURL", GoType: "string",
		Doc: `AgentCardURL is the Agent Card URL (absolute http or https, no userinfo), for example
https://agent.example/.well-known/agent-card.json. The agent's base URL alone
(https://agent.example/) means the card at WellKnownCardPath below it.`,
		GoDefault: "—",
		GoMeaning: "exactly one: the card URL (absolute http/https, no userinfo; the agent's base URL means its card at `/.well-known/agent-card.json`) or an in-memory card",
		JS:        "agentCardUrl", TSType: "string",
		TSDoc: `The Agent Card URL (absolute http/https, no userinfo), or the agent's base URL (its card is
then read at /.well-known/agent-card.json). Exactly one of agentCardUrl, agentCard.`,
		JSDefault: "—",
		JSMeaning: "the card URL, or the agent's base URL (the card is then read at `/.well-known/agent-card.json` below it); exactly one of this and `agentCard`",
		Kind:      String, Wire: true,
	},
	{
		Go: "AgentCard", GoType: "*a2a.AgentCard",
		Doc: "AgentCard replaces discovery with an in-memory card.",
		JS:  "agentCard", TSType: "AgentCard",
		TSDoc:     "An in-memory Agent Card replacing discovery, read as a fetched one is.",
		JSDefault: "—",
		JSMeaning: "an in-memory card (`AgentCard`: A2A 1.0 JSON, or the object @a2a-js/sdk holds), read as a fetched card is",
		Kind:      Special,
	},
	{
		Go: "Credentials", GoType: "map[string]Credential",
		Gap: true,
		Doc: `Credentials are secrets by the name of the Agent Card's security scheme they are for. The
adapter applies the first of the card's requirement sets they satisfy, each scheme as the
card says (a bearer or basic Authorization header, an API key in a header, query parameter or
cookie, an OAuth2 token from the client-credentials flow, cached and renewed). Token,
Headers and HeaderFunc are applied after them and win where they set the same header.`,
		GoDefault: "—",
		GoMeaning: "secrets by the card's security scheme name: `{Token}`, `{Username, Password}`, `{ClientID, ClientSecret, Scopes, TokenURL}` or `{}` (mutual TLS by `Transport`); the first requirement set they satisfy is applied",
		JS:        "credentials", TSType: "Record<string, Credential>",
		TSDoc: `Secrets by the name of the card's security scheme they are for. The first of the card's
requirement sets they satisfy is applied, each scheme as the card says; token and headers
come after and win where they set the same header.`,
		JSDefault: "—",
		JSMeaning: "secrets by the card's security scheme name: a token string, `{username, password}`, `{clientId, clientSecret, scopes?, tokenUrl?}` or `{}` (mutual TLS)",
		Kind:      Host,
	},
	{
		Go: "TokenProvider", GoType: "func(ctx context.Context, scheme string) (string, error)",
		Doc: `TokenProvider gives the token of a bearer, OAuth2, OpenID Connect or API key scheme that has
no entry in Credentials, for flows that need the user (authorization code, device code):
the application runs those. It is called for every request; cache in it.`,
		GoDefault: "—",
		GoMeaning: "`func(ctx, scheme) (string, error)`: the token of a bearer, OAuth2, OpenID Connect or API key scheme with no credential; a failure is `A2A_AUTH_REQUIRED`",
		JS:        "tokenProvider", TSType: "(scheme: string) => string | Promise<string>",
		TSDoc: `Gives the token of a bearer, OAuth2, OpenID Connect or API key scheme that has no entry in
credentials (flows that need the user: authorization code with PKCE, device code). Called for
every request: cache in it. A throw fails the request with A2A_AUTH_REQUIRED.`,
		JSDefault: "—",
		JSMeaning: "`(scheme) => token` (sync or async) for a scheme with no credential; a throw is `A2A_AUTH_REQUIRED`",
		Kind:      Host,
	},
	{
		Go: "Token", GoType: "string",
		Doc:       `Token is sent as "Authorization: Bearer <token>" unless Headers or HeaderFunc set Authorization.`,
		GoDefault: "—",
		GoMeaning: "sent as `Authorization: Bearer …` unless a header sets Authorization",
		JS:        "token", TSType: "string",
		TSDoc:     "Sent as `Authorization: Bearer <token>` unless headers set Authorization.",
		JSDefault: "—",
		JSMeaning: "sent as `Authorization: Bearer …` unless `headers` set Authorization",
		Kind:      Host,
	},
	{
		Go: "Headers", GoType: "http.Header",
		Doc:       "Headers are added to every request (discovery and task requests).",
		GoDefault: "—",
		GoMeaning: "static headers; a function called for every request (discovery and task requests)",
		JS:        "headers", TSType: "Record<string, string> | ((request: HeaderRequest) => Record<string, string> | Promise<Record<string, string>>)",
		TSDoc:     "Static headers, or a function called for every request (discovery and task requests).",
		JSDefault: "—",
		JSMeaning: "an object of strings, or a (sync or async) function `({url, method}) => headers` called for every request",
		Kind:      Host,
	},
	{
		Go: "HeaderFunc", GoType: "func(req *http.Request) (http.Header, error)",
		Doc:  "HeaderFunc is called for every request; its headers override Headers.",
		Kind: Host,
	},
	{
		Go: "Transport", GoType: "http.RoundTripper",
		Doc:       "Transport performs HTTP requests (the Go counterpart of fetchImpl). Default: http.DefaultTransport.",
		GoDefault: "`http.DefaultTransport`",
		GoMeaning: "the `http.RoundTripper` for every request (the Go counterpart of `fetchImpl`)",
		JS:        "fetchImpl", TSType: "typeof fetch",
		TSDoc:     "Makes every request; default globalThis.fetch. Called unbound, as a browser's fetch requires.",
		JSDefault: "`globalThis.fetch`",
		JSMeaning: "makes every request (called unbound)",
		Kind:      Host,
	},
	{
		Go: "Clock", GoType: "Clock",
		Doc:       "Clock is the only source of time of the adapter. Default: the real clock.",
		GoDefault: "real clock",
		GoMeaning: "the only source of time (tests use a fake one)",
		Kind:      Host,
	},
	{
		Go: "AcceptedOutputModes", GoType: "[]string",
		Gap:       true,
		Doc:       "AcceptedOutputModes are sent with every message when set.",
		GoDefault: "—",
		GoMeaning: "sent with every message",
		JS:        "acceptedOutputModes", TSType: "string[]",
		TSDoc:     "Media types the frontend can show, sent with every message (A2A's acceptedOutputModes); default: none said.",
		JSDefault: "—",
		JSMeaning: "sent with every message",
		Kind:      Strings, Wire: true,
	},
	{
		Go: "PollInterval", GoType: "time.Duration",
		Doc:       "PollInterval is the GetTask interval when the agent cannot stream (default 1 s, minimum 10 ms).",
		GoDefault: "1 s (min 10 ms)",
		GoMeaning: "GetTask interval when the agent cannot stream",
		JS:        "pollIntervalMs", TSType: "number",
		TSDoc:     "GetTask interval when the agent cannot stream. Default 1000, minimum 10.",
		JSDefault: "1000 (min 10)",
		JSMeaning: "GetTask interval when the agent cannot stream",
		Kind:      Duration, Wire: true, Default: "time.Second", Min: "10 * time.Millisecond", MinConst: true,
	},
	{
		Go: "PushWebhookURL", GoType: "string",
		Doc: `PushWebhookURL is a webhook the application serves (absolute http or https, no userinfo): set,
each Work with an agent whose card offers push notifications asks it to push there instead of
holding a stream open, and the application hands each request that reaches the webhook to the
adapter's ReceivePush (adapter.PushHandler). A push wakes the Work, which reads the task; a
push that never comes is made up for by a read every PushPollInterval.`,
		GoDefault: "— (streams)",
		GoMeaning: "a webhook the application serves: Works ask agents that offer push notifications to push there instead of streaming, and each request it receives goes to `ReceivePush` ([push notifications](go.md#push-notifications))",
		JS:        "pushWebhookUrl", TSType: "string",
		TSDoc: `A webhook the application serves (Node, Electron's main process; a page cannot): each Work
with an agent that offers push notifications asks it to push there instead of holding a stream
open, and the application hands each request the webhook receives to receivePush().`,
		JSDefault: "— (streams)",
		JSMeaning: "as Go's `PushWebhookURL`, with `receivePush` or `handlePush` ([push notifications](js.md#push-notifications)); refused in a page, which cannot serve a webhook",
		Kind:      String, Wire: true,
	},
	{
		Go: "PushPollInterval", GoType: "time.Duration",
		Doc: `PushPollInterval is how long a Work that waits for pushes waits before it reads the task
anyway (default 30 s, minimum 10 ms): a push may be lost, late or never sent.`,
		GoDefault: "30 s (min 10 ms)",
		GoMeaning: "longest wait for a push before the task is read anyway",
		JS:        "pushPollIntervalMs", TSType: "number",
		TSDoc:     "Longest wait for a push before the task is read anyway. Default 30000, minimum 10.",
		JSDefault: "30000 (min 10)",
		JSMeaning: "as Go's `PushPollInterval`",
		Kind:      Duration, Wire: true, Default: "30 * time.Second", Min: "10 * time.Millisecond", MinConst: true,
	},
	{
		Go: "Timeout", GoType: "time.Duration",
		Doc:       "Timeout bounds each Work (0 = none). On expiry the remote task is cancelled best-effort.",
		GoDefault: "0 (none)",
		GoMeaning: "per Work; on expiry the remote task is cancelled and Submit fails with `A2A_TIMEOUT`, retryable only if the agent confirmed the cancel; while the message is on its way and no answer names its task (within 2 s), `A2A_OUTCOME_UNKNOWN` ([the table](reliability.md#how-a-work-ends-teststfate_testgo-jstestfatetestjs))",
		JS:        "timeoutMs", TSType: "number",
		TSDoc:     "Bounds each Work; on expiry its task is cancelled at the agent and submit rejects with A2A_TIMEOUT. Default 0 = none.",
		JSDefault: "0 (none)",
		JSMeaning: "per Work, as Go's `Timeout`",
		Kind:      Duration, Wire: true,
	},
	{
		Go: "InputTimeout", GoType: "time.Duration",
		Doc: `InputTimeout bounds how long one question of the agent (input or authorization) waits for
its answer (0 = as long as the Work may run). On expiry the Work ends INPUT_UNANSWERED and
the agent's task is cancelled, best-effort: a question nobody sees (no one listens to the
Work's events) or nobody answers then settles the Work instead of holding it forever.`,
		GoDefault: "0 (as long as the Work)",
		GoMeaning: "how long one question of the agent (input or authorization) waits for its answer; on expiry the Work ends `INPUT_UNANSWERED` and the task is cancelled at the agent, best-effort",
		JS:        "inputTimeoutMs", TSType: "number",
		TSDoc: `Bounds how long one question of the agent waits for its answer; on expiry the Work ends with
INPUT_UNANSWERED and its task is cancelled at the agent. Default 0 = as long as the Work may run.`,
		JSDefault: "0 (as long as the Work)",
		JSMeaning: "how long one question of the agent waits for its answer; then `INPUT_UNANSWERED` and the task is cancelled at the agent",
		Kind:      Duration, Wire: true,
	},
	{
		Go: "RequestTimeout", GoType: "time.Duration",
		Doc:       "RequestTimeout bounds discovery and other requests outside a Work (default 30 s).",
		GoDefault: "30 s",
		GoMeaning: "discovery and other requests outside a Work",
		JS:        "requestTimeoutMs", TSType: "number",
		TSDoc:     "Discovery and other requests outside a Work. Default 30000.",
		JSDefault: "30000",
		JSMeaning: "discovery and other requests outside a Work",
		Kind:      Duration, Wire: true, Default: "30 * time.Second",
	},
	{
		Go: "LegacyCompat", GoType: "LegacyCompat",
		Doc: `LegacyCompat says whether A2A 0.3 agents are reached too: LegacyCompatOn (the zero value)
or LegacyCompatOff.`,
		GoDefault: "`LegacyCompatOn`",
		GoMeaning: "`LegacyCompatOff`: no A2A 0.3 agents (a card that offers only 0.3 has no compatible interface); on: A2A 0.3 agents too, over JSON-RPC and HTTP+JSON",
		JS:        "legacyCompat", TSType: "boolean",
		TSDoc: `Reach A2A 0.3 agents too (default true); false: a card that offers only 0.3 has no
compatible interface.`,
		JSDefault: "`true`",
		JSMeaning: "reach A2A 0.3 agents too; `false`: A2A 1.0 agents only (the deprecated `a2aport/1.0` entry is this)",
		Kind:      Special,
	},
	{
		JS: "worker", TSType: "boolean",
		TSDoc: `Runs the module in a worker (a Web Worker in a page or an Electron renderer, worker_threads in
Node): compiling, starting and running it never block this thread. fetchImpl, headers,
tokenProvider and the stores still run here (a module URL is read with a fetchImpl you give,
else by the worker). status() and describe() then answer with what the module said in its
last batch. Default: true on a page's main thread (where a worker cannot start, as under a CSP
without worker-src, the module then runs on the page), false in Node and in a worker.`,
		JSDefault: "`true` on a page's main thread, else `false`",
		JSMeaning: "run the module in a worker ([js.md](js.md#the-module-in-a-worker))",
		Kind:      Host,
	},
	{
		Go: "ProtocolVersion", GoType: "string",
		Doc: `ProtocolVersion pins the A2A version of the interface to use: "1.0" or "0.3" ("" = the first
compatible interface of any version this build speaks).`,
		GoDefault: "any",
		GoMeaning: "pin the interface: `\"1.0\"` or `\"0.3\"`, `BindingJSONRPC` or `BindingHTTPJSON` (`BindingGRPC` is A2A's too, and not spoken here); a pin the card cannot satisfy is `A2A_NO_COMPATIBLE_TRANSPORT` listing what it offers",
		JS:        "protocolVersion", TSType: "'1.0' | '0.3'",
		TSDoc:     "Pins the A2A version of the interface to use; a pin the card cannot satisfy is A2A_NO_COMPATIBLE_TRANSPORT.",
		JSDefault: "any",
		JSMeaning: "`'1.0'` or `'0.3'`: pin the interface's A2A version",
		Kind:      Enum, Wire: true, Values: []string{"1.0", "0.3"},
	},
	{
		Go: "ProtocolBinding", GoType: "Binding",
		Doc: `ProtocolBinding pins the binding: BindingJSONRPC or BindingHTTPJSON ("" = either). A pin the
card cannot satisfy is A2A_NO_COMPATIBLE_TRANSPORT listing what the card offers; so is
BindingGRPC, an A2A binding this client does not speak.`,
		JS: "protocolBinding", TSType: "'JSONRPC' | 'HTTP+JSON'",
		TSDoc:     "Pins the binding of the interface to use; a pin the card cannot satisfy is A2A_NO_COMPATIBLE_TRANSPORT.",
		JSDefault: "any",
		JSMeaning: "`'JSONRPC'` or `'HTTP+JSON'`: pin the interface's binding (`'GRPC'` is A2A's, and no browser can speak it: refused here)",
		Kind:      Enum, Wire: true, Values: []string{"JSONRPC", "HTTP+JSON"},
	},
	{
		Go: "Extensions", GoType: "[]string",
		Doc: `Extensions are the URIs of the A2A extensions to activate (the A2A-Extensions header of
every request), of those the card declares; a card that marks an extension required that is
not listed here fails discovery with A2A_EXTENSION_REQUIRED.`,
		GoDefault: "none",
		GoMeaning: "A2A extension URIs to activate (`A2A-Extensions`), of those the card declares; a card that requires one not listed fails discovery with `A2A_EXTENSION_REQUIRED`",
		JS:        "extensions", TSType: "string[]",
		TSDoc: `A2A extensions to activate (the A2A-Extensions header), of those the card declares. A card that
marks an extension required that is not listed fails discovery with A2A_EXTENSION_REQUIRED.`,
		JSDefault: "none",
		JSMeaning: "A2A extension URIs to activate",
		Kind:      Strings, Wire: true,
	},
	{
		Go: "RecoveryAttempts", GoType: "int",
		Doc: `RecoveryAttempts bounds how often a Work's stream that broke, or ended before the task did,
is resubscribed (SubscribeToTask) before the adapter falls back to polling the task, and how
many consecutive failed polls it retries; the message is never sent again. 0 means
DefaultRecoveryAttempts; a negative value turns recovery off (a broken stream fails the Work).`,
		GoDefault: "4, 250 ms",
		GoMeaning: `resubscriptions of a broken stream before falling back to polling (and failed polls retried in a row, and card requests that met a server: a 5xx, a 429, a connection that broke; one that shows no server, refused or "Failed to fetch", fails at once in every runtime); backoff doubles up to 4 s, with jitter; a negative count turns recovery off`,
		JS:        "recoveryAttempts", TSType: "number",
		TSDoc: `How often a Work's stream that broke, or ended before its task did, is resubscribed before
the adapter falls back to polling (and how many failed polls in a row it retries); the message
is never sent again. Default 4 (0 too); a negative number turns recovery off (a broken stream
fails the Work).`,
		JSDefault: "4 (negative: off)",
		JSMeaning: "as Go's `RecoveryAttempts`",
		Kind:      Count, Wire: true, Default: "4", Off: true,
	},
	{
		Go: "RecoveryBackoff", GoType: "time.Duration",
		Doc: `RecoveryBackoff is the wait before the second attempt (the first is immediate); it doubles
up to 4 s, with jitter. Default DefaultRecoveryBackoff.`,
		JS: "recoveryBackoffMs", TSType: "number",
		TSDoc:     "Wait before the second recovery attempt (the first is immediate), doubling up to 4 s, with jitter. Default 250.",
		JSDefault: "250",
		JSMeaning: "as Go's `RecoveryBackoff`",
		Kind:      Duration, Wire: true, Default: "250 * time.Millisecond",
	},
	{
		Go: "StreamIdleTimeout", GoType: "time.Duration",
		Doc: `StreamIdleTimeout is the longest silence between two events of a started stream; a longer one
is treated as a broken stream and recovered (never a failure while recovery is on). 0 means
DefaultStreamIdleTimeout; negative turns it off.`,
		GoDefault: "60 s",
		GoMeaning: "longest silence between two events of a started stream; longer is recovered like a broken stream (negative: off)",
		JS:        "streamIdleTimeoutMs", TSType: "number",
		TSDoc: `Longest silence between two events of a started stream; a longer one is recovered like a
broken stream (never a failure while recovery is on). Default 60000 (0 too); negative: off.`,
		JSDefault: "60000 (negative: off)",
		JSMeaning: "as Go's `StreamIdleTimeout`",
		Kind:      Duration, Wire: true, Default: "60 * time.Second", Off: true,
	},
	{
		Go: "StreamProbeInterval", GoType: "time.Duration",
		Doc: `StreamProbeInterval is the silence on a started stream after which the adapter asks the
agent for the task (GetTask), and again after each such silence: if the task moved past what
the stream delivered (another state, a new status message, more artifact content), the
connection is dead and the stream is recovered at once; if not, the agent is thinking and the
stream is kept. So a dead stream is found within about StreamProbeInterval + 1 s of the
agent's next step, and a quiet agent is never cut. 0 means DefaultStreamProbeInterval;
negative turns probing off.`,
		GoDefault: "10 s",
		GoMeaning: "silence after which a started stream's task is read: moved on without the stream, the stream is dead and recovered at once; not moved, the agent is thinking (negative: off)",
		JS:        "streamProbeIntervalMs", TSType: "number",
		TSDoc: `Silence on a started stream after which the adapter reads the task (GetTask), and again after
each such silence: a task that moved past what the stream delivered means the connection died,
and the stream is recovered at once; otherwise the agent is thinking and the stream is kept.
Default 10000 (0 too); negative: off.`,
		JSDefault: "10000 (negative: off)",
		JSMeaning: "as Go's `StreamProbeInterval`",
		Kind:      Duration, Wire: true, Default: "10 * time.Second", Off: true,
	},
	{
		Go: "FirstEventTimeout", GoType: "time.Duration",
		Doc: `FirstEventTimeout bounds the wait for a stream's first event (0 = none: an agent may think
long before it answers). On expiry the Work fails with A2A_OUTCOME_UNKNOWN, not retryable:
whether the agent received the message is not known.`,
		GoDefault: "none",
		GoMeaning: "longest wait for a stream's first event; on expiry `A2A_OUTCOME_UNKNOWN`, not retryable",
		JS:        "firstEventTimeoutMs", TSType: "number",
		TSDoc: `Longest wait for a stream's first event; on expiry the Work fails with A2A_OUTCOME_UNKNOWN, not
retryable (whether the agent received the message is not known). Default 0 = none.`,
		JSDefault: "0 (none)",
		JSMeaning: "as Go's `FirstEventTimeout`",
		Kind:      Duration, Wire: true,
	},
	{
		Go: "VerifyCard", GoType: "CardVerification",
		Doc: `VerifyCard checks the JWS signatures of the fetched Agent Card (A2A 1.0 §8.4) before anything
of it is used: VerifyCardOff (the default), VerifyCardIfSigned (a signed card must verify, an
unsigned one is used as it is) or VerifyCardRequired. A card that fails is A2A_CARD_SIGNATURE_INVALID; an extended
card that fails is not used (and noted). An in-memory AgentCard is the caller's and not checked.`,
		GoDefault: "`VerifyCardOff`",
		GoMeaning: "verify the card's signatures (above): `VerifyCardIfSigned` or `VerifyCardRequired`, with trusted public keys (a JWK Set) or from a signature's `jku`",
		JS:        "verifyCard", TSType: "'off' | 'if-signed' | 'required'",
		TSDoc: `Check the Agent Card's JWS signatures before using it: 'off' (default), 'if-signed' (a signed
card must verify) or 'required'. Failing is A2A_CARD_SIGNATURE_INVALID.`,
		JSDefault: "`'off'`",
		JSMeaning: "`'if-signed'` or `'required'`: verify the card's signatures",
		Kind:      Enum, Wire: true, Values: []string{"off", "if-signed", "required"},
	},
	{
		Go: "CardKeys", GoType: "[]byte",
		Doc: `CardKeys are the public keys trusted to sign cards, as a JWK Set ({"keys": [...]}) or one JWK,
each with its kid.`,
		JS: "cardKeys", TSType: "{ keys: object[] } | object[] | object",
		TSDoc:     "The public keys trusted to sign cards (with their kid): a JWK Set, an array of JWKs or one JWK.",
		JSDefault: "—",
		JSMeaning: "the keys trusted to sign cards: a JWK Set, an array of JWKs or one JWK",
		Kind:      Special,
	},
	{
		Go: "CardKeysFromJKU", GoType: "bool",
		Doc: `CardKeysFromJKU lets a signature's "jku" header name the JWK Set to fetch its key from, when
the URL is on the card's origin or an AllowedOrigins one (then the card's origin vouches for
itself: prefer CardKeys).`,
		JS: "cardKeysFromJku", TSType: "boolean",
		TSDoc:     "Fetch the key a signature's jku names, when on the card's origin or an allowed one.",
		JSDefault: "`false`",
		JSMeaning: "fetch the key a signature's `jku` names, on the card's origin or an allowed one",
		Kind:      Bool, Wire: true,
	},
	{
		Go: "AllowedOrigins", GoType: "[]string",
		Doc: `AllowedOrigins are the origins (scheme://host[:port], or "*" for any) besides the card's own
where the card's interfaces may be: an interface elsewhere is refused (and so never gets the
credentials). An https card never leads to a plain-http interface, loopback excepted.`,
		GoDefault: "the card's origin only",
		GoMeaning: "other origins (`https://host[:port]`, or `\"*\"`) where the card's interfaces may be; an interface elsewhere is refused (and never gets credentials), an https card never leads to plain http (loopback excepted)",
		JS:        "allowedOrigins", TSType: "string[]",
		TSDoc: `Origins ('https://host[:port]', default port left out, or '*' for any) besides the card's own
where its interfaces may be; an interface elsewhere is refused and never gets credentials. An
https card never leads to a plain-http interface (loopback excepted).`,
		JSDefault: "the card's origin only",
		JSMeaning: "as Go's `AllowedOrigins`",
		Kind:      Strings, Wire: true,
	},
	{
		Go: "MaxCardBytes", GoType: "int",
		Doc: `MaxCardBytes bounds the Agent Card (default 1 MiB), MaxResponseBytes one answer that is not a
stream and one event of a stream (default 16 MiB; an event is also bounded by a2a-go's own
10 MiB per line), MaxArtifactBytes one artifact as its chunks merge (default 256 MiB), and
MaxWorkBytes all the artifacts of one Work together (default 256 MiB). Past a limit the
request or Work fails with A2A_RESPONSE_TOO_LARGE, and nothing more is read.`,
		GoDefault: "1 MiB, 16 MiB, 256 MiB, 256 MiB",
		GoMeaning: "size limits: the card; one answer that is not a stream, and one event of a stream (also at most 10 MiB, a2a-go's own limit); one artifact as it merges; all the artifacts of one Work. Past one: `A2A_RESPONSE_TOO_LARGE`, nothing more read",
		JS:        "maxCardBytes", TSType: "number",
		TSDoc:     "Size limit of the Agent Card; past it, A2A_RESPONSE_TOO_LARGE. Default 1 MiB.",
		JSDefault: "1 MiB",
		JSMeaning: "as Go's `MaxCardBytes`",
		Kind:      Bytes, Wire: true, Default: "1 << 20",
	},
	{
		Go: "MaxResponseBytes", GoType: "int",
		Doc: "",
		JS:  "maxResponseBytes", TSType: "number",
		TSDoc:     "One answer that is not a stream, and one event of a stream (also bounded by a2a-go's 10 MiB per line). Default 16 MiB.",
		JSDefault: "16 MiB",
		JSMeaning: "as Go's `MaxResponseBytes`",
		Kind:      Bytes, Wire: true, Default: "16 << 20",
	},
	{
		Go: "MaxArtifactBytes", GoType: "int",
		Doc: "",
		JS:  "maxArtifactBytes", TSType: "number",
		TSDoc:     "One artifact as its chunks merge. Default 256 MiB.",
		JSDefault: "256 MiB",
		JSMeaning: "as Go's `MaxArtifactBytes`",
		Kind:      Bytes, Wire: true, Default: "256 << 20",
	},
	{
		Go: "MaxWorkBytes", GoType: "int",
		Doc: "",
		JS:  "maxWorkBytes", TSType: "number",
		TSDoc:     "All the artifacts of one Work together. Default 256 MiB.",
		JSDefault: "256 MiB",
		JSMeaning: "as Go's `MaxWorkBytes`",
		Kind:      Bytes, Wire: true, Default: "256 << 20",
	},
	{
		Go: "ReuseContext", GoType: "bool",
		Doc:       "ReuseContext continues each owner's conversation in the remote context of its previous Work.",
		GoDefault: "off, in memory (100 owners)",
		GoMeaning: "continue each owner's conversation in its remote context",
		JS:        "reuseContext", TSType: "boolean",
		TSDoc:     "Continue each owner's conversation: a Work goes to the remote context of the owner's previous one. Default false.",
		JSDefault: "`false`",
		JSMeaning: "continue each owner's conversation in its remote context",
		Kind:      Bool, Wire: true,
	},
	{
		Go: "ContextStore", GoType: "ContextStore",
		Doc: "ContextStore keeps owner → context ids (default: in memory, 100 owners, no TTL).",
		JS:  "contextStore", TSType: "ContextStore",
		TSDoc:     "Where reuseContext keeps each owner's context id (e.g. localStorage, to survive a reload). Default: in memory.",
		JSDefault: "in memory",
		JSMeaning: "`{get, set, delete}` (sync or async), e.g. over localStorage, so continuity survives a reload",
		Kind:      Host,
	},
	{
		Go: "WorkStore", GoType: "WorkStore",
		Doc: `WorkStore records each active Work (its remote task, context and state) so that Resume can
re-attach to it after the frontend restarts. Default: none (Resume finds nothing).`,
		GoDefault: "none",
		GoMeaning: "records each active Work (remote task, context, state) from the moment its message leaves, so `Resume` can re-attach after a restart (a record without a task: `A2A_OUTCOME_UNKNOWN`); `a2aport.MemoryWorkStore`, or your own (a file, a database)",
		JS:        "workStore", TSType: "WorkStore",
		TSDoc:     "Records active Works so that resume() can re-attach to them after a reload. Default: none.",
		JSDefault: "none",
		JSMeaning: "`{get(workId), set(record), delete(workId)}` (sync or async): with it, `port.resume(workId, {ownerId, onEvent, signal})` re-attaches after a reload to a Work that was running, without sending anything again; `port.detach()` stops the adapter leaving its Works running for that, where `close()` cancels them",
		Kind:      Host,
	},
	{
		Go: "Label", GoType: "string",
		Doc:       "Label names the backend in Describe (default: the agent card's name).",
		GoDefault: "card name",
		GoMeaning: "the name `Describe` reports",
		JS:        "label", TSType: "string",
		TSDoc:     "The name describe() reports. Default: the agent's name from its card, else the card URL's host.",
		JSDefault: "the agent's name",
		JSMeaning: "what `describe()` reports",
		Kind:      String, Wire: true,
	},
	{
		JS: "wasm", TSType: "string | URL | Response | ArrayBuffer | Uint8Array | CompiledModule",
		TSDoc:     "Where the module comes from: a URL, a Response, bytes, or a compiled WebAssembly.Module. Default: beside the package's code.",
		JSDefault: "beside the package's code",
		JSMeaning: "the module: a URL, a Response, bytes or a compiled `WebAssembly.Module`",
		Kind:      Host,
	},
}
