// The `worker` option in Node (worker_threads): the module runs in a worker, every effect here.
// A module behind an HTTP URL is read with the caller's fetchImpl, once per worker, and the
// worker compiles those bytes; the one module serves a 0.3 agent there as it does a 1.0 one. The
// conformance suite runs in a worker too (conformance.test.js); a page's main
// thread, where the option is on by default, is examples/browser's (browser.test.js).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';

import { createCredentials } from '../src/credentials.js';
import { Driver } from '../src/driver.js';
import { createA2ABackendAdapter } from '../src/index.js';
import { remoteInstance } from '../src/thread.js';
import { newWork, packageDir, settled, startAgent } from './agent.js';

let agent;
let modules; // {url, close()}: js/a2aport.wasm over HTTP on loopback
before(async () => {
  agent = await startAgent();
  const server = createServer(async (req, res) => {
    const name = new URL(req.url, 'http://x').pathname.slice(1);
    if (name !== 'a2aport.wasm') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/wasm' }).end(await readFile(join(packageDir, name)));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  modules = { url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((resolve) => server.close(resolve)) };
});
after(async () => {
  await agent?.stop();
  await modules?.close();
});

/** A fetchImpl that counts what it is asked for by path. */
function countingFetch() {
  const counts = new Map();
  const fetchImpl = (input, init) => {
    const path = new URL(String(input instanceof Request ? input.url : input)).pathname;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    return globalThis.fetch(input, init);
  };
  return { fetchImpl, counts };
}

describe('the module in a worker', () => {
  it('reads an HTTP module with the caller\'s fetchImpl, once for every adapter of the thread', async () => {
    const { fetchImpl, counts } = countingFetch();
    const wasm = `${modules.url}a2aport.wasm`;
    for (const n of [1, 2]) {
      const port = createA2ABackendAdapter({ agentCardUrl: agent.cards['v1-jsonrpc-stream'], wasm, fetchImpl, worker: true });
      try {
        const { out, err } = await settled(port.submit(newWork('alice', `complete worker ${n}`)));
        assert.ok(!err && out.content, `submit ${n} = ${err?.code}: ${err?.message}`);
        const stats = port[Symbol.for('a2aport.stats')];
        assert.equal(stats.worker, true);
        assert.ok(stats.memoryBytes > 0, 'the worker reports the instance\'s memory');
        assert.equal(stats.module, 'given');
      } finally {
        await port.close();
      }
    }
    assert.equal(counts.get('/a2aport.wasm'), 1, 'the module is read once; the worker keeps it compiled');
  });

  for (const [instruction, state] of [['hold status', 'working'], ['input status', 'input_required']]) {
    it(`answers status() and describe() at once as the module on this thread does (${state})`, async () => {
      const seen = {};
      for (const worker of [false, true]) {
        const port = createA2ABackendAdapter({ agentCardUrl: agent.cards['v1-jsonrpc-stream'], worker });
        try {
          const before = { runtime: port.status(''), description: port.describe() };
          await port.start();
          const controller = new AbortController();
          const work = newWork('carol', `${instruction} ${worker}`);
          let reachedState;
          const reported = new Promise((resolve) => { reachedState = resolve; });
          const done = settled(port.submit(work, { signal: controller.signal, onEvent: (ev) => ev.state === state && reachedState() }));
          await reported;
          const during = {
            work: port.status(work.id, { ownerId: work.ownerId }),
            otherOwner: port.status(work.id, { ownerId: 'mallory' }),
            runtime: port.status(''),
          };
          controller.abort();
          await done;
          const after = { work: port.status(work.id, { ownerId: work.ownerId }), runtime: port.status(''), description: port.describe() };
          seen[worker] = { before, during, after };
        } finally {
          await port.close();
        }
      }
      assert.equal(seen[false].during.work.state, state, `inline, the Work is ${state}`);
      assert.equal(seen[false].during.runtime.activeWorks, 1);
      assert.deepEqual(seen[true], seen[false]);
    });
  }

  it('serves a 0.3 agent on the one module, as on this thread', async () => {
    const port = createA2ABackendAdapter({ agentCardUrl: agent.cards['v03-rest-stream'], worker: true });
    try {
      const { out, err } = await settled(port.submit(newWork('bob', 'complete worker 0.3')));
      assert.ok(!err && out.content, `submit = ${err?.code}: ${err?.message}`);
      const stats = port[Symbol.for('a2aport.stats')];
      assert.equal(stats.worker, true);
      assert.equal(stats.module, 'bundled');
      const d = port.describe();
      assert.equal(d.discovered, true, 'describe() after the Work: the last batch said the agent is discovered');
      assert.equal(d.protocolVersion, '0.3');
      assert.equal(d.transport, 'HTTP+JSON');
    } finally {
      await port.close();
    }
  });

  it('a trap in the worker is MODULE_TRAPPED with the module\'s panic; the worker serves a fresh instance', async () => {
    const options = { wasm: new URL('../a2aport.wasm', import.meta.url) };
    const trapped = [];
    const driver = new Driver(await remoteInstance(options, globalThis.fetch), {
      fetchImpl: fetch, credentials: createCredentials({}), contextStore: undefined,
      dispatch: (fn) => fn(), deliver: () => {}, redactEvent: (ev) => ev, onTrap: (d) => trapped.push(d),
    });
    await driver.call('init', { init: { agentCardUrl: agent.cards['v1-jsonrpc-stream'], legacyCompat: false } });
    await assert.rejects(driver.call('_trap'), (e) => e.code === 'MODULE_TRAPPED' && /deliberate trap/.test(e.message));
    assert.equal(trapped.length, 1, 'the host is told once that the instance is dead');
    await assert.rejects(driver.call('describe'), (e) => e.code === 'MODULE_TRAPPED', 'later calls fail the same way');
    const fresh = new Driver(await remoteInstance(options, globalThis.fetch), {
      fetchImpl: fetch, credentials: createCredentials({}), contextStore: undefined,
      dispatch: (fn) => fn(), deliver: () => {}, redactEvent: (ev) => ev, onTrap: () => {},
    });
    await fresh.call('init', { init: { agentCardUrl: agent.cards['v1-jsonrpc-stream'], legacyCompat: false } });
    const { description } = await fresh.call('describe');
    assert.equal(description.protocol, 'a2a');
    fresh.release();
  });

  for (const worker of [false, true]) {
    it(`a module URL that serves none is MODULE_UNAVAILABLE with its status${worker ? ', in a worker' : ''}`, async () => {
      const port = createA2ABackendAdapter({ agentCardUrl: agent.cards['v1-jsonrpc-stream'], wasm: `${modules.url}missing.wasm`, worker });
      try {
        await assert.rejects(port.start(), (e) => e.code === 'MODULE_UNAVAILABLE' && e.status === 404 && e.retryable === false && /HTTP 404/.test(e.message));
        // Nothing reached the agent, and bytes that are not a module are refused the same way.
        const bad = createA2ABackendAdapter({ agentCardUrl: agent.cards['v1-jsonrpc-stream'], wasm: new Uint8Array([0, 97, 115, 109, 9, 9]), worker });
        await assert.rejects(bad.start(), (e) => e.code === 'MODULE_UNAVAILABLE' && e.retryable === false);
        await bad.close();
      } finally {
        await port.close();
      }
    });
  }
});
