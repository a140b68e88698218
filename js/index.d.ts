// a2aport — the BackendPort for browsers, Electron and Node, backed by a2aport.wasm.
//
// These declarations need no DOM library and no @types/node beyond what they name: the fetch
// types (Response, URL, AbortSignal, fetch) come from either, and the compiled module type from
// the WebAssembly declarations when the consumer has them.

/** A file attached to a Work. `url` may be a `data:` URL (sent to the agent as raw bytes). */
export interface InputPart {
  type: 'file';
  mime?: string;
  filename?: string;
  url: string;
}

/** One piece of work for the agent. */
export interface Work {
  /** The Work's id, chosen by the caller: unique among the owner's active Works; every event and call names the Work by it. */
  id: string;
  /** Who the Work is for (a user, a session): calls about the Work must name the same owner, and conversations (reuseContext) are per owner. */
  ownerId: string;
  /** What the agent is asked, sent as the message's text. */
  instruction: string;
  /** Files sent with the instruction. */
  inputParts?: InputPart[];
  /** Structured input beside the instruction, sent as one A2A data part (values must encode as JSON). */
  input?: Record<string, unknown>;
  /** 'isolated' starts a fresh remote context without touching the owner's conversation. */
  continuity?: 'isolated';
}

/** One part of an artifact; `type` says which of text, raw, url, data is set. */
export interface Part {
  type: 'text' | 'raw' | 'url' | 'data';
  text?: string;
  raw?: Uint8Array;
  url?: string;
  data?: unknown;
  mediaType?: string;
  filename?: string;
}

export interface Artifact {
  id: string;
  name?: string;
  description?: string;
  parts: Part[];
}

/** The single result of a completed Work. */
export interface Outcome {
  /**
   * The answer's text: each artifact's text parts joined as they streamed, artifacts apart by a
   * blank line, nothing trimmed; with no text in any artifact (an agent that answers in a message
   * or in its final status), `content`. What appending every `delta.text` gives at the end.
   */
  text: string;
  /**
   * A summary for display: the task's final status text, then each artifact's text, trimmed,
   * those seen before left out, apart by a blank line (with none of these, the agent's last
   * message). Not the answer itself when the agent said something besides it: use `text`.
   */
  content: string;
  artifacts: Artifact[];
  /** The agent answered with a message and made no task: nothing of the Work remains at the agent. */
  messageReply?: boolean;
}

export type WorkState =
  | 'submitted' | 'working' | 'input_required' | 'auth_required' | 'not_found'
  | 'completed' | 'failed' | 'rejected' | 'cancelled';

export interface InputRequest {
  /** Names the question in respondInput / respondAuthorization. */
  inputRequestId: string;
  /** 'input': the agent asks the user something; 'authorization': it needs the user's approval or credentials. */
  kind: 'input' | 'authorization';
  mode: 'text';
  /** What the agent asked, as it said it. */
  prompt?: string;
}

/** A resolved question: the request and the action that answered it. */
export interface ResolvedInput extends InputRequest {
  action: 'accept' | 'decline' | 'cancel';
}

/** What every event has: the Work's id (never a remote task id) and its owner. */
interface EventBase {
  workId: string;
  ownerId: string;
}

/** The Work's state changed or its agent said something about its progress; the last one of a Work is its end state. */
export interface ActivityEvent extends EventBase {
  type: 'backend.activity';
  state: WorkState;
  /** The agent's status text, as it said it (at the end of a failed Work: the agent's own words, else the error's). */
  text?: string;
  /**
   * The Work's connection to the agent broke and is being recovered (resubscribing, then
   * polling). The Work's state and text are repeated as they were.
   */
  reconnecting?: boolean;
  /**
   * The agent answers again after a break (once per `reconnecting`). The state and text are
   * repeated as they were; nothing the Work showed before the break comes again.
   */
  reconnected?: boolean;
}

/** A message of the agent that is not part of the answer (its remarks while it works). */
export interface MessageEvent extends EventBase {
  type: 'backend.message';
  text: string;
}

/** An artifact (part of the answer) arrived or grew. */
export interface ArtifactEvent extends EventBase {
  type: 'backend.artifact';
  /** The whole artifact so far (shared: do not modify it). */
  artifact: Artifact;
  /**
   * When the change only appended: what it appended to the artifact of the previous event.
   * Absent when the artifact is new or was replaced. Render streamed text by appending
   * `delta.text` instead of redrawing `artifact`.
   */
  delta?: ArtifactDelta;
}

/**
 * The agent asks a question: answer it with respondInput (kind 'input') or respondAuthorization
 * (kind 'authorization'). The Work waits for the answer, as long as it may run or for
 * `inputTimeoutMs`: a question nobody answers holds its submit() until then.
 */
export interface InputRequestedEvent extends EventBase {
  type: 'backend.input.requested';
  state: 'input_required' | 'auth_required';
  input: InputRequest;
}

/** A question was answered (or declined, or cancelled). */
export interface InputResolvedEvent extends EventBase {
  type: 'backend.input.resolved';
  input: ResolvedInput;
}

/**
 * What a Work shows while it runs, in order. A union by `type`: after a check of `type`, the
 * event's own fields are known (`ev.artifact` on 'backend.artifact'). docs/events.md says when
 * each comes.
 */
export type BackendEvent = ActivityEvent | MessageEvent | ArtifactEvent | InputRequestedEvent | InputResolvedEvent;

/** An append to an artifact's end: text (or raw) continues its last part, then parts follow. */
export interface ArtifactDelta {
  text?: string;
  raw?: Uint8Array;
  parts?: Part[];
}

export interface Capabilities {
  cancel: boolean;
  streaming: boolean;
  inputRequests: boolean;
  continuity: boolean;
  authorization: boolean;
  /** A Work may end with the agent's message-only reply (Outcome.messageReply). */
  messageReplies?: boolean;
  inputModes?: string[];
  outputModes?: string[];
}

/** Identity and capabilities; never a header, token or credential value. */
export interface Description {
  protocol: 'a2a';
  label: string;
  discovered: boolean;
  agentCardUrl?: string;
  transport?: 'JSONRPC' | 'HTTP+JSON';
  protocolVersion?: string;
  agentName?: string;
  agentVersion?: string;
  capabilities: Capabilities;
  /** Parts of the Agent Card that could not be read and were ignored (discovery went on). */
  cardNotes?: string[];
  /** The card in use is the agent's extended card, read with the credentials after discovery. */
  extendedCard?: boolean;
  /** What the card declares about authentication and how the adapter meets it (no values). */
  security?: Security;
  /** How the card in use was verified (verifyCard); absent when it was not. */
  cardSignature?: CardSignature;
}

export interface CardSignature {
  /** 'unsigned': verifyCard 'if-signed' let an unsigned card through. */
  status: 'verified' | 'unsigned';
  keyId?: string;
  algorithm?: string;
  /** Members of the card the signature does not cover (@a2a-js/sdk 1.3.0 signs without the security schemes given in its own form). */
  uncovered?: string[];
}

/** The card's security schemes and requirement sets, and the set the credentials satisfy. */
export interface Security {
  schemes?: SecurityScheme[];
  /** The card's requirement sets, each a list of scheme names: any one set, all of its schemes, is enough. */
  requirements?: string[][];
  /** The card asks for credentials. */
  required: boolean;
  /** The first requirement set the given credentials satisfy; absent when none does. */
  inUse?: string[];
  /** Credentials are required and no set is satisfied: expect A2A_AUTH_REQUIRED. */
  missing?: boolean;
}

export interface SecurityScheme {
  name: string;
  kind: 'bearer' | 'basic' | 'apiKey' | 'oauth2' | 'openIdConnect' | 'mutualTLS' | 'unsupported';
  /** apiKey: where the key goes, and under which name. */
  in?: 'header' | 'query' | 'cookie';
  param?: string;
}

/** HTTP basic: the user name and password. */
export interface BasicCredential {
  username: string;
  password?: string;
}

/** OAuth2 client credentials, run against the card's token URL (or tokenUrl); the token is cached and renewed. */
export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
  scopes?: string[];
  tokenUrl?: string;
}

/** `{}`: a scheme the transport itself satisfies (mutual TLS, with the certificate of the browser or of Node's agent). */
export interface TransportCredential {
  username?: undefined;
  password?: undefined;
  clientId?: undefined;
  clientSecret?: undefined;
  scopes?: undefined;
  tokenUrl?: undefined;
}

/**
 * The secret for one security scheme of the Agent Card: a token (bearer, API key, OAuth2 or
 * OpenID Connect token), HTTP basic, OAuth2 client credentials, or {} for a scheme the transport
 * satisfies (mutual TLS).
 */
export type Credential = string | BasicCredential | ClientCredentials | TransportCredential;

export interface Health {
  ok: boolean;
  started?: boolean;
  closed?: boolean;
  error?: string;
}

/** status(): with an id `{state}`; without, the runtime ('idle', 'ready', 'closed', with activeWorks). */
export interface Status {
  state: WorkState | 'idle' | 'ready' | 'closed';
  started?: boolean;
  activeWorks?: number;
}

/**
 * What cancel() did: `cancelled` (the agent cancelled the task, or it never reached the agent),
 * `not_found` (no such active Work for this owner: nothing to cancel, which is not an error).
 * When the agent refused because its task had already ended, the state says how (`completed`,
 * `failed`, `rejected`) and the Work's submit settles that way; when it refused a task that goes
 * on, the state the Work is still in. Nothing is reported cancelled that the agent did not cancel.
 */
export interface CancelResult {
  workId?: string;
  state: 'cancelled' | 'not_found' | 'completed' | 'failed' | 'rejected' | 'submitted' | 'working' | 'input_required' | 'auth_required';
}

/** An answer to the agent's question. */
export interface InputResponse {
  /** Default 'accept' (with text or values). 'decline' tells the agent no; 'cancel' cancels the Work. */
  action?: 'accept' | 'decline' | 'cancel';
  text?: string;
  /** Structured answer (form fields), sent as a data part. */
  values?: Record<string, unknown>;
}

export interface OwnerOptions {
  /** The Work's owner, as given in its Work: another owner's Work is not found. */
  ownerId: string;
}

export interface SubmitOptions {
  /** Aborting cancels the Work (as cancel() would). */
  signal?: AbortSignal;
  /** Receives this Work's events, in order, before the submit settles. */
  onEvent?: (event: BackendEvent) => void;
  /**
   * A W3C trace context ("00-<trace id>-<parent id>-<flags>") sent as the traceparent header of
   * every request of this Work, so the frontend's trace continues into the agent. A malformed one
   * rejects with INVALID_WORK.
   */
  traceparent?: string;
}

/** The protocol-neutral port a frontend talks to. */
export interface BackendPort {
  /** Identity and capabilities, at once: before start() what the options say, after it what discovery found. */
  describe(): Description;
  /** Loads the module and discovers the agent (its card); rejects with the reason discovery failed. A later call tries again. submit() starts on its own. */
  start(): Promise<Health>;
  /** Whether the port can take Works now (started, not closed), and why not. */
  health(): Promise<Health>;
  /**
   * Runs a Work: resolves with its one Outcome when the agent completed it, rejects with an
   * A2APortError when it did not (code says how: WORK_CANCELLED, A2A_TASK_FAILED, ...). Every event
   * of the Work reaches onEvent (and subscribe listeners) before it settles. A question of the
   * agent (backend.input.requested) waits for respondInput: with no one to answer it the submit
   * stays pending until `inputTimeoutMs` or `timeoutMs`, if set, or cancel().
   */
  submit(work: Work, options?: SubmitOptions): Promise<Outcome>;
  /**
   * Re-attaches to a Work a previous adapter left running (a page before its reload) from the
   * workStore's record, and settles as its submit would have; nothing is sent again. An unknown
   * Work, or another owner's, rejects with WORK_NOT_FOUND.
   */
  resume(workId: string, options: SubmitOptions & OwnerOptions): Promise<Outcome>;
  /** At once: without an id the runtime's state; with one the Work's (`not_found` when it is not active for this owner). */
  status(workId?: string, options?: OwnerOptions): Status;
  /**
   * Cancels an active Work. Resolves once the Work has settled (its submit rejects after it, with
   * WORK_CANCELLED when the agent cancelled), and says what happened; never rejects a cancel that
   * happened. A Work that is not active (unknown, finished) is `{state: 'not_found'}`: there is
   * nothing to cancel, which is not an error. Another owner's active Work rejects with WORK_NOT_FOUND.
   */
  cancel(workId: string, options: OwnerOptions): Promise<CancelResult>;
  /**
   * Answers the agent's question (an 'input' request). Rejects with WORK_NOT_FOUND when the Work is
   * not active for this owner (the answer could reach no one), INPUT_NOT_PENDING, INPUT_ALREADY_SUBMITTED
   * or INPUT_ACTION_REQUIRED when the answer does not fit the question.
   */
  respondInput(workId: string, inputRequestId: string, response: InputResponse, options: OwnerOptions): Promise<void>;
  /** Answers an 'authorization' request: action 'decline' or 'cancel' (A2A has no general approval; accept is A2A_AUTHORIZATION_UNSUPPORTED). */
  respondAuthorization(workId: string, inputRequestId: string, response: InputResponse, options: OwnerOptions): Promise<void>;
  /** Receives every Work's events (after each Work's own onEvent); returns the function that unsubscribes. */
  subscribe(listener: (event: BackendEvent) => void): () => void;
  /** Cancels every active Work at the agent (bounded), rejects pending submits with ADAPTER_CLOSED, and stops. */
  close(): Promise<void>;
  /**
   * Stops like close(), but leaves every active Work running at the agent with its workStore record,
   * for resume() in the next adapter (a page after its reload, an app after its update, another server
   * process). Pending submits and resumes reject with WORK_DETACHED.
   */
  detach(): Promise<void>;
}

/** Keeps owner → context ids, e.g. in localStorage, so continuity survives a page reload. */
export interface ContextStore {
  get(ownerId: string): Promise<string | undefined | null> | string | undefined | null;
  set(ownerId: string, contextId: string): Promise<void> | void;
  delete(ownerId: string): Promise<void> | void;
}

/** One active Work as a WorkStore keeps it. The remote ids are the agent's; events never show them. */
export interface WorkRecord {
  workId: string;
  ownerId: string;
  remoteTaskId: string;
  remoteContextId?: string;
  state: WorkState;
}

/**
 * Records each active Work, e.g. in localStorage, so that resume() can re-attach to it after a
 * reload. Written once the agent named the task and at each change of state; deleted at the end.
 */
export interface WorkStore {
  get(workId: string): Promise<WorkRecord | undefined | null> | WorkRecord | undefined | null;
  set(record: WorkRecord): Promise<void> | void;
  delete(workId: string): Promise<void> | void;
}

/** What `headers` as a function receives: the request about to be sent. */
export interface HeaderRequest {
  url: string;
  method: string;
}

/** An interface of an agent: where it listens, and how it speaks there. */
export interface AgentInterface {
  url: string;
  /** 'JSONRPC' or 'HTTP+JSON' (what a2aport speaks); 'GRPC' and others are skipped. */
  protocolBinding: string;
  /** '1.0' or '0.3'. */
  protocolVersion: string;
  tenant?: string;
}

export interface AgentSkill {
  id: string;
  name: string;
  description?: string;
  tags?: string[];
  examples?: string[];
  inputModes?: string[];
  outputModes?: string[];
}

export interface AgentExtension {
  uri: string;
  description?: string;
  required?: boolean;
  params?: Record<string, unknown>;
}

/**
 * An Agent Card in A2A 1.0's JSON shape, as agentCard takes it. The card @a2a-js/sdk builds
 * (its AgentCard type) fits as it is; security schemes are read in either form, the specification's
 * ({httpAuthSecurityScheme: {scheme: 'Bearer'}}) or that SDK's.
 */
export interface AgentCard {
  name: string;
  description?: string;
  version?: string;
  supportedInterfaces: AgentInterface[];
  provider?: { organization: string; url?: string };
  documentationUrl?: string;
  iconUrl?: string;
  capabilities?: {
    streaming?: boolean;
    pushNotifications?: boolean;
    extendedAgentCard?: boolean;
    extensions?: AgentExtension[];
  };
  /** By scheme name: the scheme object in A2A 1.0 JSON or in @a2a-js/sdk's form. */
  securitySchemes?: Record<string, object | undefined>;
  /** Any one requirement set is enough: scheme names to scopes, as `{list: [...]}` or a plain array. */
  securityRequirements?: Array<{ schemes: Record<string, { list: string[] } | string[]> }>;
  defaultInputModes?: string[];
  defaultOutputModes?: string[];
  skills?: AgentSkill[];
  signatures?: Array<{ protected: string; signature: string; header?: Record<string, unknown> }>;
}

/** A compiled module, where the runtime's types declare WebAssembly (a DOM or Node library); else never. */
export type CompiledModule = typeof globalThis extends { WebAssembly: { Module: abstract new (...args: never[]) => infer M } } ? M : never;

/**
 * Options of createA2ABackendAdapter; docs/options.md has them in one table. Unknown names throw a
 * TypeError. Every number is a whole one, its default when 0 (or left out), as in Go; the ones
 * that say so turn off when negative. Written from internal/optiontable's table (go generate).
 */
export interface AdapterOptions {
  /**
   * The Agent Card URL (absolute http/https, no userinfo), or the agent's base URL (its card is
   * then read at /.well-known/agent-card.json). Exactly one of agentCardUrl, agentCard.
   */
  agentCardUrl?: string;
  /** An in-memory Agent Card replacing discovery, read as a fetched one is. */
  agentCard?: AgentCard;
  /**
   * Secrets by the name of the card's security scheme they are for. The first of the card's
   * requirement sets they satisfy is applied, each scheme as the card says; token and headers
   * come after and win where they set the same header.
   */
  credentials?: Record<string, Credential>;
  /**
   * Gives the token of a bearer, OAuth2, OpenID Connect or API key scheme that has no entry in
   * credentials (flows that need the user: authorization code with PKCE, device code). Called for
   * every request: cache in it. A throw fails the request with A2A_AUTH_REQUIRED.
   */
  tokenProvider?: (scheme: string) => string | Promise<string>;
  /** Sent as `Authorization: Bearer <token>` unless headers set Authorization. */
  token?: string;
  /** Static headers, or a function called for every request (discovery and task requests). */
  headers?: Record<string, string> | ((request: HeaderRequest) => Record<string, string> | Promise<Record<string, string>>);
  /** Makes every request; default globalThis.fetch. Called unbound, as a browser's fetch requires. */
  fetchImpl?: typeof fetch;
  /** Media types the frontend can show, sent with every message (A2A's acceptedOutputModes); default: none said. */
  acceptedOutputModes?: string[];
  /** GetTask interval when the agent cannot stream. Default 1000, minimum 10. */
  pollIntervalMs?: number;
  /**
   * A webhook the application serves (Node, Electron's main process; a page cannot): each Work
   * with an agent that offers push notifications asks it to push there instead of holding a stream
   * open, and the application hands each request the webhook receives to receivePush().
   */
  pushWebhookUrl?: string;
  /** Longest wait for a push before the task is read anyway. Default 30000, minimum 10. */
  pushPollIntervalMs?: number;
  /** Bounds each Work; on expiry its task is cancelled at the agent and submit rejects with A2A_TIMEOUT. Default 0 = none. */
  timeoutMs?: number;
  /**
   * Bounds how long one question of the agent waits for its answer; on expiry the Work ends with
   * INPUT_UNANSWERED and its task is cancelled at the agent. Default 0 = as long as the Work may run.
   */
  inputTimeoutMs?: number;
  /** Discovery and other requests outside a Work. Default 30000. */
  requestTimeoutMs?: number;
  /**
   * Reach A2A 0.3 agents too (default true); false: a card that offers only 0.3 has no
   * compatible interface.
   */
  legacyCompat?: boolean;
  /**
   * Runs the module in a worker (a Web Worker in a page or an Electron renderer, worker_threads in
   * Node): compiling, starting and running it never block this thread. fetchImpl, headers,
   * tokenProvider and the stores still run here (a module URL is read with a fetchImpl you give,
   * else by the worker). status() and describe() then answer with what the module said in its
   * last batch. Default: true on a page's main thread (where a worker cannot start, as under a CSP
   * without worker-src, the module then runs on the page), false in Node and in a worker.
   */
  worker?: boolean;
  /** Pins the A2A version of the interface to use; a pin the card cannot satisfy is A2A_NO_COMPATIBLE_TRANSPORT. */
  protocolVersion?: '1.0' | '0.3';
  /** Pins the binding of the interface to use; a pin the card cannot satisfy is A2A_NO_COMPATIBLE_TRANSPORT. */
  protocolBinding?: 'JSONRPC' | 'HTTP+JSON';
  /**
   * A2A extensions to activate (the A2A-Extensions header), of those the card declares. A card that
   * marks an extension required that is not listed fails discovery with A2A_EXTENSION_REQUIRED.
   */
  extensions?: string[];
  /**
   * How often a Work's stream that broke, or ended before its task did, is resubscribed before
   * the adapter falls back to polling (and how many failed polls in a row it retries); the message
   * is never sent again. Default 4 (0 too); a negative number turns recovery off (a broken stream
   * fails the Work).
   */
  recoveryAttempts?: number;
  /** Wait before the second recovery attempt (the first is immediate), doubling up to 4 s, with jitter. Default 250. */
  recoveryBackoffMs?: number;
  /**
   * Longest silence between two events of a started stream; a longer one is recovered like a
   * broken stream (never a failure while recovery is on). Default 60000 (0 too); negative: off.
   */
  streamIdleTimeoutMs?: number;
  /**
   * Silence on a started stream after which the adapter reads the task (GetTask), and again after
   * each such silence: a task that moved past what the stream delivered means the connection died,
   * and the stream is recovered at once; otherwise the agent is thinking and the stream is kept.
   * Default 10000 (0 too); negative: off.
   */
  streamProbeIntervalMs?: number;
  /**
   * Longest wait for a stream's first event; on expiry the Work fails with A2A_OUTCOME_UNKNOWN, not
   * retryable (whether the agent received the message is not known). Default 0 = none.
   */
  firstEventTimeoutMs?: number;
  /**
   * Check the Agent Card's JWS signatures before using it: 'off' (default), 'if-signed' (a signed
   * card must verify) or 'required'. Failing is A2A_CARD_SIGNATURE_INVALID.
   */
  verifyCard?: 'off' | 'if-signed' | 'required';
  /** The public keys trusted to sign cards (with their kid): a JWK Set, an array of JWKs or one JWK. */
  cardKeys?: { keys: object[] } | object[] | object;
  /** Fetch the key a signature's jku names, when on the card's origin or an allowed one. */
  cardKeysFromJku?: boolean;
  /**
   * Origins ('https://host[:port]', default port left out, or '*' for any) besides the card's own
   * where its interfaces may be; an interface elsewhere is refused and never gets credentials. An
   * https card never leads to a plain-http interface (loopback excepted).
   */
  allowedOrigins?: string[];
  /** Size limit of the Agent Card; past it, A2A_RESPONSE_TOO_LARGE. Default 1 MiB. */
  maxCardBytes?: number;
  /** One answer that is not a stream, and one event of a stream (also bounded by a2a-go's 10 MiB per line). Default 16 MiB. */
  maxResponseBytes?: number;
  /** One artifact as its chunks merge. Default 256 MiB. */
  maxArtifactBytes?: number;
  /** All the artifacts of one Work together. Default 256 MiB. */
  maxWorkBytes?: number;
  /** Continue each owner's conversation: a Work goes to the remote context of the owner's previous one. Default false. */
  reuseContext?: boolean;
  /** Where reuseContext keeps each owner's context id (e.g. localStorage, to survive a reload). Default: in memory. */
  contextStore?: ContextStore;
  /** Records active Works so that resume() can re-attach to them after a reload. Default: none. */
  workStore?: WorkStore;
  /** The name describe() reports. Default: the agent's name from its card, else the card URL's host. */
  label?: string;
  /** Where the module comes from: a URL, a Response, bytes, or a compiled WebAssembly.Module. Default: beside the package's code. */
  wasm?: string | URL | Response | ArrayBuffer | Uint8Array | CompiledModule;
}

/**
 * The codes of A2APortError, the same as the Go package's; docs/errors.md says when each is given.
 * A2A_LEGACY_BUILD_REQUIRED is never produced any more: it meant that the A2A 1.0-only module met
 * an agent that needs A2A 0.3; there is one module now, which speaks both, and the code stays so
 * that code naming it compiles.
 */
export type A2APortErrorCode =
  | 'INVALID_OPTIONS' | 'INVALID_WORK' | 'WORK_ALREADY_ACTIVE' | 'WORK_CANCELLED' | 'WORK_NOT_FOUND'
  | 'ADAPTER_CLOSED' | 'WORK_DETACHED' | 'A2A_DISCOVERY_FAILED' | 'A2A_NO_COMPATIBLE_TRANSPORT' | 'A2A_HTTP_ERROR'
  | 'A2A_NETWORK_ERROR' | 'A2A_PROTOCOL_ERROR' | 'A2A_HEADERS_FAILED' | 'A2A_TIMEOUT' | 'A2A_TASK_FAILED'
  | 'A2A_TASK_REJECTED' | 'A2A_INVALID_RESPONSE' | 'A2A_CONTEXT_MISMATCH' | 'INPUT_NOT_PENDING'
  | 'INPUT_ALREADY_SUBMITTED' | 'INPUT_ACTION_REQUIRED' | 'INPUT_UNANSWERED' | 'A2A_AUTHORIZATION_UNSUPPORTED'
  | 'MODULE_TRAPPED' | 'MODULE_UNAVAILABLE' | 'A2A_EXTENSION_REQUIRED'
  | 'A2A_OUTCOME_UNKNOWN' | 'A2A_RESPONSE_TOO_LARGE' | 'A2A_AUTH_REQUIRED' | 'A2A_CARD_SIGNATURE_INVALID' | 'PUSH_REFUSED' | 'INTERNAL'
  | 'A2A_LEGACY_BUILD_REQUIRED';

/** The one error type of the port: `code` says what happened, docs/errors.md when. */
export class A2APortError extends Error {
  readonly code: A2APortErrorCode;
  /** The HTTP status, when an answer of the agent was the cause. */
  readonly status?: number;
  /** Whether calling again cannot do the work twice and may succeed. */
  readonly retryable: boolean;
  /**
   * What the agent itself said when its task ended the Work (failed, rejected, cancelled), as it
   * said it; `message` wraps it in a2aport's words.
   */
  readonly agentText?: string;
  /** The runtime's own error under this one, when there is one: in Node a failed fetch's, with its `code` (ECONNREFUSED, ENOTFOUND). */
  readonly cause?: unknown;
  constructor(code: A2APortErrorCode, message: string, options?: { status?: number; retryable?: boolean; cause?: unknown; agentText?: string });
}

/** A request as node:http and Express hand it to a handler: its method, headers and body chunks. */
export interface PushRequest extends AsyncIterable<Uint8Array | string> {
  method?: string;
  headers: Record<string, string | string[] | undefined>;
}

/** A response as node:http and Express hand it to a handler. */
export interface PushResponse {
  statusCode: number;
  setHeader(name: string, value: string): unknown;
  end(body?: string): unknown;
}

/** The A2A client's BackendPort, with what only it has: the webhook of pushWebhookUrl. */
export interface A2ABackend extends BackendPort {
  /**
   * Takes one request to the webhook of pushWebhookUrl and resolves with the Response to answer it:
   * 200 when it woke its Work, else the status of the refusal (401 no or an unknown token, 400 a
   * body for no Work's task, 413 too large, 405 not a POST), which changed nothing.
   */
  receivePush(request: Request): Promise<Response>;
  /** receivePush for node:http and Express: reads the request, writes the answer, resolves once written. */
  handlePush(request: PushRequest, response: PushResponse): Promise<void>;
}

/** Creates a BackendPort. Invalid options throw a TypeError naming the option. */
export function createA2ABackendAdapter(options: AdapterOptions): A2ABackend;
