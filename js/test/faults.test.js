// Whatever the module returns, the host process lives: a packed result that reads negative, a
// frame outside the module's memory, a frame shorter than its header or an unknown effect each
// become MODULE_TRAPPED for the pending calls, never an exception in Node's event loop. The real
// module runs; only the value its export returns is replaced.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';

import { createCredentials } from '../src/credentials.js';
import { Driver } from '../src/driver.js';
import { instantiate } from '../src/loader.js';

const module = await WebAssembly.compile(await readFile(new URL('../a2aport.wasm', import.meta.url)));

/** A driver over a real instance whose a2aport_call answer is replaced by forge(realCall, args). */
async function forgedDriver(forge) {
  const instance = await instantiate(module);
  const call = instance.exports.a2aport_call;
  instance.exports = { ...instance.exports, a2aport_call: (ptr, len) => forge(call, ptr, len, instance.exports.memory) };
  const trapped = [];
  const driver = new Driver(instance, {
    fetchImpl: fetch, credentials: createCredentials({}), contextStore: undefined,
    dispatch: (fn) => fn(), deliver: () => {}, redactEvent: (ev) => ev, onTrap: (d) => trapped.push(d),
  });
  return { driver, trapped };
}

/** Writes a frame of the given bytes into the module's memory, past what it uses. */
function plant(memory, bytes) {
  const at = memory.buffer.byteLength - bytes.byteLength - 16;
  new Uint8Array(memory.buffer, at, bytes.byteLength).set(bytes);
  return BigInt(at) << 32n | BigInt(bytes.byteLength);
}

const forgeries = {
  'a packed result that reads negative (a pointer past 2 GiB)': () => -(1n << 40n),
  'a frame outside the module memory': (call, ptr, len, memory) => BigInt(memory.buffer.byteLength - 8) << 32n | 64n,
  'a frame shorter than its header': (call, ptr, len, memory) => plant(memory, new Uint8Array([200, 0, 0, 0, 123])),
  'a frame whose header is not JSON': (call, ptr, len, memory) => plant(memory, new Uint8Array([2, 0, 0, 0, 123, 123])),
  'an effect of unknown kind': (call, ptr, len, memory) => plant(memory, new Uint8Array([...new Uint8Array(new Uint32Array([21]).buffer), ...new TextEncoder().encode('{"e":[{"k":"launch"}]}')])),
};

describe('a module that returns nonsense', () => {
  for (const [name, forge] of Object.entries(forgeries)) {
    it(`${name}: MODULE_TRAPPED, the process lives`, async () => {
      const { driver, trapped } = await forgedDriver(forge);
      await assert.rejects(driver.call('describe'), (err) => err.code === 'MODULE_TRAPPED');
      assert.equal(trapped.length, 1, 'the host is told once that the instance is dead');
      await assert.rejects(driver.call('describe'), (err) => err.code === 'MODULE_TRAPPED', 'later calls fail the same way');
    });
  }
});
