// Extensions, as tests/extensions_test.go checks them: the activated extensions the card declares
// are asked for on the Work's requests (A2A-Extensions), an undeclared one is not, and a card that
// requires an extension left out fails discovery with A2A_EXTENSION_REQUIRED naming it.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';

import { createA2ABackendAdapter } from '../src/index.js';
import { newWork, recordingFetch, settled, startAgent } from './agent.js';

const OPTIONAL = 'urn:a2aport:test:optional';
const REQUIRED = 'urn:a2aport:test:required';

let agent;
before(async () => { agent = await startAgent(); });
after(async () => { await agent?.stop(); });

it('activated extensions the card declares are asked for on every request of the Work', async () => {
  const rec = recordingFetch();
  const port = createA2ABackendAdapter({ agentCardUrl: agent.special.extensions, fetchImpl: rec.fetchImpl, extensions: [REQUIRED, OPTIONAL, 'urn:a2aport:test:undeclared'] });
  try {
    const { err } = await settled(port.submit(newWork('alice', 'complete extended')), 20_000);
    assert.ifError(err);
    const work = rec.requests.filter((r) => r.a2aMethod);
    assert.ok(work.length > 0);
    for (const r of work) {
      const asked = (r.headers.get('a2a-extensions') ?? '').split(',').map((u) => u.trim()).sort();
      assert.deepEqual(asked, [OPTIONAL, REQUIRED], `${r.a2aMethod} asked for ${asked}`);
    }
  } finally {
    await port.close();
  }
});

it('a required extension left out is A2A_EXTENSION_REQUIRED', async () => {
  const port = createA2ABackendAdapter({ agentCardUrl: agent.special.extensions, extensions: [OPTIONAL] });
  try {
    const { err } = await settled(port.start(), 20_000);
    assert.equal(err?.code, 'A2A_EXTENSION_REQUIRED', `start(): ${err?.code} ${err?.message}`);
    assert.match(err.message, new RegExp(REQUIRED));
  } finally {
    await port.close();
  }
});
