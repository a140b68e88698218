// Interoperability with an A2A server that is not ours: a tiny agent built on the official
// JavaScript SDK (@a2a-js/sdk, its DefaultRequestHandler and Express transports), served on
// 127.0.0.1, driven through a2aport. Over {A2A 1.0, 0.3 (the SDK's compat layer)} × {JSON-RPC,
// HTTP+JSON} × {streaming, polling}, a2aport must complete a Work, take a message-only reply, merge streamed chunks, report a failure,
// answer an input request and cancel a running task at the remote agent.
//
// Needs the devDependencies @a2a-js/sdk and express (npm install in js/).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { createA2ABackendAdapter } from '../src/index.js';
import { Recorder, newWork, settled, withTimeout } from './agent.js';

let sdk;
try {
  sdk = {
    ...(await import('@a2a-js/sdk')),
    ...(await import('@a2a-js/sdk/server')),
    ...(await import('@a2a-js/sdk/server/express')),
    express: (await import('express')).default,
  };
} catch (err) {
  throw new Error('interop.test.js needs the devDependencies @a2a-js/sdk and express: run npm install in js/', { cause: err });
}
const { AgentEvent, DefaultRequestHandler, InMemoryTaskStore, Role, TaskState, UserBuilder, agentCardHandler, jsonRpcHandler, restHandler } = sdk;

const BOUND_MS = 20_000;

// ---------------------------------------------------------------------------------------------
// The SDK agent. The first word of the first text part picks the scenario, as in tests/agent:
//   complete ...  artifact "result" "echo: <text>", COMPLETED "done"
//   chunks ...    artifact "report" in three appended chunks "a " "b " "c ", COMPLETED "done"
//   message ...   a Message reply, no task: "plain reply"
//   fail ...      FAILED "the sdk agent failed"
//   input ...     INPUT_REQUIRED "What is your name?"; the reply gets artifact "Hello, <reply>!"
//   hold ...      WORKING until cancelled (CANCELED "cancelled")

const textPart = (text) => ({ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' });
const now = () => new Date().toISOString();

function agentMessage(ctx, text) {
  return { messageId: crypto.randomUUID(), contextId: ctx.contextId, taskId: ctx.taskId, role: Role.ROLE_AGENT, parts: [textPart(text)], metadata: undefined, extensions: [], referenceTaskIds: [] };
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
const sdkVariants = [];
for (const version of ['1.0', '0.3']) {
  for (const binding of ['jsonrpc', 'rest']) {
    for (const streaming of [true, false]) {
      sdkVariants.push({ name: `${version === '1.0' ? 'v1' : 'v03'}-${binding}-${streaming ? 'stream' : 'poll'}`, version, binding, streaming });
    }
  }
}
// The same agent behind a Bearer requirement declared on its card, which the SDK serializes in
// proto-JSON form ({"schemes": {"bearer": {}}}): a2aport must read that card and send the token.
for (const version of ['1.0', '0.3']) {
  sdkVariants.push({ name: `${version === '1.0' ? 'v1' : 'v03'}-jsonrpc-stream-bearer`, version, binding: 'jsonrpc', streaming: true, bearer: true });
}
const BEARER_TOKEN = 'interop-secret-token';

/** Serves the SDK agent on 127.0.0.1: one card and endpoint per variant. */
async function startSdkAgent() {
  const app = sdk.express();
  const executor = new ScenarioExecutor();
  const server = await new Promise((resolve, reject) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
  const base = `http://127.0.0.1:${server.address().port}`;
  const cards = {};
  for (const { name, version, binding, streaming, bearer } of sdkVariants) {
    const prefix = `/${name.replaceAll('-', '/')}`;
    const card = {
      name: 'a2a-js interop agent', description: 'scenarios for a2aport interop tests', version: '1.3.0',
      supportedInterfaces: [{ url: base + prefix, protocolBinding: binding === 'jsonrpc' ? 'JSONRPC' : 'HTTP+JSON', protocolVersion: version, tenant: '' }],
      provider: undefined, capabilities: { streaming, pushNotifications: false, extensions: [] },
      securitySchemes: bearer ? { bearer: { scheme: { $case: 'httpAuthSecurityScheme', value: { scheme: 'Bearer', bearerFormat: '', description: '' } } } } : {},
      securityRequirements: bearer ? [{ schemes: { bearer: { list: [] } } }] : [],
      defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'],
      skills: [{ id: 'echo', name: 'echo', description: 'echoes', tags: ['test'], examples: [], inputModes: [], outputModes: [], securityRequirements: [] }],
      signatures: [],
    };
    const legacyCompat = { enabled: version === '0.3' };
    const requestHandler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
    app.use(`${prefix}/.well-known/agent-card.json`, agentCardHandler({ agentCardProvider: requestHandler, legacyCompat }));
    if (bearer) {
      app.use(prefix, (req, res, next) => {
        if (req.path.startsWith('/.well-known/') || req.get('authorization') === `Bearer ${BEARER_TOKEN}`) return next();
        res.status(401).set('WWW-Authenticate', 'Bearer').json({ error: 'missing or wrong bearer token' });
      });
    }
    const transport = binding === 'jsonrpc' ? jsonRpcHandler : restHandler;
    app.use(prefix, transport({ requestHandler, userBuilder: UserBuilder.noAuthentication, legacyCompat }));
    cards[name] = `${base}${prefix}/.well-known/agent-card.json`;
  }
  return {
    cards,
    executor,
    async stop() {
      executor.releaseAll();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

// ---------------------------------------------------------------------------------------------

let agent;
before(async () => { agent = await startSdkAgent(); });
after(async () => { await agent?.stop(); });

async function withPort(name, run) {
  const port = createA2ABackendAdapter({ agentCardUrl: agent.cards[name], pollIntervalMs: 10, token: BEARER_TOKEN });
  try {
    await run(port);
  } finally {
    await withTimeout(port.close(), 10_000, 'close() did not settle');
  }
}

/** Resolves the first event matching, or fails as soon as the submit settles without one. */
async function eventBefore(rec, match, done) {
  const stop = new AbortController();
  const ended = done.then((r) => {
    throw new Error(`the submit ended (${r.err ? `${r.err.code}: ${r.err.message}` : 'completed'}) before the awaited event; got ${JSON.stringify(rec.events.map((e) => [e.type, e.state]))}`);
  });
  try {
    return (await Promise.race([rec.waitFor(match, { ms: BOUND_MS, signal: stop.signal }), ended])).event;
  } finally {
    stop.abort();
  }
}

async function submit(port, w) {
  const rec = new Recorder();
  const r = await settled(port.submit(w, { onEvent: rec.listen }), BOUND_MS);
  return { ...r, events: rec.events };
}

// The SDK's 0.3 compat router answers POST /v1/message:send with 201 Created; a2a-go v2.4.0's 0.3
// REST client accepts only 200 and 204, so the adapter treats 201 as the success it is
// (adapter/httpstatus.go). v03-rest-poll covers it.

for (const { name, version, binding, streaming } of sdkVariants) {
  describe(`@a2a-js/sdk ${name}`, { concurrency: true }, () => {
    it('discovers the card', () => withPort(name, async (port) => {
      const h = await port.start();
      assert.ok(h.ok === true && h.started === true, `start() = ${JSON.stringify(h)}`);
      const d = port.describe();
      assert.equal(d.label, 'a2a-js interop agent');
      assert.equal(d.transport, binding === 'jsonrpc' ? 'JSONRPC' : 'HTTP+JSON');
      assert.equal(d.protocolVersion, version);
      assert.equal(d.capabilities.streaming, streaming);
      assert.equal(d.cardNotes, undefined, 'every part of the card was read');
    }));

    it('completes a Work', () => withPort(name, async (port) => {
      const w = newWork('alice', 'complete hello sdk');
      const { out, err, events } = await submit(port, w);
      assert.ifError(err);
      assert.equal(out.content, 'done\n\necho: complete hello sdk');
      assert.deepEqual(out.artifacts.map((a) => [a.id, a.name, a.parts.map((p) => [p.type, p.text])]),
        [['result', 'result', [['text', 'echo: complete hello sdk']]]]);
      assert.ok(events.every((e) => e.taskId === w.id && e.ownerId === w.ownerId), 'events carry the Work id and owner');
      assert.ok(events.at(-1)?.type === 'backend.activity' && events.at(-1).state === 'completed', `last event ${JSON.stringify(events.at(-1))}`);
    }));

    it('takes a message-only reply', () => withPort(name, async (port) => {
      const { out, err } = await submit(port, newWork('alice', 'message please'));
      assert.ifError(err);
      assert.equal(out.content, 'plain reply');
    }));

    it('merges streamed chunks', () => withPort(name, async (port) => {
      const { out, err } = await submit(port, newWork('alice', 'chunks please'));
      assert.ifError(err);
      assert.deepEqual(out.artifacts.map((a) => [a.id, a.parts.map((p) => p.text).join('')]), [['report', 'a b c ']]);
    }));

    it('reports a failed task', () => withPort(name, async (port) => {
      const { err } = await submit(port, newWork('alice', 'fail please'));
      assert.equal(err?.code, 'A2A_TASK_FAILED', `error = ${err?.message} (code ${err?.code})`);
      assert.match(err.message, /the sdk agent failed/);
    }));

    it('answers an input request', () => withPort(name, async (port) => {
      const w = newWork('alice', 'input please');
      const rec = new Recorder();
      const done = settled(port.submit(w, { onEvent: rec.listen }), BOUND_MS);
      const event = await eventBefore(rec, (e) => e.type === 'backend.input.requested', done);
      assert.equal(event.input.prompt, 'What is your name?');
      assert.equal(port.status(w.id, { ownerId: w.ownerId }).state, 'input_required');
      await port.respondInput(w.id, event.input.inputRequestId, { text: 'Ada' }, { ownerId: w.ownerId });
      const r = await done;
      assert.ifError(r.err);
      assert.match(r.out.content, /Hello, Ada!/);
    }));

    it('cancels a running task at the remote agent', () => withPort(name, async (port) => {
      const w = newWork('alice', 'hold please');
      const rec = new Recorder();
      const done = settled(port.submit(w, { onEvent: rec.listen }), BOUND_MS);
      await eventBefore(rec, (e) => e.state === 'working', done);
      const cancelsBefore = agent.executor.cancels.length;
      assert.deepEqual(await port.cancel(w.id, { ownerId: w.ownerId }), { taskId: w.id, state: 'cancelled' });
      assert.equal((await done).err?.code, 'WORK_CANCELLED');
      assert.ok(agent.executor.cancels.length > cancelsBefore, 'the cancel did not reach the SDK agent');
    }));
  });
}
