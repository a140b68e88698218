// Interoperability with an A2A server that is not ours: a tiny agent built on the official
// JavaScript SDK (@a2a-js/sdk, its DefaultRequestHandler and Express transports), served on
// 127.0.0.1, driven through a2aport. Over {A2A 1.0, 0.3 (the SDK's compat layer)} × {JSON-RPC,
// HTTP+JSON} × {streaming, polling}, a2aport must complete a Work, take a message-only reply, merge streamed chunks, report a failure,
// answer an input request and cancel a running task at the remote agent.
//
// The agent is js/test/sdkagent.mjs (needs the devDependencies: npm install in js/).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { createA2ABackendAdapter } from '../src/index.js';
import { Recorder, newWork, settled, withTimeout } from './agent.js';
import { EXTENDED_NAME, sdkVariants, startSdkAgent } from './sdkagent.mjs';

const BOUND_MS = 20_000;


// ---------------------------------------------------------------------------------------------

let agent;
before(async () => { agent = await startSdkAgent(); });
after(async () => { await agent?.stop(); });

async function withPort(name, run) {
  const port = createA2ABackendAdapter({ agentCardUrl: agent.cards[name], pollIntervalMs: 10, credentials: agent.credentials[name] });
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

for (const { name, version, binding, streaming, security, extended } of sdkVariants) {
  describe(`@a2a-js/sdk ${name}`, { concurrency: true }, () => {
    it('discovers the card', () => withPort(name, async (port) => {
      const h = await port.start();
      assert.ok(h.ok === true && h.started === true, `start() = ${JSON.stringify(h)}`);
      const d = port.describe();
      assert.equal(d.label, extended ? EXTENDED_NAME : 'a2a-js interop agent');
      assert.equal(d.transport, binding === 'jsonrpc' ? 'JSONRPC' : 'HTTP+JSON');
      assert.equal(d.protocolVersion, version);
      assert.equal(d.capabilities.streaming, streaming);
      assert.equal(d.cardNotes, undefined, 'every part of the card was read');
      assert.deepEqual(d.security?.inUse, security ? Object.keys(agent.credentials[name]) : undefined);
    }));

    if (security) {
      it('without the secret: A2A_AUTH_REQUIRED from the agent\'s 401', async () => {
        const port = createA2ABackendAdapter({ agentCardUrl: agent.cards[name] });
        try {
          await port.start();
          assert.equal(port.describe().security.missing, true);
          const { err } = await submit(port, newWork('alice', 'complete unauthenticated'));
          assert.equal(err?.code, 'A2A_AUTH_REQUIRED', err?.message);
          assert.equal(err.status, 401);
        } finally {
          await port.close();
        }
      });
    }

    it('completes a Work', () => withPort(name, async (port) => {
      const w = newWork('alice', 'complete hello sdk');
      const { out, err, events } = await submit(port, w);
      assert.ifError(err);
      assert.equal(out.content, 'done\n\necho: complete hello sdk');
      assert.deepEqual(out.artifacts.map((a) => [a.id, a.name, a.parts.map((p) => [p.type, p.text])]),
        [['result', 'result', [['text', 'echo: complete hello sdk']]]]);
      assert.ok(events.every((e) => e.workId === w.id && e.ownerId === w.ownerId), 'events carry the Work id and owner');
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
      assert.deepEqual(await port.cancel(w.id, { ownerId: w.ownerId }), { workId: w.id, state: 'cancelled' });
      assert.equal((await done).err?.code, 'WORK_CANCELLED');
      assert.ok(agent.executor.cancels.length > cancelsBefore, 'the cancel did not reach the SDK agent');
    }));
  });
}

// The selected interface's tenant reaches the agent: in the REST path, or the JSON-RPC params.
for (const name of ['v1-jsonrpc-stream-tenant', 'v1-rest-stream-tenant']) {
  it(`@a2a-js/sdk ${name}: the card's tenant reaches the agent`, () => withPort(name, async (port) => {
    const { out, err } = await submit(port, newWork('alice', 'tenant please'));
    assert.ifError(err);
    assert.match(out.content, /tenant: acme/);
  }));
}

// An extended card served by the SDK's extendedAgentCardProvider is read (with the public card's
// reader: the SDK writes shapes a2a-go's own decoding refuses) and used.
for (const name of ['v1-jsonrpc-stream-extended', 'v1-rest-stream-extended', 'v03-jsonrpc-stream-extended']) {
  it(`@a2a-js/sdk ${name}: the extended card is read and used`, () => withPort(name, async (port) => {
    await port.start();
    const d = port.describe();
    assert.deepEqual({ extendedCard: d.extendedCard, name: d.agentName, notes: d.cardNotes ?? [] },
      { extendedCard: true, name: EXTENDED_NAME, notes: [] });
    const { out, err } = await submit(port, newWork('alice', 'complete extended'));
    assert.ifError(err);
    assert.match(out.content, /echo: complete extended/);
  }));
}

// A card the SDK signed, verified before use: with the key given, or from the jku it names.
for (const options of [{ cardKeys: 'given' }, { cardKeysFromJku: true }]) {
  it(`@a2a-js/sdk v1-jsonrpc-stream-signed: verified (${Object.keys(options)[0]}), then a Work`, async () => {
    const port = createA2ABackendAdapter({ agentCardUrl: agent.cards['v1-jsonrpc-stream-signed'], verifyCard: 'required',
      ...(options.cardKeys ? { cardKeys: agent.cardKeys } : options) });
    try {
      const { out, err } = await submit(port, newWork('alice', 'complete signed'));
      assert.ifError(err);
      assert.match(out.content, /echo: complete signed/);
      assert.deepEqual([port.describe().cardSignature.status, port.describe().cardSignature.keyId], ['verified', 'sdk-agent-key']);
    } finally {
      await port.close();
    }
  });
}

// An in-memory card is read as a fetched one: the object the SDK holds (its proto form, with
// {$case, value} oneofs) and the JSON it serves (A2A 1.0's form, scopes as {list: [...]}) both
// work as agentCard, credentials applied by the schemes they declare.
for (const name of sdkVariants.filter((v) => v.security && v.version === '1.0').map((v) => v.name)) {
  for (const form of ['the SDK object', 'the served JSON']) {
    it(`@a2a-js/sdk ${name}: ${form} as agentCard`, async () => {
      const agentCard = form === 'the SDK object' ? agent.cardObjects[name] : await (await fetch(agent.cards[name])).json();
      const port = createA2ABackendAdapter({ agentCard, pollIntervalMs: 10, credentials: agent.credentials[name] });
      try {
        const r = await submit(port, newWork('alice', 'complete from memory'));
        assert.ifError(r.err);
        assert.match(r.out.text, /complete from memory/);
        assert.deepEqual(port.describe().security?.inUse, Object.keys(agent.credentials[name]), JSON.stringify(port.describe().security));
      } finally {
        await withTimeout(port.close(), 10_000, 'close() did not settle');
      }
    });
  }
}
