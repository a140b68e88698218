// Options of createA2ABackendAdapter: credentials (token, static headers, a headers function)
// reach every request and nothing else, fetchImpl carries every request, and invalid options
// throw a TypeError naming the option (tests/credentials_test.go and the card URL validation of
// tests/discovery_test.go, for the JS package).
//
// The agent records requests but has no HTTP API to read them back, so the final request
// headers are observed through a fetchImpl wrapped around globalThis.fetch.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';

import { createA2ABackendAdapter } from '../src/index.js';
import { newWork, recordingFetch, settled, startAgent, withPort, withTimeout } from './agent.js';

const SECRET_TOKEN = 'tok-5ecret-never-print';
const SECRET_HEADER = 'hdr-5ecret-never-print';
const BOUND_MS = 20_000;

let agent;
before(async () => { agent = await startAgent(); });
after(async () => { await agent?.stop(); });

/** The two variants the Go credential tests use: streaming 1.0 JSON-RPC, polling 0.3 REST. */
const credentialVariants = ['v1-jsonrpc-stream', 'v03-rest-poll'];

async function mustComplete(port, instruction) {
  const r = await settled(port.submit(newWork('alice', instruction)), BOUND_MS);
  assert.ifError(r.err);
  return r.out;
}

for (const variant of credentialVariants) {
  test(`${variant}: token and a headers function reach every request, the function is called per request`, async () => {
    const rec = recordingFetch();
    const seen = [];
    let calls = 0;
    await withPort({
      agentCardUrl: agent.cards[variant], token: SECRET_TOKEN, fetchImpl: rec.fetchImpl,
      headers: (request) => {
        seen.push(request);
        return { 'X-Dynamic': `dynamic-${++calls}` };
      },
    }, (port) => mustComplete(port, 'complete with credentials'));

    const reqs = rec.requests;
    assert.ok(reqs.length >= 2 && reqs[0].a2aMethod === '' && reqs[0].url === agent.cards[variant],
      `requests = ${JSON.stringify(reqs.map((r) => [r.method, r.url, r.a2aMethod]))}, want the card fetch then task requests`);
    assert.equal(calls, reqs.length, 'headers function calls, want one per request');
    const dynamic = new Set();
    for (const [i, r] of reqs.entries()) {
      assert.equal(r.headers.get('authorization'), `Bearer ${SECRET_TOKEN}`, `${r.method} ${r.url}: Authorization`);
      const d = r.headers.get('x-dynamic');
      assert.ok(d && !dynamic.has(d), `${r.method} ${r.url}: X-Dynamic = ${d}, want a fresh value per request`);
      dynamic.add(d);
      // The function is told which request it is for.
      assert.deepEqual({ url: seen[i]?.url, method: seen[i]?.method?.toUpperCase() }, { url: r.url, method: r.method },
        `headers function argument #${i + 1}`);
    }
  });

  test(`${variant}: token and static headers reach every request; an async headers function works too`, async () => {
    const rec = recordingFetch();
    await withPort({
      agentCardUrl: agent.cards[variant], token: SECRET_TOKEN, fetchImpl: rec.fetchImpl,
      headers: { 'X-Static': SECRET_HEADER, 'X-Other': 'other' },
    }, (port) => mustComplete(port, 'complete with static headers'));
    assert.ok(rec.requests.length >= 2, 'card fetch and task requests');
    for (const r of rec.requests) {
      assert.equal(r.headers.get('authorization'), `Bearer ${SECRET_TOKEN}`, `${r.method} ${r.url}: Authorization`);
      assert.equal(r.headers.get('x-static'), SECRET_HEADER, `${r.method} ${r.url}: X-Static`);
      assert.equal(r.headers.get('x-other'), 'other', `${r.method} ${r.url}: X-Other`);
    }

    const asyncRec = recordingFetch();
    await withPort({
      agentCardUrl: agent.cards[variant], fetchImpl: asyncRec.fetchImpl,
      headers: async () => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        return { 'X-Async': SECRET_HEADER };
      },
    }, (port) => mustComplete(port, 'complete with async headers'));
    assert.ok(asyncRec.requests.length >= 2, 'card fetch and task requests');
    for (const r of asyncRec.requests) assert.equal(r.headers.get('x-async'), SECRET_HEADER, `${r.method} ${r.url}: X-Async`);
  });

  test(`${variant}: credentials never appear in describe(), health(), events or errors`, async () => {
    const texts = [];
    await withPort({
      agentCardUrl: agent.cards[variant], token: SECRET_TOKEN, headers: { 'X-Static': SECRET_HEADER },
    }, async (port) => {
      texts.push(JSON.stringify(port.describe()));
      port.subscribe((e) => texts.push(JSON.stringify(e)));
      await mustComplete(port, 'complete with credentials');
      texts.push(JSON.stringify(port.describe()), JSON.stringify(await port.health()), JSON.stringify(port.status()));
      for (const instruction of ['fail now', 'status500 now', 'reject now']) {
        const { err } = await settled(port.submit(newWork('alice', instruction)), BOUND_MS);
        assert.ok(err, `submit(${instruction}) succeeded`);
        texts.push(err.message, String(err.stack), JSON.stringify(err), String(err.cause?.message ?? ''));
      }
    });
    const leaks = texts.filter((t) => t.includes(SECRET_TOKEN) || t.includes(SECRET_HEADER));
    assert.deepEqual(leaks, [], 'credential leaked');
  });
}

test('an Authorization header wins over the token', async () => {
  const rec = recordingFetch();
  await withPort({
    agentCardUrl: agent.cards['v1-jsonrpc-stream'], token: SECRET_TOKEN, fetchImpl: rec.fetchImpl,
    headers: { Authorization: 'Custom scheme-value' },
  }, (port) => mustComplete(port, 'complete with custom authorization'));
  assert.ok(rec.requests.length >= 2);
  for (const r of rec.requests) assert.equal(r.headers.get('authorization'), 'Custom scheme-value', `${r.method} ${r.url}`);

  // The same from a headers function, whatever the header's case.
  const rec2 = recordingFetch();
  await withPort({
    agentCardUrl: agent.cards['v03-rest-poll'], token: SECRET_TOKEN, fetchImpl: rec2.fetchImpl,
    headers: () => ({ authorization: 'Custom from-function' }),
  }, (port) => mustComplete(port, 'complete with custom authorization'));
  for (const r of rec2.requests) assert.equal(r.headers.get('authorization'), 'Custom from-function', `${r.method} ${r.url}`);
});

test('a failing headers function fails the request with A2A_HEADERS_FAILED and its cause, no credential', async () => {
  await withPort({
    agentCardUrl: agent.cards['v1-jsonrpc-stream'], token: SECRET_TOKEN,
    headers: () => { throw new Error('token refresh failed'); },
  }, async (port) => {
    const err = await withTimeout(port.start().then(() => undefined, (e) => e), BOUND_MS, 'start() did not settle');
    assert.ok(err, 'start() succeeded');
    assert.equal(err.code, 'A2A_HEADERS_FAILED', `start() error = ${err.message} (code ${err.code})`);
    assert.match(err.message, /token refresh failed/);
    assert.ok(!err.message.includes(SECRET_TOKEN), 'the message repeats the token');
  });
});

test('fetchImpl carries every request; the global fetch is not used', async () => {
  const original = globalThis.fetch;
  let globalCalls = 0;
  globalThis.fetch = (...args) => {
    globalCalls++;
    return original(...args);
  };
  try {
    const rec = recordingFetch(original);
    await withPort({ agentCardUrl: agent.cards['v03-rest-poll'], fetchImpl: rec.fetchImpl },
      (port) => mustComplete(port, 'slow 100 through fetchImpl')); // slow: polled at least once
    assert.equal(globalCalls, 0, 'requests that went through globalThis.fetch');
    const methods = rec.requests.map((r) => r.a2aMethod);
    assert.equal(methods[0], '', 'the first request is the card fetch');
    assert.ok(methods.includes('SendMessage') && methods.includes('GetTask'), `fetchImpl saw ${JSON.stringify(methods)}, want the card, SendMessage and GetTask`);
  } finally {
    globalThis.fetch = original;
  }
});

test('fetchImpl is called unbound, as a browser\'s fetch requires (it refuses any other this)', async () => {
  const strictFetch = function (input, init) {
    'use strict';
    if (this !== undefined && this !== globalThis) throw new TypeError("Failed to execute 'fetch': Illegal invocation");
    return globalThis.fetch(input, init);
  };
  await withPort({ agentCardUrl: agent.cards['v1-jsonrpc-stream'], fetchImpl: strictFetch },
    (port) => mustComplete(port, 'complete through an unbound fetch'));
});

test('without fetchImpl the global fetch carries the requests, and creating an adapter sends nothing', async () => {
  const original = globalThis.fetch;
  const rec = recordingFetch(original);
  globalThis.fetch = rec.fetchImpl;
  try {
    const port = createA2ABackendAdapter({ agentCardUrl: agent.cards['v1-jsonrpc-stream'] });
    try {
      await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal(rec.requests.length, 0, 'requests before start()');
      await mustComplete(port, 'complete through the global fetch');
    } finally {
      await withTimeout(port.close(), 10_000, 'close() did not settle');
    }
    assert.ok(rec.requests.some((r) => r.a2aMethod === 'SendStreamingMessage'), 'the global fetch saw the message');
  } finally {
    globalThis.fetch = original;
  }
});

// ---------------------------------------------------------------------------------------------
// Invalid options: a TypeError, thrown at once, naming the option.

const card = 'https://agent.test/.well-known/agent-card.json';

function throwsNaming(options, ...names) {
  let err;
  try {
    createA2ABackendAdapter(options);
  } catch (e) {
    err = e;
  }
  assert.ok(err instanceof TypeError, `createA2ABackendAdapter(${show(options)}) = ${err ? `${err.name}: ${err.message}` : 'no error'}, want a TypeError`);
  for (const name of names) {
    assert.ok(err.message.includes(name), `createA2ABackendAdapter(${show(options)}) error ${JSON.stringify(err.message)} does not mention ${JSON.stringify(name)}`);
  }
  return err;
}

function show(options) {
  try {
    return JSON.stringify(options, (_, v) => (typeof v === 'function' ? `<function>` : v));
  } catch {
    return String(options);
  }
}

test('invalid options throw a TypeError naming the option', () => {
  assert.throws(() => createA2ABackendAdapter(), TypeError);
  assert.throws(() => createA2ABackendAdapter(null), TypeError);
  assert.throws(() => createA2ABackendAdapter('https://agent.test/card.json'), TypeError);
  throwsNaming({}, 'agentCardUrl', 'agentCard');
  throwsNaming({ agentCardUrl: card, agentCard: { name: 'x' } }, 'agentCardUrl', 'agentCard');
  throwsNaming({ agentCardUrl: 42 }, 'agentCardUrl');
  throwsNaming({ agentCard: 'not a card' }, 'agentCard');
  // Numbers: whole, 0 for the default, at least the minimum, negative only where that is off.
  for (const pollIntervalMs of [9, 1, -1, 10.5, Number.NaN, '100']) throwsNaming({ agentCardUrl: card, pollIntervalMs }, 'pollIntervalMs');
  for (const timeoutMs of [-1, 0.5, Number.NaN, '1000']) throwsNaming({ agentCardUrl: card, timeoutMs }, 'timeoutMs');
  for (const recoveryAttempts of [1.5, '4', Number.POSITIVE_INFINITY]) throwsNaming({ agentCardUrl: card, recoveryAttempts }, 'recoveryAttempts');
  for (const recoveryBackoffMs of [-5, Number.NaN]) throwsNaming({ agentCardUrl: card, recoveryBackoffMs }, 'recoveryBackoffMs');
  for (const streamIdleTimeoutMs of [Number.NaN, '1000', 2.5]) throwsNaming({ agentCardUrl: card, streamIdleTimeoutMs }, 'streamIdleTimeoutMs');
  for (const streamProbeIntervalMs of [Number.NaN, '1000']) throwsNaming({ agentCardUrl: card, streamProbeIntervalMs }, 'streamProbeIntervalMs');
  for (const firstEventTimeoutMs of [-1, Number.NaN, '1000']) throwsNaming({ agentCardUrl: card, firstEventTimeoutMs }, 'firstEventTimeoutMs');
  for (const name of ['maxCardBytes', 'maxResponseBytes', 'maxArtifactBytes', 'maxWorkBytes']) {
    for (const v of [-1, 1.5, '100']) throwsNaming({ agentCardUrl: card, [name]: v }, name);
  }
  for (const fetchImpl of ['fetch', 42, {}]) throwsNaming({ agentCardUrl: card, fetchImpl }, 'fetchImpl');
  for (const headers of ['X-A: b', 42, ['X-A', 'b'], { 'X-A': 1 }, null, true]) throwsNaming({ agentCardUrl: card, headers }, 'headers');
  throwsNaming({ agentCardUrl: card, token: 42 }, 'token');
  for (const protocolVersion of ['2.0', '1', 1.0]) throwsNaming({ agentCardUrl: card, protocolVersion }, 'protocolVersion');
  for (const inputTimeoutMs of [-1, Number.NaN, '1000']) throwsNaming({ agentCardUrl: card, inputTimeoutMs }, 'inputTimeoutMs');
  for (const protocolBinding of ['grpc', 'jsonrpc', 'SOAP']) throwsNaming({ agentCardUrl: card, protocolBinding }, 'protocolBinding');
  // gRPC is an A2A binding, and one no browser can speak: refused here, not at start().
  throwsNaming({ agentCardUrl: card, protocolBinding: 'GRPC' }, 'protocolBinding', 'GRPC', 'JSONRPC');
  throwsNaming({ agentCardUrl: card, protocolVersion: '0.3', legacyCompat: false }, 'protocolVersion', 'legacyCompat');
  for (const extensions of ['urn:x', [''], [42], {}]) throwsNaming({ agentCardUrl: card, extensions }, 'extensions');
});

test('an unknown option is refused by name, with the one most likely meant', () => {
  for (const { options, name, near } of [
    { options: { agentCardURL: card }, name: 'agentCardURL', near: 'agentCardUrl' }, // Go's spelling: not "agentCardUrl is required"
    { options: { agentCardUrl: card, timeout: 100 }, name: 'timeout', near: 'timeoutMs' }, // Go's name, without the unit
    { options: { agentCardUrl: card, Timeout: 100 }, name: 'Timeout', near: 'timeoutMs' },
    { options: { agentCardUrl: card, pollInterval: 100 }, name: 'pollInterval', near: 'pollIntervalMs' },
    { options: { agentCardUrl: card, reuseContexts: true }, name: 'reuseContexts', near: 'reuseContext' },
    { options: { agentCardUrl: card, fetchimpl: fetch }, name: 'fetchimpl', near: 'fetchImpl' },
    { options: { agentCardUrl: card, maxArtifactByte: 1 }, name: 'maxArtifactByte', near: 'maxArtifactBytes' },
    { options: { agentCardUrl: card, foo: 1 }, name: 'foo', near: undefined },
  ]) {
    const err = throwsNaming(options, `unknown option ${name}`);
    if (near) assert.match(err.message, new RegExp(`did you mean ${near}\\?$`), `createA2ABackendAdapter(${show(options)})`);
    else assert.ok(!err.message.includes('did you mean'), `${err.message}: suggests a name for ${name}`);
  }
});

test('the options the JS package takes are the ones index.d.ts declares and docs/options.md lists', async () => {
  const { readFile } = await import('node:fs/promises');
  const { optionNames } = await import('../src/options.js');
  const dts = await readFile(new URL('../index.d.ts', import.meta.url), 'utf8');
  const body = dts.slice(dts.indexOf('export interface AdapterOptions {'));
  const declared = [...body.slice(0, body.indexOf('\n}\n')).matchAll(/^  ([a-zA-Z]+)\??:/gm)].map((m) => m[1]);
  assert.deepEqual(declared, [...optionNames], 'AdapterOptions in index.d.ts, in order');
  const docs = await readFile(new URL('../../docs/options.md', import.meta.url), 'utf8');
  const js = docs.slice(docs.indexOf('## JS options'));
  const listed = [...js.matchAll(/^\| `([a-zA-Z]+)`/gm)].map((m) => m[1]);
  assert.deepEqual(listed, [...optionNames], 'the JS options table of docs/options.md, in order');
});

test('valid options are accepted', () => {
  for (const options of [
    { agentCardUrl: card },
    { agentCardUrl: 'http://127.0.0.1:1/.well-known/agent-card.json', pollIntervalMs: 10, timeoutMs: 0, inputTimeoutMs: 0 },
    // 0 is the default of every number, as in Go; a negative one turns off what can be turned off.
    { agentCardUrl: card, pollIntervalMs: 0, requestTimeoutMs: 0, recoveryBackoffMs: 0, maxCardBytes: 0, maxWorkBytes: 0 },
    { agentCardUrl: card, recoveryAttempts: -1, streamIdleTimeoutMs: -1, streamProbeIntervalMs: -1 },
    { agentCardUrl: 'https://agent.test/' }, // the agent's base URL: its card is at the well-known path
    { agentCardUrl: card, token: 't', headers: { 'X-A': 'b' }, fetchImpl: globalThis.fetch },
    { agentCardUrl: card, headers: () => ({}) },
    { agentCardUrl: card, protocolVersion: '1.0', protocolBinding: 'HTTP+JSON' },
    { agentCardUrl: card, protocolVersion: '0.3', protocolBinding: 'JSONRPC' },
    { agentCard: { name: 'in memory', supportedInterfaces: [] } },
  ]) {
    assert.doesNotThrow(() => createA2ABackendAdapter(options), `createA2ABackendAdapter(${show(options)})`);
  }
});

test('the card URL must be an absolute http(s) URL without userinfo (as in Go)', () => {
  for (const { url, want } of [
    { url: 'ftp://agent.test/card.json', want: 'http or https' },
    { url: '/.well-known/agent-card.json', want: 'http or https' },
    { url: 'agent.test/.well-known/agent-card.json', want: 'http or https' },
    { url: 'https://user:pass@agent.test/card.json', want: 'userinfo' },
    { url: 'https://user@agent.test/card.json', want: 'userinfo' },
    { url: 'http://', want: 'no host' },
  ]) {
    const err = throwsNaming({ agentCardUrl: url }, 'agentCardUrl', want);
    assert.ok(!err.message.includes('pass'), `error ${JSON.stringify(err.message)} repeats the userinfo`);
  }
});
