// Every phase of a Work × every end that can cut it short gives the code, retry hint and effect at
// the agent that docs/reliability.md's table states, as natively and in the module under wazero
// (tests/fate_test.go): the Go test agent behind a TCP proxy that can go silent or go away.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { createA2ABackendAdapter } from '../src/index.js';
import { Recorder, newWork, recordingFetch, remoteCancelConfirmed, settled, startAgent } from './agent.js';
import { startProxy, viaProxy } from './faultproxy.js';

let agent;
before(async () => { agent = await startAgent(); });
after(async () => { await agent?.stop(); });

const FATE_TIMEOUT_MS = 1500;

// [code, retryable, sends, cancelled at the agent], by phase and end.
const table = {
  discovery: {
    timeout: ['A2A_TIMEOUT', true, 0, false], cancel: ['WORK_CANCELLED', false, 0, false], close: ['ADAPTER_CLOSED', false, 0, false],
    detach: ['ADAPTER_CLOSED', false, 0, false], network: ['A2A_NETWORK_ERROR', true, 0, false],
  },
  send: {
    timeout: ['A2A_OUTCOME_UNKNOWN', false, 1, false], cancel: ['WORK_CANCELLED', false, 1, false], close: ['ADAPTER_CLOSED', false, 1, false],
    detach: ['WORK_DETACHED', false, 1, false], network: ['A2A_OUTCOME_UNKNOWN', false, 1, false],
  },
};
for (const phase of ['streaming', 'polling', 'input']) {
  table[phase] = {
    timeout: ['A2A_TIMEOUT', true, 1, true], cancel: ['WORK_CANCELLED', false, 1, true], close: ['ADAPTER_CLOSED', false, 1, true],
    detach: ['WORK_DETACHED', false, 1, false], network: ['A2A_OUTCOME_UNKNOWN', false, 1, false],
  };
}

function mapStore() {
  const records = new Map();
  return { records, get: async (id) => records.get(id), set: async (r) => { records.set(r.workId, structuredClone(r)); }, delete: async (id) => { records.delete(id); } };
}

async function until(cond, what, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`${what} (within ${ms} ms)`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

// The requests that carried the Work's message (an answer to a question carries other text).
const sendsOf = (requests, w) => requests.filter((r) => (r.a2aMethod === 'SendMessage' || r.a2aMethod === 'SendStreamingMessage') && r.body?.includes(w.instruction));

describe('how a Work ends', { concurrency: true }, () => {
  for (const [phase, ends] of Object.entries(table)) {
    for (const [end, [code, retryable, sends, cancelled]] of Object.entries(ends)) {
      it(`${phase} × ${end}: ${code}, retryable ${retryable}`, async () => {
        const proxy = await startProxy(new URL(agent.url).host);
        const variant = phase === 'polling' ? 'v03-rest-poll' : 'v1-jsonrpc-stream';
        const rec = recordingFetch(viaProxy(proxy));
        const workStore = mapStore();
        const port = createA2ABackendAdapter({
          agentCardUrl: agent.cards[variant], fetchImpl: rec.fetchImpl, pollIntervalMs: 10, recoveryBackoffMs: 10, workStore,
          ...(end === 'timeout' ? { timeoutMs: FATE_TIMEOUT_MS } : {}),
        });
        try {
          let instruction = { discovery: 'complete', send: 'holdsend', streaming: 'hold', polling: 'hold', input: 'input' }[phase];
          if (phase === 'send' && end === 'network') instruction = 'dropsend';
          if (phase === 'discovery' && end === 'network') proxy.down();
          else if (phase === 'discovery') proxy.plan(() => ({ stall: true }));
          const w = newWork('alice', `${instruction} fate ${phase} ${end} ${process.pid}`);
          const events = new Recorder();
          let result;
          const done = settled(port.submit(w, { onEvent: events.listen }), 30_000).then((r) => { result = r; return r; });
          const ended = () => result !== undefined;
          // The phase is reached (unless the fault itself ends the Work there).
          if (phase === 'discovery' && end !== 'network') await until(() => proxy.connections > 0 || ended(), 'no card request');
          if (phase === 'send' && end !== 'network') {
            await until(() => sendsOf(rec.requests, w).length > 0 || ended(), 'no send');
            await new Promise((r) => setTimeout(r, 150)); // the send reached the agent
          }
          if (phase === 'streaming' || phase === 'polling') await events.waitFor((e) => e.state === 'working');
          if (phase === 'input') await events.waitFor((e) => e.type === 'backend.input.requested');
          if (ended() && !(end === 'network' && (phase === 'discovery' || phase === 'send'))) {
            assert.fail(`the Work ended before it reached ${phase}: ${result.err?.code ?? 'completed'}`);
          }
          switch (end) {
            case 'cancel': await port.cancel(w.id, { ownerId: w.ownerId }); break;
            case 'close': await port.close(); break;
            case 'detach': await port.detach(); break;
            case 'network':
              if (phase === 'input') {
                const { event } = await events.waitFor((e) => e.type === 'backend.input.requested');
                proxy.down();
                await port.respondInput(w.id, event.input.inputRequestId, { text: 'Ada' }, { ownerId: w.ownerId }).catch(() => {});
              } else if (phase !== 'discovery' && phase !== 'send') {
                proxy.down();
              }
              break;
          }
          const { err } = await done;
          assert.deepEqual({ code: err?.code, retryable: err?.retryable }, { code, retryable }, err?.message);
          assert.equal(sendsOf(rec.requests, w).length, sends, 'how often the Work\'s message was sent');
          assert.equal(await remoteCancelConfirmed(rec.requests), cancelled, 'cancelled at the agent');
          assert.equal(workStore.records.has(w.id), end === 'detach' && sends > 0, 'the workStore record kept');
        } finally {
          await port.close();
          await proxy.stop();
        }
      });
    }
  }
});
