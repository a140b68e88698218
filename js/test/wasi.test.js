// The WASI shim covers exactly the imports the module declares (wasm/exports.txt), and the built
// module imports nothing else.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createWasi } from '../src/wasi.js';

const listed = async () => {
  const text = await readFile(new URL('../../wasm/exports.txt', import.meta.url), 'utf8');
  return new Set(text.split('\n').filter((l) => l.startsWith('import wasi_snapshot_preview1.'))
    .map((l) => l.slice('import wasi_snapshot_preview1.'.length).split(' ')[0]));
};

test('the shim provides exactly the imports exports.txt lists', async () => {
  const shim = new Set(Object.keys(createWasi().imports.wasi_snapshot_preview1));
  assert.deepEqual([...shim].sort(), [...(await listed())].sort());
});

test('a2aport.wasm imports only what the shim provides', async () => {
  const module = await WebAssembly.compile(await readFile(new URL('../a2aport.wasm', import.meta.url)));
  const shim = createWasi().imports;
  for (const imp of WebAssembly.Module.imports(module)) {
    assert.equal(typeof shim[imp.module]?.[imp.name], 'function', `${imp.module}.${imp.name} is missing from the shim`);
  }
  const exports = WebAssembly.Module.exports(module).map((e) => e.name).sort();
  assert.deepEqual(exports, ['_initialize', 'a2aport_alloc', 'a2aport_call', 'memory']);
});

// A sleep is a clock subscription with a timeout: the runtime's zero-timeout poll after a GC is
// not one, and must not be counted as the module blocking on the host.
test('poll_oneoff counts clock subscriptions with a timeout as sleeps, and only those', () => {
  const wasi = createWasi();
  const memory = new WebAssembly.Memory({ initial: 1 });
  wasi.bind({ exports: { memory } });
  const v = new DataView(memory.buffer);
  const poll = (timeoutNs) => {
    v.setBigUint64(0, 7n, true); // userdata
    v.setUint8(8, 0); // eventtype clock
    v.setBigUint64(24, timeoutNs, true);
    return wasi.imports.wasi_snapshot_preview1.poll_oneoff(0, 1024, 1, 2048);
  };
  assert.equal(poll(0n), 0);
  assert.equal(wasi.state.sleeps, 0, 'a zero-timeout poll counted as a sleep');
  assert.equal(v.getUint32(2048, true), 1, 'the subscription is answered');
  poll(1_000_000n);
  assert.equal(wasi.state.sleeps, 1, 'a 1 ms sleep was not counted');
});
