// A broken stream with recovery turned off (recoveryAttempts: 0) fails the Work with the
// network's code, as natively (tests/recovery_test.go); with recovery on, the matrix shows it heal.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';

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
