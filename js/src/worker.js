// The module's side of the `worker` option (thread.js): compiles, instantiates and calls module
// instances for the thread that created this worker, and nothing else. Every effect (fetch,
// credentials, stores, timers, events) is performed over there, where the caller's functions are.

import { instantiate } from './instance.js';
import { loadModule } from './loader.js';

const instances = new Map(); // id → Instance
let nextInstance = 0;

async function handle(msg) {
  switch (msg.op) {
    case 'instantiate': {
      const module = await loadModule({ wasm: msg.wasm }, globalThis.fetch, msg.bytes);
      const instance = await instantiate(module);
      instances.set(++nextInstance, instance);
      return { instance: nextInstance };
    }
    case 'exchange': {
      const instance = instances.get(msg.instance);
      if (!instance) throw new Error('the instance is gone');
      try {
        const frame = instance.exchange(new Uint8Array(msg.frame));
        return { frame, counters: instance.counters, transfer: [frame.buffer] };
      } catch (e) {
        // A trap: the instance is dead; its stderr says why.
        instances.delete(msg.instance);
        return { error: { message: String(e?.message ?? e), stderr: instance.stderr } };
      }
    }
    case 'release':
      instances.delete(msg.instance);
      return {};
    default:
      throw new Error(`unknown request ${msg.op}`);
  }
}

/** Answers each request with its id, in the order they complete. */
function serve(post) {
  return (msg) => {
    handle(msg).then(
      ({ transfer, ...answer }) => post({ id: msg.id, ...answer }, transfer ?? []),
      (e) => post({ id: msg.id, error: { message: String(e?.message ?? e), stderr: '', status: e?.status, retryable: e?.retryable === true || e instanceof TypeError } }),
    );
  };
}

// No top-level await: bundlers build workers as scripts (Vite's default format). Node buffers the
// messages that arrive before the listener is attached.
if (globalThis.process?.versions?.node && typeof globalThis.WorkerGlobalScope === 'undefined') {
  const specifier = 'node:worker_threads'; // never resolved by a bundler
  import(/* @vite-ignore */ /* webpackIgnore: true */ specifier).then(({ parentPort }) => {
    parentPort.on('message', serve((m, t) => parentPort.postMessage(m, t)));
  });
} else {
  globalThis.addEventListener('message', (e) => serve((m, t) => globalThis.postMessage(m, t))(e.data));
}
