// An adapter that allows A2A 0.3 starts on the 1.0-only module and stays there for a 1.0 agent; a
// 0.3 agent makes it load the full module before anything is sent or reported, and the Work runs
// as usual. LegacyCompat false never loads the full module. (The Go host does the same:
// host/flavour_test.go.)
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { createA2ABackendAdapter } from '../src/index.js';
import { Recorder, newWork, settled, startAgent } from './agent.js';

let agent;
before(async () => { agent = await startAgent(); });
after(async () => { await agent?.stop(); });

describe('the module follows the card', { concurrency: true }, () => {
  for (const [name, variant, options, wantModule, wantCode] of [
    ['1.0 agent, 0.3 allowed', 'v1-jsonrpc-stream', {}, '1.0', undefined],
    ['0.3 agent, 0.3 allowed', 'v03-jsonrpc-stream', {}, 'full', undefined],
    ['0.3 agent, legacyCompat false', 'v03-jsonrpc-stream', { legacyCompat: false }, '1.0', 'A2A_NO_COMPATIBLE_TRANSPORT'],
    // The 1.0-only module leaves card signatures out: verifying takes the full one from the start.
    ['1.0 agent, verifyCard if-signed', 'v1-jsonrpc-stream', { verifyCard: 'if-signed', cardKeysFromJku: true }, 'full', undefined],
    ['1.0 agent, verifyCard and legacyCompat false', 'v1-jsonrpc-stream', { verifyCard: 'if-signed', cardKeysFromJku: true, legacyCompat: false }, 'full', undefined],
  ]) {
    it(name, async () => {
      const port = createA2ABackendAdapter({ agentCardUrl: agent.cards[variant], ...options });
      try {
        const rec = new Recorder();
        const { out, err } = await settled(port.submit(newWork('alice', 'complete flavour'), { onEvent: rec.listen }), 20_000);
        if (wantCode) assert.equal(err?.code, wantCode, `submit error ${err?.code}: ${err?.message}`);
        else assert.ok(!err && out.content, `submit = ${err?.code}: ${err?.message}`);
        assert.equal(port[Symbol.for('a2aport.stats')].module, wantModule);
        if (!wantCode) assert.ok(rec.events.every((e) => e.state !== 'failed'), 'the swap is invisible to listeners');
      } finally {
        await port.close();
      }
    });
  }
});
