// tests/cancel_test.go for the JS package: a cancel before the message left aborts locally (no
// CancelTask goes out), one while it is on its way waits for the agent's answer and cancels the
// task there, and a failed send is never repeated.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { createA2ABackendAdapter } from '../src/index.js';
import { newWork, recordingFetch, settled, startAgent, variants, withTimeout } from './agent.js';

const BOUND_MS = 20_000;

let agent;
before(async () => { agent = await startAgent(); });
after(async () => { await agent?.stop(); });

/**
 * A fetch that holds back requests whose body contains marker until the request's own signal
 * aborts it, so a test can act while the message is in flight. Other requests are recorded and
 * passed on.
 */
function gate(marker) {
  const rec = recordingFetch();
  let arrive;
  const arrived = new Promise((resolve) => { arrive = resolve; });
  const fetchImpl = (input, init = {}) => {
    if (typeof init.body === 'string' ? init.body.includes(marker)
      : ArrayBuffer.isView(init.body) && new TextDecoder().decode(init.body).includes(marker)) {
      arrive();
      return new Promise((_, reject) => {
        const signal = init.signal ?? (input instanceof Request ? input.signal : undefined);
        const abort = () => reject(signal.reason ?? new DOMException('aborted', 'AbortError'));
        if (signal?.aborted) abort();
        else signal?.addEventListener('abort', abort, { once: true });
      });
    }
    return rec.fetchImpl(input, init);
  };
  return { fetchImpl, arrived, requests: rec.requests };
}

describe('cancel before the remote task is known aborts locally', { concurrency: true }, () => {
  for (const variant of ['v1-jsonrpc-stream', 'v03-rest-poll']) {
    it(variant, async () => {
      const w = newWork('ivan', `hold gated ${variant} ${process.pid}`);
      const g = gate(w.instruction);
      const port = createA2ABackendAdapter({ agentCardUrl: agent.cards[variant], pollIntervalMs: 10, fetchImpl: g.fetchImpl });
      try {
        const done = settled(port.submit(w), BOUND_MS);
        await withTimeout(g.arrived, BOUND_MS, 'the message never reached fetchImpl');
        assert.deepEqual(await port.cancel(w.id, { ownerId: w.ownerId }), { workId: w.id, state: 'cancelled' });
        assert.equal((await done).err?.code, 'WORK_CANCELLED');
        const cancels = g.requests.filter((r) => r.a2aMethod === 'CancelTask');
        assert.deepEqual(cancels.map((r) => r.url), [], 'a CancelTask went out for a task the agent never saw');
      } finally {
        await withTimeout(port.close(), 10_000, 'close() did not settle');
      }
    });
  }
});

/** A fetch that holds back the request whose body contains marker until release() is called. */
function latch(marker) {
  const rec = recordingFetch();
  let arrive;
  let release;
  const arrived = new Promise((resolve) => { arrive = resolve; });
  const released = new Promise((resolve) => { release = resolve; });
  const fetchImpl = async (input, init = {}) => {
    const body = typeof init.body === 'string' ? init.body : ArrayBuffer.isView(init.body) ? new TextDecoder().decode(init.body) : '';
    if (body.includes(marker)) {
      arrive();
      await released;
    }
    return rec.fetchImpl(input, init);
  };
  return { fetchImpl, arrived, release, requests: rec.requests };
}

describe('a cancel while the message is on its way waits for the task and reaches the agent', { concurrency: true }, () => {
  for (const variant of ['v1-jsonrpc-stream', 'v03-rest-poll']) {
    it(variant, async () => {
      const w = newWork('ivan', `hold latched ${variant} ${process.pid}`);
      const l = latch(w.instruction);
      const port = createA2ABackendAdapter({ agentCardUrl: agent.cards[variant], pollIntervalMs: 10, fetchImpl: l.fetchImpl });
      try {
        const done = settled(port.submit(w), BOUND_MS);
        await withTimeout(l.arrived, BOUND_MS, 'the message never reached fetchImpl');
        const cancelled = port.cancel(w.id, { ownerId: w.ownerId });
        await new Promise((resolve) => setTimeout(resolve, 100)); // the cancel is waiting for the answer
        l.release();
        assert.deepEqual(await cancelled, { workId: w.id, state: 'cancelled' });
        assert.equal((await done).err?.code, 'WORK_CANCELLED');
        assert.equal(l.requests.filter((r) => r.a2aMethod === 'CancelTask').length, 1, 'no CancelTask reached the agent');
      } finally {
        await withTimeout(port.close(), 10_000, 'close() did not settle');
      }
    });
  }
});

describe('a failed send is never repeated', { concurrency: true }, () => {
  for (const variant of variants) {
    it(variant.name, async () => {
      const rec = recordingFetch();
      const port = createA2ABackendAdapter({ agentCardUrl: agent.cards[variant.name], pollIntervalMs: 10, fetchImpl: rec.fetchImpl });
      try {
        for (const instruction of ['status500 once', 'emptystream once']) {
          const { err } = await settled(port.submit(newWork('judy', instruction)), BOUND_MS);
          if (instruction === 'status500 once') assert.ok(err, `submit(${instruction}) succeeded`);
        }
      } finally {
        await withTimeout(port.close(), 10_000, 'close() did not settle');
      }
      const sends = rec.requests.filter((r) => r.a2aMethod === 'SendMessage' || r.a2aMethod === 'SendStreamingMessage');
      assert.equal(sends.length, 2, 'messages sent, want 2: one per Work, none repeated');
    });
  }
});

describe('an abort signal cancels only its own submit', { concurrency: true }, () => {
  for (const variant of ['v1-jsonrpc-stream', 'v03-rest-poll']) {
    it(`${variant}: aborting a duplicate submit leaves the active Work alone`, async () => {
      const port = createA2ABackendAdapter({ agentCardUrl: agent.cards[variant], pollIntervalMs: 10 });
      try {
        const w = newWork('kim', `hold duplicate ${variant} ${process.pid}`);
        const events = [];
        const first = settled(port.submit(w, { onEvent: (e) => events.push(e) }), BOUND_MS);
        const deadline = Date.now() + BOUND_MS;
        while (!events.some((e) => e.state === 'working') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
        assert.equal(port.status(w.id, { ownerId: w.ownerId }).state, 'working');

        const controller = new AbortController();
        const duplicate = settled(port.submit(w, { signal: controller.signal }), BOUND_MS);
        controller.abort(); // the duplicate's own signal, aborted while its submit is being rejected
        assert.equal((await duplicate).err?.code, 'WORK_ALREADY_ACTIVE');
        await new Promise((r) => setTimeout(r, 100));
        assert.equal(port.status(w.id, { ownerId: w.ownerId }).state, 'working', 'the first Work after the duplicate was aborted');

        assert.equal((await port.cancel(w.id, { ownerId: w.ownerId })).state, 'cancelled');
        assert.equal((await first).err?.code, 'WORK_CANCELLED');
      } finally {
        await withTimeout(port.close(), 10_000, 'close() did not settle');
      }
    });
  }
});

describe('cancel() and the Work it cancels settle in order', { concurrency: true }, () => {
  /** Runs fn with a listener that records unhandled rejections, and returns them. */
  async function unhandledDuring(fn) {
    const seen = [];
    const listener = (reason) => seen.push(reason);
    process.on('unhandledRejection', listener);
    try {
      await fn();
      await new Promise((r) => setTimeout(r, 50)); // rejections are reported after the turn
    } finally {
      process.off('unhandledRejection', listener);
    }
    return seen;
  }

  async function working(port, w) {
    const deadline = Date.now() + BOUND_MS;
    while (port.status(w.id, { ownerId: w.ownerId }).state !== 'working' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  }

  for (const variant of ['v1-jsonrpc-stream', 'v03-rest-poll']) {
    it(`${variant}: const p = submit(); await cancel(); await p: cancel resolves first, nothing unhandled`, async () => {
      const port = createA2ABackendAdapter({ agentCardUrl: agent.cards[variant], pollIntervalMs: 10 });
      try {
        const w = newWork('una', `hold in order ${variant} ${process.pid}`);
        const order = [];
        const unhandled = await unhandledDuring(async () => {
          const p = port.submit(w);
          await working(port, w);
          const res = await port.cancel(w.id, { ownerId: w.ownerId });
          order.push(`cancel ${res.state}`);
          await p.then(() => order.push('submit ok'), (e) => order.push(`submit ${e.code}`));
        });
        assert.deepEqual(order, ['cancel cancelled', 'submit WORK_CANCELLED']);
        assert.deepEqual(unhandled, [], 'an unhandled rejection');
      } finally {
        await port.close();
      }
    });

    it(`${variant}: close() right after cancel(): the cancel resolves as the Work ended`, async () => {
      const port = createA2ABackendAdapter({ agentCardUrl: agent.cards[variant], pollIntervalMs: 10 });
      const w = newWork('vera', `hold then close ${variant} ${process.pid}`);
      const unhandled = await unhandledDuring(async () => {
        const p = settled(port.submit(w), BOUND_MS);
        await working(port, w);
        const cancelled = port.cancel(w.id, { ownerId: w.ownerId });
        const closed = port.close();
        assert.equal((await cancelled).state, 'cancelled');
        await closed;
        assert.ok(['WORK_CANCELLED', 'ADAPTER_CLOSED'].includes((await p).err?.code), 'the submit ends cancelled or closed');
      });
      assert.deepEqual(unhandled, [], 'an unhandled rejection');
    });
  }
});

describe('a request the adapter is done with', { concurrency: true }, () => {
  /** A fetch that keeps each request's A2A method (or URL) and signal. */
  function signalsKept() {
    const signals = [];
    const rec = recordingFetch();
    const fetchImpl = (input, init = {}) => {
      const p = rec.fetchImpl(input, init);
      signals.push([rec.requests.at(-1).a2aMethod || rec.requests.at(-1).url, init.signal]);
      return p;
    };
    return { signals, fetchImpl };
  }

  it('is released, not aborted, when its body was read to the end (the card)', async () => {
    const { signals, fetchImpl } = signalsKept();
    const port = createA2ABackendAdapter({ agentCardUrl: agent.cards['v1-jsonrpc-stream'], fetchImpl });
    try {
      await withTimeout(port.submit(newWork('lee', 'complete released')), BOUND_MS, 'submit did not settle');
      await new Promise((r) => setTimeout(r, 20));
      const card = signals.find(([m]) => m.endsWith('/agent-card.json'));
      assert.ok(card, `requests seen: ${signals.map(([m]) => m)}, want the card`);
      assert.equal(card[1].aborted, false, 'the card, read to its end, was aborted');
    } finally {
      await withTimeout(port.close(), 10_000, 'close() did not settle');
    }
  });

  it('is aborted when the Work left its stream mid-way', async () => {
    const { signals, fetchImpl } = signalsKept();
    const port = createA2ABackendAdapter({ agentCardUrl: agent.cards['v1-jsonrpc-stream'], fetchImpl });
    try {
      const w = newWork('lee', `hold abandoned ${process.pid}`);
      const events = [];
      const held = settled(port.submit(w, { onEvent: (e) => events.push(e) }), BOUND_MS);
      const deadline = Date.now() + BOUND_MS;
      while (!events.some((e) => e.state === 'working') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      await port.cancel(w.id, { ownerId: w.ownerId });
      await held;
      await new Promise((r) => setTimeout(r, 20));
      const stream = signals.filter(([m]) => m === 'SendStreamingMessage').at(-1);
      assert.ok(stream?.[1]?.aborted, 'the stream left behind by the cancel was not aborted');
      assert.match(String(stream[1].reason?.message), /done with this request/);
    } finally {
      await withTimeout(port.close(), 10_000, 'close() did not settle');
    }
  });
});
