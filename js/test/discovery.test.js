// Discovery, as tests/discovery_test.go checks it for the Go ports: the first compatible
// interface of a card is chosen, 0.3 interfaces need legacyCompat, a card without a usable
// interface is A2A_NO_COMPATIBLE_TRANSPORT, a missing card keeps its HTTP status and is retried,
// and an in-memory card replaces discovery.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';

import { createA2ABackendAdapter } from '../src/index.js';
import { newWork, settled, startAgent, withTimeout } from './agent.js';

const BOUND_MS = 20_000;

let agent;
before(async () => { agent = await startAgent(); });
after(async () => { await agent?.stop(); });

async function withPort(options, run) {
  const port = createA2ABackendAdapter(options);
  try {
    await run(port);
  } finally {
    await withTimeout(port.close(), 10_000, 'close() did not settle');
  }
}

const startResult = (port) => settled(port.start(), BOUND_MS, 'start() did not settle');

// The card corpus of internal/a2aclient/testdata/cards (written by @a2a-js/sdk's own serializer and card
// handler), as tests/cardcorpus_test.go reads it: its JSON-RPC interface points at the test agent.
describe('card corpus', { concurrency: true }, () => {
  const corpus = [['a2a-js-1.3.0-tojson.json', '1.0'], ['a2a-js-1.3.0-served.json', '1.0'], ['a2a-js-1.3.0-served-0.3.json', '0.3'],
    ['a2a-js-0.3.14-served.json', '0.3'], ['a2a-go-0.3.15.json', '0.3'], ['a2a-go-v2.4.0.json', '1.0']];
  let server;
  let base;
  before(async () => {
    const cards = new Map();
    for (const [file, version] of corpus) {
      const body = await readFile(new URL(`../../internal/a2aclient/testdata/cards/${file}`, import.meta.url), 'utf8');
      const endpoint = agent.cards[`${version === '1.0' ? 'v1' : 'v03'}-jsonrpc-stream`].replace('/.well-known/agent-card.json', '');
      cards.set(`/${file}`, body.replaceAll('http://127.0.0.1:1/a2a/jsonrpc', endpoint));
    }
    server = createServer((req, res) => {
      const body = cards.get(req.url);
      res.writeHead(body ? 200 : 404, { 'Content-Type': 'application/json' }).end(body ?? '{}');
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${server.address().port}`;
  });
  after(() => new Promise((resolve) => server.close(resolve)));

  for (const [file, version] of corpus) {
    // The corpus is served from another origin than the test agent behind its interface.
    it(file, () => withPort({ agentCardUrl: `${base}/${file}`, allowedOrigins: [new URL(agent.cards['v1-jsonrpc-stream']).origin] }, async (port) => {
      const { err } = await startResult(port);
      assert.ifError(err);
      const d = port.describe();
      assert.deepEqual({ transport: d.transport, protocolVersion: d.protocolVersion, agentName: d.agentName, cardNotes: d.cardNotes },
        { transport: 'JSONRPC', protocolVersion: version, agentName: 'full card', cardNotes: undefined });
      const { out, err: submitErr } = await settled(port.submit(newWork('alice', 'complete corpus')), BOUND_MS);
      assert.ifError(submitErr);
      assert.match(out.content, /echo: complete corpus/);
    }));
  }
});

describe('interface selection', { concurrency: true }, () => {
  for (const tc of [
    { name: 'mixed card picks first compatible', card: 'mixed', transport: 'JSONRPC', version: '1.0' },
    { name: '0.3 first with legacy', card: 'v03-first', transport: 'JSONRPC', version: '0.3' },
    { name: '0.3 first without legacy', card: 'v03-first', options: { legacyCompat: false }, transport: 'JSONRPC', version: '1.0' },
    { name: 'grpc only', card: 'grpc-only', wantCode: 'A2A_NO_COMPATIBLE_TRANSPORT', wantText: 'GRPC' },
    { name: 'binding pinned', card: 'mixed', options: { protocolBinding: 'HTTP+JSON' }, transport: 'HTTP+JSON', version: '1.0' },
    { name: '1.0 pinned past a 0.3 first', card: 'v03-first', options: { protocolVersion: '1.0' }, transport: 'JSONRPC', version: '1.0' },
    { name: '0.3 pinned', card: 'v03-first', options: { protocolVersion: '0.3' }, transport: 'JSONRPC', version: '0.3' },
    { name: 'a pin the card cannot satisfy', card: 'mixed', options: { protocolVersion: '0.3' }, wantCode: 'A2A_NO_COMPATIBLE_TRANSPORT',
      wantText: 'offers \\[GRPC 1.0, JSONRPC 1.0, HTTP\\+JSON 1.0\\], this client speaks JSONRPC or HTTP\\+JSON, A2A 0.3 \\(pinned\\)' },
  ]) {
    it(tc.name, () => withPort({ agentCardUrl: agent.special[tc.card], ...tc.options }, async (port) => {
      const before = port.describe();
      assert.ok(before.discovered === false && before.protocol === 'a2a' && before.label !== '',
        `describe() before start = ${JSON.stringify(before)}, want undiscovered a2a with a label`);
      const { out, err } = await startResult(port);
      if (tc.wantCode) {
        assert.equal(err?.code, tc.wantCode, `start() = ${err ? `${err.message} (code ${err.code})` : JSON.stringify(out)}`);
        assert.match(err.message, new RegExp(tc.wantText));
        return;
      }
      assert.ifError(err);
      const d = port.describe();
      assert.deepEqual({ discovered: d.discovered, transport: d.transport, protocolVersion: d.protocolVersion, label: d.label },
        { discovered: true, transport: tc.transport, protocolVersion: tc.version, label: 'a2aport test agent' });
    }));
  }
});

it('a missing card keeps its HTTP status, is not retryable, and the next start() tries again', () =>
  withPort({ agentCardUrl: `${agent.url}/no/such/card.json` }, async (port) => {
    const { err } = await startResult(port);
    assert.ok(err, 'start() succeeded on a missing card');
    assert.deepEqual({ status: err.status, retryable: err.retryable }, { status: 404, retryable: false }, `start() error ${err.message} (code ${err.code})`);
    const again = await startResult(port);
    assert.ok(again.err, 'a second start() succeeded on a missing card');
  }));

it('an in-memory card replaces discovery', () => {
  const card = {
    name: 'in memory', version: '9', capabilities: { streaming: true },
    supportedInterfaces: [{ url: agent.cards['v1-jsonrpc-stream'].replace('/.well-known/agent-card.json', ''), protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  };
  return withPort({ agentCard: card }, async (port) => {
    const d = port.describe();
    assert.deepEqual({ agentName: d.agentName, label: d.label }, { agentName: 'in memory', label: 'in memory' }, 'describe() before start');
    const { out, err } = await settled(port.submit(newWork('alice', 'complete in memory')), BOUND_MS);
    assert.ifError(err);
    assert.match(out.content, /echo: complete in memory/);
  });
});
