// A card that offers an extended card: with credentials it is read and used (describe() says so);
// without, the public card stays. As natively (tests/extendedcard_test.go).
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';

import { createA2ABackendAdapter } from '../src/index.js';
import { startAgent } from './agent.js';

let agent;
before(async () => { agent = await startAgent(); });
after(async () => { await agent?.stop(); });

it('the extended card is used when credentials are set', async () => {
  const card = agent.special.extended;
  const withToken = createA2ABackendAdapter({ agentCardUrl: card, token: 'tok-extended-5ecret' });
  const without = createA2ABackendAdapter({ agentCardUrl: card });
  try {
    await withToken.start();
    const d = withToken.describe();
    assert.equal(d.extendedCard, true);
    assert.equal(d.agentName, 'a2aport test agent (extended)');
    assert.ok(!JSON.stringify(d).includes('tok-extended-5ecret'));
    await without.start();
    assert.notEqual(without.describe().extendedCard, true);
    assert.equal(without.describe().agentName, 'a2aport test agent');
  } finally {
    await withToken.close();
    await without.close();
  }
});
