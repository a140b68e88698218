// An A2A agent built on the official JavaScript SDK (@a2a-js/sdk 1.3.0: its DefaultRequestHandler,
// card handler and Express transports), served on 127.0.0.1: a peer a2aport did not write, for the
// interop tests of every runtime. Over {A2A 1.0, 0.3 (the SDK's compat layer)} × {JSON-RPC,
// HTTP+JSON} × {streaming, polling}, plus variants whose cards declare security (bearer, an API key
// in a query parameter or header, OAuth2 client credentials against a token endpoint served here),
// each enforced by a check in front of the SDK's transport.
//
// Imported by js/test/interop.test.js and the Chromium tests; run as a command by the Go tests:
//
//   node js/test/sdkagent.mjs     prints {"url", "cards": {variant: cardUrl}, "credentials": {variant: {scheme: secret}},
//                                 "cardKeys": <the JWK Set of the signed card>}
//                                 on one line, then serves until SIGTERM, stdin closes or 10 minutes pass.
//
// Needs the devDependencies @a2a-js/sdk and express (npm install in js/).
import { randomUUID } from 'node:crypto';
import * as jose from 'jose';
import { fileURLToPath } from 'node:url';

let sdk;
try {
  sdk = {
    ...(await import('@a2a-js/sdk')),
    ...(await import('@a2a-js/sdk/server')),
    ...(await import('@a2a-js/sdk/server/express')),
    express: (await import('express')).default,
  };
} catch (err) {
  throw new Error('sdkagent.mjs needs the devDependencies @a2a-js/sdk and express: run npm install in js/', { cause: err });
}
const { AgentEvent, DefaultRequestHandler, InMemoryTaskStore, Role, TaskState, UserBuilder, agentCardHandler, jsonRpcHandler, restHandler } = sdk;

// ---------------------------------------------------------------------------------------------
// The SDK agent. The first word of the first text part picks the scenario, as in internal/testkit/agent:
//   complete ...  artifact "result" "echo: <text>", COMPLETED "done"
//   chunks ...    artifact "report" in three appended chunks "a " "b " "c ", COMPLETED "done"
//   message ...   a Message reply, no task: "plain reply"
//   fail ...      FAILED "the sdk agent failed"
//   input ...     INPUT_REQUIRED "What is your name?"; the reply gets artifact "Hello, <reply>!"
//   hold ...      WORKING until cancelled (CANCELED "cancelled")
//   tenant ...    artifact "result" "tenant: <the tenant the SDK routed the request to>"
//   files ...     artifact "files": raw text/html and image/svg+xml whose script, if it ever runs,
//                 leaves HOSTILE_MARK in the page's localStorage

const textPart = (text) => ({ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' });
const now = () => new Date().toISOString();

function agentMessage(ctx, text) {
  return { messageId: randomUUID(), contextId: ctx.contextId, taskId: ctx.taskId, role: Role.ROLE_AGENT, parts: [textPart(text)], metadata: undefined, extensions: [], referenceTaskIds: [] };
}

function firstText(message) {
  return message.parts.find((p) => p.content?.$case === 'text')?.content.value ?? '';
}

class ScenarioExecutor {
  constructor() {
    this.held = new Map(); // taskId -> release()
    this.cancels = []; // task ids whose cancelation reached the executor
  }

  async execute(ctx, bus) {
    const status = (state, text, extra = {}) => bus.publish(AgentEvent.statusUpdate({
      taskId: ctx.taskId, contextId: ctx.contextId, metadata: undefined,
      status: { state, message: text === undefined ? undefined : agentMessage(ctx, text), timestamp: now() }, ...extra,
    }));
    const artifact = (artifactId, text, { append = false, lastChunk = true } = {}) => bus.publish(AgentEvent.artifactUpdate({
      taskId: ctx.taskId, contextId: ctx.contextId, append, lastChunk, metadata: undefined,
      artifact: { artifactId, name: artifactId, description: '', parts: [textPart(text)], metadata: undefined, extensions: [] },
    }));
    const scenarioText = firstText(ctx.task?.history?.[0] ?? ctx.userMessage);
    const word = scenarioText.split(/\s+/)[0].toLowerCase();

    if (word === 'message') {
      bus.publish(AgentEvent.message(agentMessage({ contextId: ctx.contextId, taskId: '' }, 'plain reply')));
      bus.finished();
      return;
    }
    // Every turn opens with the task (the SDK requires a task or message first).
    bus.publish(AgentEvent.task(ctx.task ?? {
      id: ctx.taskId, contextId: ctx.contextId, artifacts: [], history: [ctx.userMessage], metadata: undefined,
      status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: now() },
    }));
    status(TaskState.TASK_STATE_WORKING, 'working');
    switch (word) {
      case 'chunks':
        artifact('report', 'a ', { lastChunk: false });
        artifact('report', 'b ', { append: true, lastChunk: false });
        artifact('report', 'c ', { append: true, lastChunk: true });
        status(TaskState.TASK_STATE_COMPLETED, 'done');
        break;
      case 'tenant': // which tenant the SDK's transport routed the request to
        artifact('result', `tenant: ${ctx.context?.tenant || ctx.request.tenant || '(none)'}`);
        status(TaskState.TASK_STATE_COMPLETED, 'done');
        break;
      case 'files': {
        const raw = (filename, mediaType, text) => ({ content: { $case: 'raw', value: Buffer.from(text) }, metadata: undefined, filename, mediaType });
        bus.publish(AgentEvent.artifactUpdate({
          taskId: ctx.taskId, contextId: ctx.contextId, append: false, lastChunk: true, metadata: undefined,
          artifact: {
            artifactId: 'files', name: 'files', description: '', metadata: undefined, extensions: [], parts: [
              raw('page.html', 'text/html', `<script>localStorage.setItem('${HOSTILE_MARK}', 'html')</script>`),
              raw('image.svg', 'image/svg+xml', `<svg xmlns="http://www.w3.org/2000/svg" onload="localStorage.setItem('${HOSTILE_MARK}', 'svg')"/>`),
            ],
          },
        }));
        status(TaskState.TASK_STATE_COMPLETED, 'done');
        break;
      }
      case 'fail':
        status(TaskState.TASK_STATE_FAILED, 'the sdk agent failed');
        break;
      case 'input':
        if (ctx.task === undefined) {
          status(TaskState.TASK_STATE_INPUT_REQUIRED, 'What is your name?');
        } else {
          artifact('greeting', `Hello, ${firstText(ctx.userMessage)}!`);
          status(TaskState.TASK_STATE_COMPLETED, 'done');
        }
        break;
      case 'hold':
        await new Promise((resolve) => this.held.set(ctx.taskId, resolve));
        status(TaskState.TASK_STATE_CANCELED, 'cancelled');
        break;
      default:
        artifact('result', `echo: ${scenarioText}`);
        status(TaskState.TASK_STATE_COMPLETED, 'done');
    }
    bus.finished();
  }

  async cancelTask(taskId) {
    this.cancels.push(taskId);
    const release = this.held.get(taskId);
    this.held.delete(taskId);
    release?.();
  }

  releaseAll() {
    for (const release of this.held.values()) release();
    this.held.clear();
  }
}

/**
 * The variants served: A2A 1.0 natively and A2A 0.3 through the SDK's own compat layer
 * (legacyCompat), each over JSON-RPC and HTTP+JSON, with and without streaming.
 */
export const sdkVariants = [];
for (const version of ['1.0', '0.3']) {
  for (const binding of ['jsonrpc', 'rest']) {
    for (const streaming of [true, false]) {
      sdkVariants.push({ name: `${version === '1.0' ? 'v1' : 'v03'}-${binding}-${streaming ? 'stream' : 'poll'}`, version, binding, streaming });
    }
  }
}
// The same agent behind security declared on its card (in the SDK's own proto-JSON form, which it
// writes as 0.3 security for 0.3 cards) and enforced in front of its transport.
/** What the script of the files scenario writes into localStorage, should it run. */
export const HOSTILE_MARK = 'a2aport-agent-script-ran';
export const BEARER_TOKEN = 'interop-secret-token';
export const API_KEY = 'interop-api-key-5ecret';
export const CLIENT = { clientId: 'interop-client', clientSecret: 'interop-client-5ecret' };
const SCOPE = 'agent:run';
const secured = [
  { name: 'v1-jsonrpc-stream-bearer', version: '1.0', binding: 'jsonrpc', security: 'bearer' },
  { name: 'v03-jsonrpc-stream-bearer', version: '0.3', binding: 'jsonrpc', security: 'bearer' },
  { name: 'v1-rest-stream-apikey', version: '1.0', binding: 'rest', security: 'apikey-query' },
  { name: 'v03-rest-stream-apikey', version: '0.3', binding: 'rest', security: 'apikey-header' },
  { name: 'v1-jsonrpc-stream-oauth2', version: '1.0', binding: 'jsonrpc', security: 'oauth2' },
  { name: 'v03-jsonrpc-stream-oauth2', version: '0.3', binding: 'jsonrpc', security: 'oauth2' },
];
for (const v of secured) sdkVariants.push({ ...v, streaming: true });
// Cards that offer an extended card to authenticated callers (bearer), through the SDK's
// extendedAgentCardProvider: the extended one has its own name and one more skill.
export const EXTENDED_NAME = 'a2a-js interop agent (extended)';
for (const [version, binding] of [['1.0', 'jsonrpc'], ['1.0', 'rest'], ['0.3', 'jsonrpc']]) {
  sdkVariants.push({ name: `${version === '1.0' ? 'v1' : 'v03'}-${binding}-stream-extended`, version, binding, streaming: true, security: 'bearer', extended: true });
}
// Interfaces that name a tenant: the REST transport routes by a path segment, JSON-RPC by a field.
export const TENANT = 'acme';
for (const binding of ['jsonrpc', 'rest']) sdkVariants.push({ name: `v1-${binding}-stream-tenant`, version: '1.0', binding, streaming: true, tenant: TENANT });
// Cards that offer push notifications, sent by the SDK's own push sender (DefaultPushNotificationSender)
// to the webhook a test serves.
for (const [version, binding] of [['1.0', 'jsonrpc'], ['1.0', 'rest'], ['0.3', 'jsonrpc'], ['0.3', 'rest']]) {
  sdkVariants.push({ name: `${version === '1.0' ? 'v1' : 'v03'}-${binding}-stream-push`, version, binding, streaming: true, push: true });
}
// A card signed by the SDK's own signing code, its key published at /jwks.json (the jku).
sdkVariants.push({ name: 'v1-jsonrpc-stream-signed', version: '1.0', binding: 'jsonrpc', streaming: true, signed: true });

const scheme = ($case, value) => ({ scheme: { $case, value: { description: '', ...value } } });

/** The card's security for kind, the check of a request, and the secret a client gives. */
function security(kind, base) {
  switch (kind) {
    case 'bearer':
      return {
        schemes: { bearer: scheme('httpAuthSecurityScheme', { scheme: 'Bearer', bearerFormat: '' }) },
        requirement: { bearer: { list: [] } },
        ok: (req) => req.get('authorization') === `Bearer ${BEARER_TOKEN}`,
        challenge: 'Bearer',
        credentials: { bearer: BEARER_TOKEN },
      };
    case 'apikey-query':
    case 'apikey-header': {
      const inQuery = kind === 'apikey-query';
      return {
        schemes: { key: scheme('apiKeySecurityScheme', { location: inQuery ? 'query' : 'header', name: inQuery ? 'api_key' : 'X-Api-Key' }) },
        requirement: { key: { list: [] } },
        ok: (req) => (inQuery ? req.query.api_key : req.get('x-api-key')) === API_KEY,
        challenge: 'ApiKey',
        credentials: { key: API_KEY },
      };
    }
    case 'oauth2':
      return {
        schemes: {
          oauth: scheme('oauth2SecurityScheme', {
            oauth2MetadataUrl: '',
            flows: { flow: { $case: 'clientCredentials', value: { tokenUrl: `${base}/oauth/token`, refreshUrl: '', scopes: { [SCOPE]: 'run work' } } } },
          }),
        },
        requirement: { oauth: { list: [SCOPE] } },
        ok: (req, tokens) => tokens.has((req.get('authorization') ?? '').replace(/^Bearer /, '')),
        challenge: `Bearer scope="${SCOPE}"`,
        credentials: { oauth: { ...CLIENT } },
      };
    default:
      return undefined;
  }
}

/** The client-credentials grant only; the client authenticates with HTTP basic. */
function tokenEndpoint(tokens) {
  return (req, res) => {
    const [id, secret] = Buffer.from((req.get('authorization') ?? '').replace(/^Basic /, ''), 'base64').toString().split(':').map(decodeURIComponent);
    const form = new URLSearchParams(req.body ?? '');
    if (form.get('grant_type') !== 'client_credentials') return res.status(400).json({ error: 'unsupported_grant_type' });
    if (id !== CLIENT.clientId || secret !== CLIENT.clientSecret) return res.status(401).json({ error: 'invalid_client' });
    if (!(form.get('scope') ?? '').split(' ').includes(SCOPE)) return res.status(400).json({ error: 'invalid_scope' });
    const token = `sdk-oauth-${randomUUID()}`;
    tokens.add(token);
    res.set('Cache-Control', 'no-store').json({ access_token: token, token_type: 'Bearer', expires_in: 3600 });
  };
}

/** Lets pages of any origin call the agent, as the README says an agent must for browsers. */
function cors(req, res, next) {
  res.set('Access-Control-Allow-Origin', '*');
  if (req.method !== 'OPTIONS') return next();
  res.set('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
  res.set('Access-Control-Allow-Headers', req.get('access-control-request-headers') ?? '');
  res.status(204).end();
}

/** Serves the SDK agent on 127.0.0.1: one card and endpoint per variant. */
export async function startSdkAgent() {
  const app = sdk.express();
  app.use(cors);
  const tokens = new Set();
  app.post('/oauth/token', sdk.express.text({ type: 'application/x-www-form-urlencoded' }), tokenEndpoint(tokens));
  const executor = new ScenarioExecutor();
  const server = await new Promise((resolve, reject) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
  const base = `http://127.0.0.1:${server.address().port}`;
  const cards = {};
  const cardObjects = {};
  const credentials = {};
  const signingKey = await jose.generateKeyPair('ES256', { extractable: true });
  const jwks = { keys: [{ ...(await jose.exportJWK(signingKey.publicKey)), kid: 'sdk-agent-key', alg: 'ES256', use: 'sig' }] };
  app.get('/jwks.json', (req, res) => res.json(jwks));
  for (const { name, version, binding, streaming, security: kind, tenant, signed, extended, push } of sdkVariants) {
    // Secured and tenant variants live apart: Express matches a prefix for every path below it, and the SDK's
    // REST router reads a further segment as a tenant.
    const prefix = kind || tenant || signed || push ? `/apart/${name}` : `/${name.replaceAll('-', '/')}`;
    const sec = security(kind, base);
    const card = {
      name: 'a2a-js interop agent', description: 'scenarios for a2aport interop tests', version: '1.3.0',
      supportedInterfaces: [{ url: base + prefix, protocolBinding: binding === 'jsonrpc' ? 'JSONRPC' : 'HTTP+JSON', protocolVersion: version, tenant: tenant ?? '' }],
      provider: undefined, capabilities: { streaming, pushNotifications: push === true, extensions: [], extendedAgentCard: extended === true },
      securitySchemes: sec?.schemes ?? {},
      securityRequirements: sec ? [{ schemes: sec.requirement }] : [],
      defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'],
      skills: [{ id: 'echo', name: 'echo', description: 'echoes', tags: ['test'], examples: [], inputModes: [], outputModes: [], securityRequirements: [] }],
      signatures: [],
    };
    const legacyCompat = { enabled: version === '0.3' };
    const served = signed
      ? await sdk.generateAgentCardSignature(signingKey.privateKey, { alg: 'ES256', typ: 'JOSE', kid: 'sdk-agent-key', jku: `${base}/jwks.json` })(card)
      : card;
    const extendedCard = extended ? {
      ...card, name: EXTENDED_NAME,
      skills: [...card.skills, { id: 'members-only', name: 'members only', description: 'for authenticated callers', tags: ['test'], examples: [], inputModes: [], outputModes: [], securityRequirements: [] }],
    } : undefined;
    const requestHandler = new DefaultRequestHandler(served, new InMemoryTaskStore(), executor, undefined, undefined, undefined,
      extendedCard && (() => extendedCard)); // the check in front lets only authenticated callers this far
    app.use(`${prefix}/.well-known/agent-card.json`, agentCardHandler({ agentCardProvider: requestHandler, legacyCompat }));
    if (sec) {
      app.use(prefix, (req, res, next) => {
        if (req.path.startsWith('/.well-known/') || sec.ok(req, tokens)) return next();
        res.status(401).set('WWW-Authenticate', sec.challenge).json({ error: 'missing or wrong credentials' });
      });
      credentials[name] = sec.credentials;
    }
    const transport = binding === 'jsonrpc' ? jsonRpcHandler : restHandler;
    app.use(prefix, transport({ requestHandler, userBuilder: UserBuilder.noAuthentication, legacyCompat }));
    cards[name] = `${base}${prefix}/.well-known/agent-card.json`;
    cardObjects[name] = served;
  }
  return {
    url: base,
    cards,
    /** Each variant's card as the SDK holds it in memory (its AgentCard type: the proto form). */
    cardObjects,
    credentials,
    /** The public key of the signed card, as a JWK Set (also served at /jwks.json). */
    cardKeys: jwks,
    executor,
    /** Makes every OAuth2 token issued so far invalid. */
    revokeTokens() { tokens.clear(); },
    async stop() {
      executor.releaseAll();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

// As a command: announce, then serve until told to stop (or 10 minutes, so nothing lingers).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const agent = await startSdkAgent();
  process.stdout.write(`${JSON.stringify({ url: agent.url, cards: agent.cards, credentials: agent.credentials, cardKeys: agent.cardKeys })}\n`);
  const stop = () => agent.stop().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  process.stdin.on('end', stop).resume();
  setTimeout(stop, 10 * 60_000).unref();
}
