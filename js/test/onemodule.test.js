// One module, a2aport.wasm, serves every agent: a 1.0 agent, a 0.3 agent, and a signed card to
// verify, all on the module the package ships (nothing else is loaded). legacyCompat false still
// means what it says: an agent that speaks only 0.3 has no compatible interface. The deprecated
// 'a2aport/1.0' entry is the same module with legacyCompat false.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

import { createA2ABackendAdapter } from '../src/index.js';
import { createA2ABackendAdapter as createV1 } from '../src/v1.js';
import { Recorder, newWork, settled, startAgent } from './agent.js';

const corpus = new URL('../../internal/a2aclient/testdata/cards/', import.meta.url);
const read = (name) => readFileSync(new URL(name, corpus), 'utf8');

let agent;
let cards; // {base, keys, close()}: a signed card and a changed copy of it over HTTP on loopback
before(async () => {
  agent = await startAgent();
  const card = read('signed-a2a-js-1.3.0-served-es256.json');
  const files = { '/signed.json': card, '/tampered.json': card.replace('"tenant": "acme"', '"tenant": "acmf"') };
  assert.notEqual(files['/tampered.json'], card);
  const server = createServer((req, res) => {
    const body = files[req.url];
    if (body === undefined) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  cards = {
    base: `http://127.0.0.1:${server.address().port}`, keys: JSON.parse(read('signing-keys.jwks.json')),
    close: () => new Promise((ok) => server.close(ok)),
  };
});
after(async () => {
  await agent?.stop();
  await cards?.close();
});

describe('one module serves every agent', { concurrency: true }, () => {
  for (const [name, create, variant, options, want] of [
    ['1.0 agent', createA2ABackendAdapter, 'v1-jsonrpc-stream', {}, { version: '1.0' }],
    ['0.3 agent', createA2ABackendAdapter, 'v03-jsonrpc-stream', {}, { version: '0.3' }],
    ['0.3 agent over HTTP+JSON', createA2ABackendAdapter, 'v03-rest-stream', {}, { version: '0.3' }],
    ['0.3-only agent, legacyCompat false', createA2ABackendAdapter, 'v03-jsonrpc-stream', { legacyCompat: false }, { code: 'A2A_NO_COMPATIBLE_TRANSPORT' }],
    ['1.0 agent, verifyCard if-signed', createA2ABackendAdapter, 'v1-jsonrpc-stream', { verifyCard: 'if-signed', cardKeysFromJku: true }, { version: '1.0' }],
    ['1.0 agent, verifyCard and legacyCompat false', createA2ABackendAdapter, 'v1-jsonrpc-stream', { verifyCard: 'if-signed', cardKeysFromJku: true, legacyCompat: false }, { version: '1.0' }],
    ["'a2aport/1.0' (deprecated), 1.0 agent", createV1, 'v1-jsonrpc-stream', {}, { version: '1.0' }],
    ["'a2aport/1.0' (deprecated), 0.3-only agent, even with legacyCompat true", createV1, 'v03-jsonrpc-stream', { legacyCompat: true }, { code: 'A2A_NO_COMPATIBLE_TRANSPORT' }],
    ["'a2aport/1.0' (deprecated), verifyCard", createV1, 'v1-jsonrpc-stream', { verifyCard: 'if-signed', cardKeysFromJku: true }, { version: '1.0' }],
  ]) {
    it(name, async () => {
      const port = create({ agentCardUrl: agent.cards[variant], ...options });
      try {
        const rec = new Recorder();
        const { out, err } = await settled(port.submit(newWork('alice', 'complete one module'), { onEvent: rec.listen }), 20_000);
        if (want.code) {
          assert.equal(err?.code, want.code, `submit error ${err?.code}: ${err?.message}`);
        } else {
          assert.ok(!err && out.content, `submit = ${err?.code}: ${err?.message}`);
          assert.equal(port.describe().protocolVersion, want.version);
          assert.ok(rec.events.every((e) => e.state !== 'failed'), 'no listener saw a failure');
        }
        assert.equal(port[Symbol.for('a2aport.stats')].module, 'bundled');
      } finally {
        await port.close();
      }
    });
  }

  // A card signed by @a2a-js/sdk (the corpus of cardsig.test.js): verified, and refused once changed.
  for (const [entry, create] of [['a2aport', createA2ABackendAdapter], ["'a2aport/1.0' (deprecated)", createV1]]) {
    it(`verifies a signed card (verifyCard required), ${entry}`, async () => {
      const start = async (path) => {
        const port = create({ agentCardUrl: cards.base + path, allowedOrigins: ['*'], verifyCard: 'required', cardKeys: cards.keys });
        try {
          await port.start();
          assert.equal(port[Symbol.for('a2aport.stats')].module, 'bundled');
          return { description: port.describe() };
        } catch (err) {
          return { err };
        } finally {
          await port.close();
        }
      };
      const { description, err } = await start('/signed.json');
      assert.ifError(err);
      assert.equal(description.cardSignature?.status, 'verified');
      assert.equal(description.cardSignature.keyId, 'es-key');
      const tampered = await start('/tampered.json');
      assert.equal(tampered.err?.code, 'A2A_CARD_SIGNATURE_INVALID', `${tampered.err?.code}: ${tampered.err?.message}`);
    });
  }

  it("a module the caller gives is 'given'", async () => {
    const port = createA2ABackendAdapter({ agentCardUrl: agent.cards['v03-rest-poll'], wasm: new URL('../a2aport.wasm', import.meta.url), pollIntervalMs: 10 });
    try {
      const { out, err } = await settled(port.submit(newWork('bob', 'complete given module')), 20_000);
      assert.ok(!err && out.content, `submit = ${err?.code}: ${err?.message}`);
      assert.equal(port[Symbol.for('a2aport.stats')].module, 'given');
    } finally {
      await port.close();
    }
  });
});
