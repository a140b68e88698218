// a2aport — the BackendPort for browsers, Electron and Node, backed by a2aport.wasm.

/** A file attached to a Work. `url` may be a `data:` URL (sent to the agent as raw bytes). */
export interface InputPart {
  type: 'file';
  mime?: string;
  filename?: string;
  url: string;
}

/** One piece of work for the agent. */
export interface Work {
  id: string;
  ownerId: string;
  instruction: string;
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
  content: string;
  artifacts: Artifact[];
  /** The agent answered with a message and made no task: nothing of the Work remains at the agent. */
  messageReply?: boolean;
}

export type WorkState =
  | 'submitted' | 'working' | 'input_required' | 'auth_required' | 'not_found'
  | 'completed' | 'failed' | 'rejected' | 'cancelled';

export interface InputRequest {
  inputRequestId: string;
  kind: 'input' | 'authorization';
  mode: 'text';
  prompt?: string;
  /** On backend.input.resolved: the action that answered the request. */
  action?: string;
}

/** Every event carries the Work id as `taskId` and its owner; never a remote id. */
export interface BackendEvent {
  type: 'backend.activity' | 'backend.message' | 'backend.artifact' | 'backend.input.requested' | 'backend.input.resolved';
  taskId: string;
  ownerId: string;
  state?: WorkState;
  text?: string;
  /** On backend.artifact: the whole artifact so far (shared: do not modify it). */
  artifact?: Artifact;
  /**
   * On backend.artifact, when the change only appended: what it appended to the artifact of the
   * previous event. Absent when the artifact is new or was replaced. Render streamed text by
   * appending `delta.text` instead of redrawing `artifact`.
   */
  delta?: ArtifactDelta;
  input?: InputRequest;
  /**
   * On backend.activity: the Work's connection to the agent broke and is being recovered
   * (resubscribing, then polling). The Work's state and text are repeated as they were.
   */
  reconnecting?: boolean;
  /**
   * On backend.activity: the agent answers again after a break (once per `reconnecting`). The
   * state and text are repeated as they were; nothing the Work showed before the break comes again.
   */
  reconnected?: boolean;
}

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

/**
 * The secret for one security scheme of the Agent Card: a token (bearer, API key, OAuth2 or
 * OpenID Connect token), HTTP basic, OAuth2 client credentials (run against the card's token URL,
 * or tokenUrl; cached and renewed), or {} for a scheme the transport satisfies (mutual TLS).
 */
export type Credential =
  | string
  | { username: string; password?: string }
  | { clientId: string; clientSecret: string; scopes?: string[]; tokenUrl?: string }
  | Record<string, never>;

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
 * `not_found` (no such active Work). When the agent refused because its task had already ended,
 * the state says how (`completed`, `failed`, `rejected`) and the Work's submit settles that way;
 * when it refused a task that goes on, the state the Work is still in. Nothing is reported
 * cancelled that the agent did not cancel.
 */
export interface CancelResult {
  taskId?: string;
  state: 'cancelled' | 'not_found' | 'completed' | 'failed' | 'rejected' | 'submitted' | 'working' | 'input_required' | 'auth_required';
}

export interface InputResponse {
  action?: 'accept' | 'decline' | 'cancel';
  text?: string;
  values?: Record<string, unknown>;
}

export interface OwnerOptions {
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
  describe(): Description;
  start(): Promise<Health>;
  health(): Promise<Health>;
  submit(work: Work, options?: SubmitOptions): Promise<Outcome>;
  /**
   * Re-attaches to a Work a previous adapter left running (a page before its reload) from the
   * workStore's record, and settles as its submit would have; nothing is sent again. An unknown
   * Work, or another owner's, rejects with WORK_NOT_FOUND.
   */
  resume(workId: string, options: SubmitOptions & OwnerOptions): Promise<Outcome>;
  status(workId?: string, options?: OwnerOptions): Status;
  cancel(workId: string, options: OwnerOptions): Promise<CancelResult>;
  respondInput(workId: string, inputRequestId: string, response: InputResponse, options: OwnerOptions): Promise<void>;
  respondAuthorization(workId: string, inputRequestId: string, response: InputResponse, options: OwnerOptions): Promise<void>;
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

export interface AdapterOptions {
  /** The complete Agent Card URL (absolute http/https, no userinfo). Exactly one of agentCardUrl, agentCard. */
  agentCardUrl?: string;
  /** An in-memory Agent Card (A2A 1.0 JSON shape) replacing discovery. */
  agentCard?: object;
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
  /**
   * Check the Agent Card's JWS signatures before using it: 'off' (default), 'if-signed' (a signed
   * card must verify) or 'required'. Failing is A2A_CARD_SIGNATURE_INVALID.
   */
  verifyCard?: 'off' | 'if-signed' | 'required';
  /** The public keys trusted to sign cards (with their kid): a JWK Set, an array of JWKs or one JWK. */
  cardKeys?: { keys: object[] } | object[] | object;
  /** Fetch the key a signature's jku names, when on the card's origin or an allowed one. */
  cardKeysFromJku?: boolean;
  /** Static headers, or a function called for every request (discovery and task requests). */
  headers?: Record<string, string> | ((request: HeaderRequest) => Record<string, string> | Promise<Record<string, string>>);
  /** Default: globalThis.fetch. */
  fetchImpl?: typeof fetch;
  acceptedOutputModes?: string[];
  /** GetTask interval when the agent cannot stream. Default 1000, minimum 10. */
  pollIntervalMs?: number;
  /** Per Work; 0 (default) = no timeout. */
  timeoutMs?: number;
  /** Discovery and other requests outside a Work. Default 30000. */
  requestTimeoutMs?: number;
  /**
   * How often a Work's stream that broke, or ended before its task did, is resubscribed before
   * the adapter falls back to polling (and how many failed polls in a row it retries); the message
   * is never sent again. Default 4; 0 turns recovery off (a broken stream fails the Work).
   */
  recoveryAttempts?: number;
  /** Wait before the second recovery attempt (the first is immediate), doubling up to 4 s, with jitter. Default 250. */
  recoveryBackoffMs?: number;
  /**
   * Longest silence between two events of a started stream; a longer one is recovered like a
   * broken stream (never a failure while recovery is on). Default 60000; 0 = off.
   */
  streamIdleTimeoutMs?: number;
  /**
   * Silence on a started stream after which the adapter reads the task (GetTask), and again after
   * each such silence: a task that moved past what the stream delivered means the connection died,
   * and the stream is recovered at once; otherwise the agent is thinking and the stream is kept.
   * Default 10000; 0 = off.
   */
  streamProbeIntervalMs?: number;
  /**
   * Longest wait for a stream's first event; on expiry the Work fails with A2A_OUTCOME_UNKNOWN, not
   * retryable (whether the agent received the message is not known). Default 0 = none.
   */
  firstEventTimeoutMs?: number;
  /**
   * Origins ('https://host[:port]', default port left out, or '*' for any) besides the card's own
   * where its interfaces may be; an interface elsewhere is refused and never gets credentials. An
   * https card never leads to a plain-http interface (loopback excepted).
   */
  allowedOrigins?: string[];
  /** Size limits of what the agent sends; past one, A2A_RESPONSE_TOO_LARGE and nothing more is read. The Agent Card: default 1 MiB. */
  maxCardBytes?: number;
  /** One answer that is not a stream, and one event of a stream (also bounded by a2a-go's 10 MiB per line). Default 16 MiB. */
  maxResponseBytes?: number;
  /** One artifact as its chunks merge. Default 256 MiB. */
  maxArtifactBytes?: number;
  /** All the artifacts of one Work together. Default 256 MiB. */
  maxWorkBytes?: number;
  /**
   * A2A 0.3 agents through the compat layer (default true). The adapter starts on the 1.0-only
   * module either way and loads the full module only when the Agent Card needs 0.3.
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
  /** Pins the binding of the interface to use. 'GRPC' is A2A's too but not spoken here: start() rejects it with A2A_NO_COMPATIBLE_TRANSPORT. */
  protocolBinding?: 'JSONRPC' | 'HTTP+JSON' | 'GRPC';
  /**
   * A2A extensions to activate (the A2A-Extensions header), of those the card declares. A card that
   * marks an extension required that is not listed fails discovery with A2A_EXTENSION_REQUIRED.
   */
  extensions?: string[];
  reuseContext?: boolean;
  contextStore?: ContextStore;
  /** Records active Works so that resume() can re-attach to them after a reload. Default: none. */
  workStore?: WorkStore;
  label?: string;
  /** Where the module comes from: a URL, a Response, bytes, or a compiled WebAssembly.Module. */
  wasm?: string | URL | Response | ArrayBuffer | Uint8Array | WebAssembly.Module;
}

/** Errors of the port: `code` as in the Go package (WORK_CANCELLED, A2A_TASK_FAILED, ...). */
export class A2APortError extends Error {
  readonly code: string;
  readonly status?: number;
  readonly retryable: boolean;
  constructor(code: string, message: string, options?: { status?: number; retryable?: boolean; cause?: unknown });
}

/** Creates a BackendPort. Invalid options throw a TypeError naming the option. */
export function createA2ABackendAdapter(options: AdapterOptions): BackendPort;
