// Conversation continuity (reuseContext, contextStore), as tests/continuity_test.go checks it for
// the Go ports. The agent's "context" scenario answers with the remote context id it ran in.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { newWork, settled, startAgent, withPort } from './agent.js';

const BOUND_MS = 20_000;

let agent;
before(async () => { agent = await startAgent(); });
after(async () => { await agent?.stop(); });

/** Submits a "context" Work and returns the remote context id the agent saw. */
async function contextOf(port, w) {
  const { out, err } = await settled(port.submit(w), BOUND_MS);
  assert.ifError(err);
  const m = /^context=([^\n]+)/.exec(out.content);
  assert.ok(m, `content = ${JSON.stringify(out.content)}, want context=<id>`);
  return m[1];
}

/** A ContextStore over a Map, the shape a localStorage-backed store would have. */
function mapStore() {
  const map = new Map();
  return {
    map,
    get: (owner) => map.get(owner),
    set: (owner, id) => { map.set(owner, id); },
    delete: (owner) => { map.delete(owner); },
  };
}

describe('continuity', { concurrency: true }, () => {
  for (const variant of ['v1-jsonrpc-stream', 'v03-rest-poll']) {
    it(`${variant}: an owner's Works share a context, isolated Works and other owners do not`, () =>
      withPort({ agentCardUrl: agent.cards[variant], reuseContext: true }, async (port) => {
        const first = await contextOf(port, newWork('carol', 'context first'));
        assert.equal(await contextOf(port, newWork('carol', 'context second')), first, "the owner's second Work");
        const isolated = { ...newWork('carol', 'context isolated'), continuity: 'isolated' };
        assert.notEqual(await contextOf(port, isolated), first, "an isolated Work reused the owner's context");
        assert.equal(await contextOf(port, newWork('carol', 'context third')), first, "an isolated Work changed the owner's mapping");
        assert.notEqual(await contextOf(port, newWork('dave', 'context other owner')), first, "another owner shares carol's context");
      }));
  }

  it('is off by default', () => withPort({ agentCardUrl: agent.cards['v1-jsonrpc-stream'] }, async (port) => {
    const a = await contextOf(port, newWork('erin', 'context a'));
    const b = await contextOf(port, newWork('erin', 'context b'));
    assert.notEqual(a, b, 'without reuseContext two Works share a context');
  }));

  it('concurrent first Works of one owner share the discovered context', () =>
    withPort({ agentCardUrl: agent.cards['v1-jsonrpc-stream'], reuseContext: true }, async (port) => {
      await port.start();
      const got = await Promise.all([0, 1, 2, 3].map((i) => contextOf(port, newWork('frank', `context concurrent ${i}`))));
      assert.deepEqual(got, Array(4).fill(got[0]), 'concurrent first Works of one owner ran in different contexts');
    }));

  it('a failed first Work releases the Works waiting for its context', () =>
    withPort({ agentCardUrl: agent.cards['v1-jsonrpc-stream'], reuseContext: true }, async (port) => {
      const failed = settled(port.submit(newWork('grace', 'status500 first')), BOUND_MS);
      const c = await contextOf(port, newWork('grace', 'context after failure'));
      assert.ok((await failed).err, 'the failing Work succeeded');
      assert.equal(await contextOf(port, newWork('grace', 'context later')), c, "after a failed first Work, the owner's context");
    }));

  it("a contextStore is the caller's: read and written, never capped or cleared, and it outlives the adapter", async () => {
    // As in Go: the in-memory default (100 owners, cleared by close) goes with the adapter; a
    // store the caller passes is the caller's to keep, so continuity survives a page reload.
    const store = mapStore();
    const options = { agentCardUrl: agent.cards['v1-jsonrpc-stream'], reuseContext: true, contextStore: store };
    let first;
    await withPort(options, async (port) => {
      first = await contextOf(port, newWork('ivy', 'context first'));
      for (let i = 0; i < 105; i++) await contextOf(port, newWork(`owner-${i}`, 'context many'));
      assert.equal(store.map.size, 106, 'owners in the store');
      assert.equal(store.map.get('ivy'), first, "the store holds the owner's context");
      // The store is what the adapter reads: a context put there is the one the next Work uses.
      store.map.set('owner-0', store.map.get('owner-1'));
      assert.equal(await contextOf(port, newWork('owner-0', 'context from the store')), store.map.get('owner-1'));
    });
    assert.equal(store.map.size, 106, 'close() emptied the caller\'s store');
    // A new adapter (a reloaded page) continues the owner's conversation.
    await withPort(options, async (port) => {
      assert.equal(await contextOf(port, newWork('ivy', 'context after reload')), first, 'the context after a reload');
    });
  });

  it('a server that moves an established context is A2A_CONTEXT_MISMATCH', () =>
    withPort({ agentCardUrl: agent.cards['v1-jsonrpc-stream'], reuseContext: true }, async (port) => {
      await contextOf(port, newWork('heidi', 'context established'));
      // The agent answers this Work from another context than the established one.
      const { err } = await settled(port.submit(newWork('heidi', 'mismatch context')), BOUND_MS);
      assert.equal(err?.code, 'A2A_CONTEXT_MISMATCH', `submit() error = ${err?.message} (code ${err?.code})`);
    }));
});
