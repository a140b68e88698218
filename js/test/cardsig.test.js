// Signed Agent Cards (verifyCard): cards signed by @a2a-js/sdk 1.3.0's own signing code verify
// with the trusted keys; changed ones, unsigned ones (when required) and unknown keys fail with
// A2A_CARD_SIGNATURE_INVALID. As natively (tests/cardsig_test.go), on the same corpus.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

import { createA2ABackendAdapter } from '../src/index.js';

const dir = new URL('../../internal/a2aclient/testdata/cards/', import.meta.url);
const read = (name) => readFileSync(new URL(name, dir), 'utf8');
const keys = JSON.parse(read('signing-keys.jwks.json'));
const signed = {
  'signed-a2a-js-1.3.0-served-es256.json': 'es-key',
  'signed-a2a-js-1.3.0-tojson-rs256.json': 'rs-key',
  'signed-a2a-js-1.3.0-tojson-two.json': 'ed-key',
  'signed-a2a-js-1.3.0-tojson-jku.json': 'es-key',
};

let server;
let base;
before(async () => {
  const files = { '/unsigned.json': read('a2a-go-v2.4.0.json').replace('"signatures"', '"x-signatures"') };
  for (const name of Object.keys(signed)) {
    files[`/${name}`] = read(name);
    files[`/tampered-${name}`] = read(name).replace('"tenant": "acme"', '"tenant": "acmf"');
  }
  server = createServer((req, res) => {
    const body = files[req.url];
    if (body === undefined) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${server.address().port}`;
});
after(() => new Promise((ok) => server.close(ok)));

async function start(path, options) {
  const port = createA2ABackendAdapter({ agentCardUrl: base + path, allowedOrigins: ['*'], cardKeys: keys, ...options });
  try {
    await port.start();
    return { description: port.describe() };
  } catch (err) {
    return { err };
  } finally {
    await port.close();
  }
}

it('cards signed by the SDK verify; changed ones do not', async () => {
  for (const [name, kid] of Object.entries(signed)) {
    const { description, err } = await start(`/${name}`, { verifyCard: 'required' });
    assert.ifError(err);
    assert.equal(description.cardSignature?.status, 'verified', name);
    assert.equal(description.cardSignature.keyId, kid, name);
    const tampered = await start(`/tampered-${name}`, { verifyCard: 'if-signed' });
    assert.equal(tampered.err?.code, 'A2A_CARD_SIGNATURE_INVALID', name);
  }
});

it('the SDK\'s signer leaves out security schemes in its own form: describe() names them', async () => {
  const { description } = await start('/signed-a2a-js-1.3.0-served-es256.json', { verifyCard: 'required' });
  assert.ok(description.cardSignature.uncovered.includes('securitySchemes.bearer.scheme'), String(description.cardSignature.uncovered));
});

it('an unsigned card: refused when required, let through and reported with if-signed', async () => {
  const required = await start('/unsigned.json', { verifyCard: 'required' });
  assert.equal(required.err?.code, 'A2A_CARD_SIGNATURE_INVALID');
  assert.match(required.err.message, /not signed/);
  const ifSigned = await start('/unsigned.json', { verifyCard: 'if-signed' });
  assert.ifError(ifSigned.err);
  assert.equal(ifSigned.description.cardSignature.status, 'unsigned');
});

it('keys as an array of JWKs; an unknown key fails; bad options throw', async () => {
  const ok = await start('/signed-a2a-js-1.3.0-tojson-rs256.json', { verifyCard: 'required', cardKeys: keys.keys });
  assert.ifError(ok.err);
  const other = await start('/signed-a2a-js-1.3.0-tojson-rs256.json', { verifyCard: 'required', cardKeys: keys.keys.filter((k) => k.kid !== 'rs-key') });
  assert.equal(other.err?.code, 'A2A_CARD_SIGNATURE_INVALID');
  assert.match(other.err.message, /no trusted key "rs-key"/);
  assert.throws(() => createA2ABackendAdapter({ agentCardUrl: `${base}/x.json`, verifyCard: 'always' }), /verifyCard/);
  const noKeys = await start('/unsigned.json', { verifyCard: 'required', cardKeys: undefined });
  assert.equal(noKeys.err?.code, 'INVALID_OPTIONS');
});
