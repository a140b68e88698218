// The WASI shim covers exactly the imports the module declares (wasm/exports.txt), and the built
// modules import nothing else.
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

for (const name of ['a2aport.wasm', 'a2aport-1.0.wasm']) {
  test(`${name} imports only what the shim provides`, async () => {
    const module = await WebAssembly.compile(await readFile(new URL(`../${name}`, import.meta.url)));
    const shim = createWasi().imports;
    for (const imp of WebAssembly.Module.imports(module)) {
      assert.equal(typeof shim[imp.module]?.[imp.name], 'function', `${imp.module}.${imp.name} is missing from the shim`);
    }
    const exports = WebAssembly.Module.exports(module).map((e) => e.name).sort();
    assert.deepEqual(exports, ['_initialize', 'a2aport_alloc', 'a2aport_call', 'memory']);
  });
}
