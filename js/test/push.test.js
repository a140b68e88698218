// Push notifications, the client side in Node (pushWebhookUrl): the test serves the webhook with
// backend.handlePush (node:http) or backend.receivePush (a fetch Request), as an application
// would, and two agents push to it: a2a-go's server (the Go test agent's push variants) and
// @a2a-js/sdk's DefaultRequestHandler with its own push sender. Every Work waits
// pushPollIntervalMs = one minute between reads of its task unless a push wakes it, so a Work that
// ends within the bound ended by pushes.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';

import { createA2ABackendAdapter } from '../src/index.js';
import { Recorder, newWork, recordingFetch, settled, startAgent, withTimeout } from './agent.js';
import { sdkVariants, startSdkAgent } from './sdkagent.mjs';

const BOUND_MS = 20_000;

let goAgent;
let sdkAgent;
before(async () => { [goAgent, sdkAgent] = await Promise.all([startAgent(), startSdkAgent()]); });
after(async () => { goAgent?.stop(); await sdkAgent?.stop(); });

/**
 * A webhook on 127.0.0.1 that hands every request to the backend it is given: with handlePush, or
 * with receivePush through a fetch Request (style 'fetch'). Records each push's status.
 */
async function startWebhook(style) {
  const hook = { backend: undefined, statuses: [], tokens: [] };
  const server = createServer(async (req, res) => {
    hook.tokens.push(req.headers['x-a2a-notification-token'] ?? req.headers['a2a-notification-token']);
    if (style === 'fetch') {
      const chunks = [];
      for await (const c of req) chunks.push(c);
      const request = new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers: req.headers, body: req.method === 'POST' ? Buffer.concat(chunks) : undefined });
      const answer = await hook.backend.receivePush(request);
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      res.end(await answer.text());
    } else {
      await hook.backend.handlePush(req, res);
    }
    hook.statuses.push(res.statusCode);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  hook.url = `http://127.0.0.1:${server.address().port}/a2a-push`;
  hook.close = () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); });
  return hook;
}

async function withPushPort(cardUrl, hook, options, run) {
  const { fetchImpl, requests } = recordingFetch();
  const backend = createA2ABackendAdapter({ agentCardUrl: cardUrl, pushWebhookUrl: hook.url, pushPollIntervalMs: 60_000, fetchImpl, ...options });
  hook.backend = backend;
  try {
    await run(backend, requests);
  } finally {
    await withTimeout(backend.close(), 10_000, 'close() did not settle');
  }
}

const count = (requests, method) => requests.filter((r) => r.a2aMethod === method).length;

const agents = () => [
  ...['v1-jsonrpc-push', 'v1-rest-push', 'v03-jsonrpc-push', 'v03-rest-push'].map((name) => ({ who: 'a2a-go', name, card: goAgent.cards[name], chunks: 'chunks 3' })),
  ...sdkVariants.filter((v) => v.push).map(({ name }) => ({ who: '@a2a-js/sdk', name, card: sdkAgent.cards[name], chunks: 'chunks' })),
];

describe('a Work that waits for pushes', { concurrency: true }, () => {
  for (const style of ['node', 'fetch']) {
    for (const index of [0, 1, 2, 3, 4, 5, 6, 7]) {
      it(`ends by its pushes with a stream's outcome (${style}, agent ${index})`, async () => {
        const { who, name, card, chunks } = agents()[index];
        const hook = await startWebhook(style);
        try {
          await withPushPort(card, hook, {}, async (backend, requests) => {
            const pushed = await settled(backend.submit(newWork('alice', chunks)), BOUND_MS);
            assert.ok(pushed.out, `${who} ${name}: ${pushed.err?.code} ${pushed.err?.message}`);
            const streamed = createA2ABackendAdapter({ agentCardUrl: card });
            try {
              const want = await streamed.submit(newWork('alice', chunks));
              assert.deepEqual(pushed.out, want, `${who} ${name}: the pushed outcome is the streamed one`);
            } finally {
              await streamed.close();
            }
            assert.equal(count(requests, 'SendStreamingMessage'), 0, `${who} ${name}: no stream opened`);
            assert.equal(count(requests, 'SendMessage'), 1, `${who} ${name}: the message went once`);
            const taken = hook.statuses.filter((s) => s === 200).length;
            assert.ok(taken > 0, `${who} ${name}: no push taken (statuses ${hook.statuses})`);
            assert.ok(hook.statuses.every((s) => s === 200 || s === 401), `${who} ${name}: pushes answered ${hook.statuses}`);
            const gets = count(requests, 'GetTask');
            assert.ok(gets >= 1 && gets <= hook.statuses.length, `${who} ${name}: ${gets} GetTask for ${hook.statuses.length} pushes`);
          });
        } finally {
          await hook.close();
        }
      });
    }
  }

  it('asks and answers an input request over pushes (both agents)', async () => {
    for (const { who, name, card } of [agents()[0], agents()[4]]) {
      const hook = await startWebhook('node');
      try {
        await withPushPort(card, hook, {}, async (backend) => {
          const rec = new Recorder();
          const w = newWork('bob', 'input needed');
          const done = settled(backend.submit(w, { onEvent: rec.listen }), BOUND_MS);
          const { event } = await rec.waitFor((e) => e.type === 'backend.input.requested');
          assert.equal(backend.status(w.id, { ownerId: 'bob' }).state, 'input_required', `${who} ${name}`);
          await backend.respondInput(w.id, event.input.inputRequestId, { text: 'Ada' }, { ownerId: 'bob' });
          const r = await done;
          assert.ok(r.out && /Ada/.test(r.out.text + r.out.content), `${who} ${name}: ${JSON.stringify(r.out ?? r.err?.message)}`);
        });
      } finally {
        await hook.close();
      }
    }
  });

  it('refuses what is no push of its Works and changes nothing', async () => {
    const hook = await startWebhook('node');
    try {
      await withPushPort(goAgent.cards['v1-jsonrpc-push'], hook, {}, async (backend, requests) => {
        const rec = new Recorder();
        const w = newWork('alice', 'hold');
        const done = settled(backend.submit(w, { onEvent: rec.listen }), BOUND_MS);
        await rec.waitFor((e) => e.type === 'backend.activity' && e.text === 'holding');
        await new Promise((resolve) => setTimeout(resolve, 300)); // the agent's own pushes are in
        const token = hook.tokens.find(Boolean);
        const gets = count(requests, 'GetTask');
        const post = async (headers, body, method = 'POST') => (await fetch(hook.url, { method, headers, body })).status;
        const update = JSON.stringify({ statusUpdate: { taskId: 'not-its-task', contextId: 'c', status: { state: 'TASK_STATE_WORKING' } } });
        assert.equal(await post({}, update), 401, 'no token');
        assert.equal(await post({ 'x-a2a-notification-token': `${token}x` }, update), 401, 'another token');
        assert.equal(await post({ 'x-a2a-notification-token': token }, update), 400, 'another task');
        assert.equal(await post({ 'x-a2a-notification-token': token }, '<push/>'), 400, 'not JSON');
        assert.equal(await post({ 'x-a2a-notification-token': token }, undefined, 'GET'), 405, 'not a POST');
        const big = new Uint8Array(16 * 1024 * 1024 + 1).fill(32);
        assert.equal(await post({ 'x-a2a-notification-token': token }, big), 413, 'too large');
        await new Promise((resolve) => setTimeout(resolve, 200));
        assert.equal(count(requests, 'GetTask'), gets, 'refused pushes made the Work read its task');
        assert.equal(backend.status(w.id, { ownerId: 'alice' }).state, 'working');
        await backend.cancel(w.id, { ownerId: 'alice' });
        assert.equal((await done).err?.code, 'WORK_CANCELLED');
      });
    } finally {
      await hook.close();
    }
  });

  it('reads the task every pushPollIntervalMs when no push comes', async () => {
    const hook = await startWebhook('node');
    await hook.close(); // nothing listens where the agent pushes
    await withPushPort(goAgent.cards['v1-rest-push'], hook, { pushPollIntervalMs: 50 }, async (backend, requests) => {
      const r = await settled(backend.submit(newWork('alice', 'slow 1000')), BOUND_MS);
      assert.ok(r.out && /slow done/.test(r.out.content), JSON.stringify(r.err?.message));
      assert.ok(count(requests, 'GetTask') >= 2, JSON.stringify(requests.map((q) => [q.a2aMethod, q.method, q.url])));
    });
  });
});

describe('pushWebhookUrl', () => {
  it('is refused where no server can receive pushes, and when malformed', () => {
    const card = 'https://agent.example/';
    assert.throws(() => createA2ABackendAdapter({ agentCardUrl: card, pushWebhookUrl: 'https://u:p@me.example/push' }), /userinfo/);
    assert.throws(() => createA2ABackendAdapter({ agentCardUrl: card, pushWebhookUrl: '/push' }), /absolute http/);
    assert.throws(() => createA2ABackendAdapter({ agentCardUrl: card, pushWebhookUrl: 42 }), /must be a string/);
    globalThis.document = {}; // a page, as a bundler's test environment makes one
    try {
      assert.throws(() => createA2ABackendAdapter({ agentCardUrl: card, pushWebhookUrl: 'https://me.example/push' }), /page has none/);
    } finally {
      delete globalThis.document;
    }
  });

  it('answers 401 before any Work, and after close', async () => {
    const backend = createA2ABackendAdapter({ agentCardUrl: 'http://127.0.0.1:9/', pushWebhookUrl: 'https://me.example/push' });
    const push = () => backend.receivePush(new Request('https://me.example/push', { method: 'POST', headers: { 'x-a2a-notification-token': 't' }, body: '{}' }));
    assert.equal((await push()).status, 401);
    await backend.close();
    assert.equal((await push()).status, 401);
  });
});
