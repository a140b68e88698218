// A broken stream with recovery turned off (recoveryAttempts: 0) fails the Work with the
// network's code, as natively (tests/recovery_test.go); with recovery on, the matrix shows it heal.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';

import { createA2ABackendAdapter } from '../src/index.js';
import { newWork, settled, startAgent, variants } from './agent.js';

let agent;
before(async () => { agent = await startAgent(); });
after(async () => { await agent?.stop(); });

for (const variant of variants.filter((v) => v.streaming)) {
  it(`${variant.name}: recoveryAttempts 0 lets a dropped stream fail with A2A_NETWORK_ERROR`, async () => {
    const port = createA2ABackendAdapter({ agentCardUrl: agent.cards[variant.name], recoveryAttempts: 0 });
    try {
      const { err } = await settled(port.submit(newWork('alice', 'breakstream please')), 20_000);
      assert.equal(err?.code, 'A2A_NETWORK_ERROR', `error = ${err?.message}`);
    } finally {
      await port.close();
    }
  });
}
