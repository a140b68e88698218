// A Work's W3C trace context reaches the agent on each of that Work's requests, as in
// tests/trace_test.go; a malformed one rejects with INVALID_WORK before any request.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';

import { createA2ABackendAdapter } from '../src/index.js';
import { newWork, recordingFetch, settled, startAgent } from './agent.js';

let agent;
before(async () => { agent = await startAgent(); });
after(async () => { await agent?.stop(); });

for (const variant of ['v1-jsonrpc-stream', 'v1-rest-poll']) {
  it(`${variant}: every request of the Work carries its traceparent`, async () => {
    const rec = recordingFetch();
    const port = createA2ABackendAdapter({ agentCardUrl: agent.cards[variant], pollIntervalMs: 10, fetchImpl: rec.fetchImpl });
    try {
      const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
      const { err } = await settled(port.submit(newWork('alice', 'slow 30'), { traceparent }), 20_000);
      assert.ifError(err);
      const work = rec.requests.filter((r) => r.a2aMethod);
      assert.ok(work.length >= (variant.endsWith('poll') ? 2 : 1), `requests: ${work.map((r) => r.a2aMethod)}`);
      for (const r of work) assert.equal(r.headers.get('traceparent'), traceparent, `${r.a2aMethod} without the traceparent`);
      assert.equal(rec.requests.find((r) => !r.a2aMethod)?.headers.get('traceparent'), null, 'discovery is no part of the Work');
    } finally {
      await port.close();
    }
  });
}

it('a malformed traceparent rejects with INVALID_WORK, no request made', async () => {
  const rec = recordingFetch();
  const port = createA2ABackendAdapter({ agentCardUrl: agent.cards['v1-jsonrpc-stream'], fetchImpl: rec.fetchImpl });
  try {
    await port.start();
    const before = rec.requests.length;
    for (const traceparent of ['01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', 'nope', 42]) {
      const { err } = await settled(port.submit(newWork('alice', 'complete never'), { traceparent }), 20_000);
      assert.equal(err?.code, 'INVALID_WORK', `traceparent ${traceparent}: ${err?.code} ${err?.message}`);
    }
    assert.equal(rec.requests.length, before, 'no request for a rejected Work');
  } finally {
    await port.close();
  }
});
