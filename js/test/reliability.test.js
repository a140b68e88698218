// Reliability beyond the scenario matrix, as natively (tests/recovery_test.go, tests/limits_test.go):
// recovery turned off, a refused send, Retry-After, the card size limit, the origin policy, and
// nothing left behind by faults.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';

import { createA2ABackendAdapter } from '../src/index.js';
import { newWork, settled, startAgent, variants } from './agent.js';

let agent;
before(async () => { agent = await startAgent(); });
after(async () => { await agent?.stop(); });

// With recovery off, a dropped stream fails with the network's code (with it on, the matrix shows
// it heal).
for (const variant of variants.filter((v) => v.streaming)) {
  it(`${variant.name}: recoveryAttempts -1 (off) lets a dropped stream fail with A2A_NETWORK_ERROR`, async () => {
    const port = createA2ABackendAdapter({ agentCardUrl: agent.cards[variant.name], recoveryAttempts: -1 });
    try {
      const { err } = await settled(port.submit(newWork('alice', 'breakstream please')), 20_000);
      assert.equal(err?.code, 'A2A_NETWORK_ERROR', `error = ${err?.message}`);
    } finally {
      await port.close();
    }
  });
}

// 0 is the default, as in Go, not "off": with recoveryAttempts 0 the dropped stream heals.
it('recoveryAttempts 0 is the default: a dropped stream heals', async () => {
  const port = createA2ABackendAdapter({ agentCardUrl: agent.cards['v1-jsonrpc-stream'], recoveryAttempts: 0 });
  try {
    const { out, err } = await settled(port.submit(newWork('alice', 'breakstream healed')), 20_000);
    assert.ifError(err);
    assert.match(out.content, /part-1 part-2 .*part-12$/, 'the whole report, after the resubscription');
  } finally {
    await port.close();
  }
});

// A send whose connection was never made provably did not reach the agent: A2A_NETWORK_ERROR,
// retryable (unlike A2A_OUTCOME_UNKNOWN), as natively (tests/recovery_test.go).
for (const streaming of [true, false]) {
  it(`a refused send is A2A_NETWORK_ERROR and retryable (streaming: ${streaming})`, async () => {
    const server = createServer();
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${server.address().port}/a2a`;
    await new Promise((resolve) => server.close(resolve));
    const agentCard = {
      name: 'gone', description: '', version: '1', capabilities: { streaming },
      supportedInterfaces: [{ url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
      defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'], skills: [],
    };
    const port = createA2ABackendAdapter({ agentCard, pollIntervalMs: 10 });
    try {
      const { err } = await settled(port.submit(newWork('alice', 'complete never')), 20_000);
      assert.equal(err?.code, 'A2A_NETWORK_ERROR', `error = ${err?.code}: ${err?.message}`);
      assert.equal(err.retryable, true, 'not retryable, but nothing was sent');
    } finally {
      await port.close();
    }
  });
}

// A GetTask answered 503 with Retry-After does not fail a polling Work: the adapter waits what the
// agent asked, then polls again (tests/recovery_test.go checks the same on a fake clock).
it('a polling Work waits out a 503 Retry-After and completes', async () => {
  const polls = [];
  const fetchImpl = async (input, init = {}) => {
    if (typeof init.body === 'string' ? init.body.includes('"method":"GetTask"') : bodyHas(init.body, '"method":"GetTask"')) {
      polls.push(performance.now());
      if (polls.length === 1) return new Response('busy', { status: 503, headers: { 'Retry-After': '1', 'Content-Type': 'text/plain' } });
    }
    return fetch(input, init);
  };
  const port = createA2ABackendAdapter({ agentCardUrl: agent.cards['v1-jsonrpc-poll'], pollIntervalMs: 10, fetchImpl });
  try {
    const { err } = await settled(port.submit(newWork('alice', 'slow 100')), 20_000);
    assert.ifError(err);
    assert.ok(polls.length >= 2, `${polls.length} polls`);
    assert.ok(polls[1] - polls[0] >= 900, `polled again ${Math.round(polls[1] - polls[0])} ms after a Retry-After of 1 s`);
  } finally {
    await port.close();
  }
});

function bodyHas(body, text) {
  if (!body) return false;
  const bytes = body instanceof ArrayBuffer ? new Uint8Array(body) : new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  return new TextDecoder().decode(bytes).includes(text);
}

// A card past maxCardBytes fails start() with A2A_RESPONSE_TOO_LARGE, as natively (tests/limits_test.go).
it('a card over maxCardBytes is A2A_RESPONSE_TOO_LARGE', async () => {
  const port = createA2ABackendAdapter({ agentCardUrl: agent.cards['v1-jsonrpc-stream'], maxCardBytes: 100 });
  try {
    await assert.rejects(port.start(), (err) => err.code === 'A2A_RESPONSE_TOO_LARGE');
  } finally {
    await port.close();
  }
});

// An interface on another origin than the card (the test agent named through localhost) is
// refused by default and works once allowedOrigins allows it, as natively (tests/origins_test.go).
it('the origin policy refuses another origin unless allowed', async () => {
  const card = agent.special['other-origin'];
  const other = new URL(card).origin.replace('127.0.0.1', 'localhost');
  const refused = createA2ABackendAdapter({ agentCardUrl: card });
  try {
    await assert.rejects(refused.start(), (err) => err.code === 'A2A_NO_COMPATIBLE_TRANSPORT' && /origin policy/.test(err.message));
  } finally {
    await refused.close();
  }
  const allowed = createA2ABackendAdapter({ agentCardUrl: card, allowedOrigins: [other] });
  try {
    const { out, err } = await settled(allowed.submit(newWork('alice', 'complete elsewhere')), 20_000);
    assert.ifError(err);
    assert.match(out.content, /echo: complete elsewhere/);
  } finally {
    await allowed.close();
  }
});

// One Work of every fault on one adapter: afterwards no fetch or timer of the module is held, and
// the next Work succeeds (as natively, tests/faultleaks_test.go).
for (const variant of ['v1-jsonrpc-stream', 'v03-rest-poll']) {
  it(`${variant}: faults leave nothing behind`, async () => {
    const port = createA2ABackendAdapter({ agentCardUrl: agent.cards[variant], pollIntervalMs: 10,
      streamIdleTimeoutMs: 200, firstEventTimeoutMs: 300, maxResponseBytes: 64 << 10 });
    try {
      for (const instruction of ['breakstream please', 'stallstream please', 'stallfirst please', 'dropsend please',
        'rpcerror please', 'nostream please', 'status401 please', 'status429 please', 'badjson please', 'wrongtype please',
        'big 100000', 'cutstream please', 'emptystream please']) {
        await settled(port.submit(newWork('alice', instruction)), 20_000); // each ends in its own way: the matrix checks how
      }
      const { out, err } = await settled(port.submit(newWork('alice', 'complete last')), 20_000);
      assert.ifError(err);
      assert.match(out.content, /echo: complete last/);
      const { fetches, timers, runtimeSleeps } = port[Symbol.for('a2aport.stats')];
      assert.deepEqual({ fetches, timers, runtimeSleeps }, { fetches: 0, timers: 0, runtimeSleeps: 0 });
    } finally {
      await port.close();
    }
  });
}

// Arguments of the wrong JSON type are refused before they reach the module (a frame it cannot
// read would be lost whole): every call settles with a typed answer, and the adapter goes on.
it('arguments of the wrong type are refused, and nothing hangs', async () => {
  const port = createA2ABackendAdapter({ agentCardUrl: agent.cards['v1-jsonrpc-stream'] });
  try {
    await port.start();
    for (const work of [{ id: 5, ownerId: 'a', instruction: 'x' }, { id: 'x', ownerId: {}, instruction: 'x' },
      { id: 'y', ownerId: 'a', instruction: 7 }, null, 'work', { id: 'z', ownerId: 'a', instruction: 'x', inputParts: 'nope' },
      { id: 'z', ownerId: 'a', instruction: 'x', inputParts: [{ type: 'file', url: 42 }] }]) {
      await assert.rejects(settled(port.submit(work), 5_000).then((r) => { if (r.err) throw r.err; return r; }),
        (e) => e.code === 'INVALID_WORK', JSON.stringify(work));
    }
    assert.deepEqual(port.status(7, { ownerId: 'a' }), { state: 'not_found' });
    assert.deepEqual(await port.cancel({}, { ownerId: 'a' }), { state: 'not_found' });
    await assert.rejects(port.respondInput(1, 2, { text: 'x' }, { ownerId: 'a' }), (e) => e.code === 'WORK_NOT_FOUND');
    await assert.rejects(port.respondInput('w', 'r', { text: 5 }, { ownerId: 'a' }), (e) => e.code === 'INVALID_WORK');
    await assert.rejects(port.respondAuthorization(1, 2, {}, { ownerId: 'a' }), (e) => e.code === 'A2A_AUTHORIZATION_UNSUPPORTED');
    const { out, err } = await settled(port.submit(newWork('alice', 'complete after bad arguments')), 20_000);
    assert.ifError(err);
    assert.match(out.content, /echo: complete after bad arguments/);
    assert.equal(port[Symbol.for('a2aport.stats')].runtimeSleeps, 0);
  } finally {
    await port.close();
  }
});

// A card request that fails in a way that may pass (503, then a dropped connection) is made again,
// with backoff, as natively (tests/discovery_test.go).
it('a card request that may pass is retried', async () => {
  const card = await (await fetch(agent.cards['v1-jsonrpc-stream'])).text();
  let hits = 0;
  const flaky = createHttpServer((req, res) => {
    hits++;
    if (hits === 1) res.writeHead(503, { 'Content-Type': 'text/plain' }).end('busy');
    else if (hits === 2) req.socket.destroy();
    else res.writeHead(200, { 'Content-Type': 'application/json' }).end(card);
  });
  await new Promise((resolve) => flaky.listen(0, '127.0.0.1', resolve));
  const port = createA2ABackendAdapter({
    agentCardUrl: `http://127.0.0.1:${flaky.address().port}/card.json`, allowedOrigins: [new URL(agent.cards['v1-jsonrpc-stream']).origin],
  });
  try {
    await port.start();
    assert.equal(hits, 3);
  } finally {
    await port.close();
    await new Promise((resolve) => flaky.close(resolve));
  }
});
