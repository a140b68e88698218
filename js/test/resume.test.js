// A second adapter on the same workStore (a page after its reload) re-attaches to a Work the first
// one left running and settles it, sending nothing again; a Work waiting for an answer asks again
// and the new adapter's answer completes it. As natively (tests/resume_test.go).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { createA2ABackendAdapter } from '../src/index.js';
import { Recorder, newWork, recordingFetch, settled, startAgent } from './agent.js';

let agent;
before(async () => { agent = await startAgent(); });
after(async () => { await agent?.stop(); });

/** A workStore over a Map, as a page's localStorage would be; async like most real ones. */
function mapStore() {
  const records = new Map();
  return {
    records,
    get: async (id) => records.get(id),
    set: async (record) => { records.set(record.workId, structuredClone(record)); },
    delete: async (id) => { records.delete(id); },
  };
}

async function recorded(store, workId, state) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const rec = store.records.get(workId);
    if (rec?.remoteTaskId && (!state || rec.state === state)) return rec;
    if (Date.now() > deadline) throw new Error(`work ${workId} was never recorded (state ${state}): ${JSON.stringify(rec)}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

for (const variant of ['v1-jsonrpc-stream', 'v03-rest-poll']) {
  describe(variant, () => {
    it('a cancel the agent refuses because the task completed reports completed, and the Work its answer', async () => {
      const workStore = mapStore();
      const options = { agentCardUrl: agent.cards[variant], pollIntervalMs: 10, workStore };
      const page1 = createA2ABackendAdapter(options);
      const w = newWork('nina', `slow 200 ended before its cancel ${variant}`);
      const first = settled(page1.submit(w), 20_000);
      await recorded(workStore, w.id);
      await page1.detach();
      assert.equal((await first).err?.code, 'WORK_DETACHED');
      await new Promise((r) => setTimeout(r, 600)); // the agent completes the task meanwhile
      // The second page does not look at the task by itself: only the cancel asks the agent.
      const page2 = createA2ABackendAdapter({ ...options, pollIntervalMs: 3_600_000 });
      try {
        const events = new Recorder();
        const resumed = settled(page2.resume(w.id, { ownerId: 'nina', onEvent: events.listen }), 20_000);
        const deadline = Date.now() + 20_000;
        while (page2.status(w.id, { ownerId: 'nina' }).state === 'not_found' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
        assert.deepEqual(await page2.cancel(w.id, { ownerId: 'nina' }), { workId: w.id, state: 'completed' });
        const { out, err } = await resumed;
        assert.ifError(err);
        assert.match(out.content, /slow done/);
        assert.ok(!events.events.some((e) => e.state === 'cancelled'), 'an event says cancelled');
      } finally {
        await page2.close();
      }
    });

    it('resumes a running Work after a reload, sending nothing again', async () => {
      const workStore = mapStore();
      const options = { agentCardUrl: agent.cards[variant], pollIntervalMs: 10, workStore };
      const page1 = createA2ABackendAdapter(options);
      const w = newWork('alice', 'slow 1500');
      const first = settled(page1.submit(w), 20_000); // the page that will be reloaded
      await recorded(workStore, w.id);
      const rec = recordingFetch();
      const page2 = createA2ABackendAdapter({ ...options, fetchImpl: rec.fetchImpl });
      try {
        await assert.rejects(page2.resume(w.id, { ownerId: 'mallory' }), (e) => e.code === 'WORK_NOT_FOUND');
        const events = new Recorder();
        const { out, err } = await settled(page2.resume(w.id, { ownerId: 'alice', onEvent: events.listen }), 20_000);
        assert.ifError(err);
        assert.match(out.content, /slow done/);
        assert.equal(events.events[0]?.type, 'backend.activity');
        assert.equal(events.events[0]?.workId, w.id);
        const methods = rec.requests.map((r) => r.a2aMethod).filter(Boolean);
        assert.ok(methods.length > 0 && !methods.includes('SendMessage') && !methods.includes('SendStreamingMessage'),
          `requests of the resumed Work: ${methods}; want it followed, nothing sent`);
        assert.equal(workStore.records.has(w.id), false, 'the record of an ended Work is still there');
        await assert.rejects(page2.resume(w.id, { ownerId: 'alice' }), (e) => e.code === 'WORK_NOT_FOUND');
        await first;
      } finally {
        await page1.close();
        await page2.close();
      }
    });

    it('a Work waiting for an answer asks again after a reload', async () => {
      const workStore = mapStore();
      const options = { agentCardUrl: agent.cards[variant], pollIntervalMs: 10, workStore };
      const page1 = createA2ABackendAdapter(options);
      const page2 = createA2ABackendAdapter(options);
      try {
        const w = newWork('alice', 'input needed');
        void settled(page1.submit(w), 20_000);
        await recorded(workStore, w.id, 'input_required');
        const events = new Recorder();
        const resumed = settled(page2.resume(w.id, { ownerId: 'alice', onEvent: events.listen }), 20_000);
        const { event: ev } = await events.waitFor((e) => e.type === 'backend.input.requested');
        assert.equal(page2.status(w.id, { ownerId: 'alice' }).state, 'input_required');
        await page2.respondInput(w.id, ev.input.inputRequestId, { text: 'Bob' }, { ownerId: 'alice' });
        const { out, err } = await resumed;
        assert.ifError(err);
        assert.match(out.content, /Hello, Bob!/);
      } finally {
        await page2.close();
        await page1.close();
      }
    });
  });
}

for (const variant of ['v1-jsonrpc-stream', 'v03-rest-poll']) {
  it(`${variant}: detach() leaves the Work to the agent with its record, close() ends it there`, async () => {
    for (const stop of ['detach', 'close']) {
      const workStore = mapStore();
      const rec = recordingFetch();
      const options = { agentCardUrl: agent.cards[variant], pollIntervalMs: 10, workStore };
      const page1 = createA2ABackendAdapter({ ...options, fetchImpl: rec.fetchImpl });
      const w = newWork('alice', `slow 1500 ${stop}`);
      const first = settled(page1.submit(w), 20_000);
      await recorded(workStore, w.id);
      await page1[stop]();
      const { err } = await first;
      const cancelled = rec.requests.some((r) => r.a2aMethod === 'CancelTask');
      if (stop === 'close') {
        assert.ok(['ADAPTER_CLOSED', 'WORK_CANCELLED'].includes(err?.code), `close: ${err?.code}`);
        assert.ok(cancelled && !workStore.records.has(w.id), 'close() must cancel at the agent and forget the Work');
        continue;
      }
      assert.equal(err?.code, 'WORK_DETACHED', err?.message);
      assert.ok(!cancelled, 'detach() sent a CancelTask');
      assert.ok(workStore.records.has(w.id), 'detach() dropped the record');
      const page2 = createA2ABackendAdapter(options);
      try {
        const { out, err: resumeErr } = await settled(page2.resume(w.id, { ownerId: 'alice' }), 20_000);
        assert.ifError(resumeErr);
        assert.match(out.content, /slow done/);
      } finally {
        await page2.close();
      }
    }
  });
}

it('resume without a workStore finds nothing', async () => {
  const port = createA2ABackendAdapter({ agentCardUrl: agent.cards['v1-jsonrpc-stream'] });
  try {
    await assert.rejects(port.resume('work-x', { ownerId: 'alice' }), (e) => e.code === 'WORK_NOT_FOUND');
  } finally {
    await port.close();
  }
});
