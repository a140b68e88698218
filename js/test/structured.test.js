// A Work's structured input reaches the agent as one data part (as natively:
// tests/structured_test.go); input that is not a JSON object is INVALID_WORK before it crosses.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';

import { createA2ABackendAdapter } from '../src/index.js';
import { startAgent } from './agent.js';

let agent;
before(async () => { agent = await startAgent(); });
after(async () => { await agent?.stop(); });

it('structured input arrives as a data part; bad input is INVALID_WORK', async () => {
  const port = createA2ABackendAdapter({ agentCardUrl: agent.cards['v1-jsonrpc-stream'] });
  try {
    const out = await port.submit({ id: 's1', ownerId: 'o', instruction: 'files with input', input: { answer: 42, ok: true } });
    assert.match(out.content, /data \{"answer":42,"ok":true\}/);
    for (const input of [[1, 2], 'text', { big: 10n }]) {
      await assert.rejects(port.submit({ id: `bad-${typeof input}`, ownerId: 'o', instruction: 'files', input }),
        (e) => e.code === 'INVALID_WORK', JSON.stringify(String(input)));
    }
  } finally {
    await port.close();
  }
});
