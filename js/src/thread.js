// The `worker` option: module instances run in a worker (a Web Worker in a page or an Electron
// renderer, worker_threads in Node), so compiling, starting and running the module never block
// this thread. The worker only calls the module (worker.js); the Driver here performs every
// effect as it does inline, with the caller's fetchImpl, headers, tokenProvider and stores. One
// worker serves every adapter of this thread.

import { A2APortError } from './errors.js';
import { moduleURL } from './loader.js';
import { moduleHTTPError } from './platform.js';

let shared = null; // the worker, started on first use

function thread() {
  shared ??= startWorker();
  return shared;
}

/**
 * The worker could not start or died before it ever answered: this page or process cannot run
 * one (a CSP without worker-src, a sandbox). The adapter then runs the module on its own thread,
 * unless the caller asked for a worker.
 */
export class WorkerUnavailableError extends Error {}

function startWorker() {
  const pending = new Map(); // request id → {resolve, reject}
  let next = 0;
  let port;
  let answered = false;
  const answer = (msg) => {
    answered = true;
    const p = pending.get(msg.id);
    if (!p) return;
    pending.delete(msg.id);
    if (pending.size === 0) port.unref();
    p.resolve(msg);
  };
  const fail = (err) => {
    const calls = [...pending.values()];
    pending.clear();
    if (shared === thisThread) shared = null; // the next adapter starts a fresh worker
    compiledThere.clear();
    const message = String(err?.message ?? err);
    const reason = answered ? (err instanceof Error ? err : new Error(message)) : new WorkerUnavailableError(`a2aport: the module's worker did not start: ${message}`);
    for (const p of calls) p.reject(reason);
  };
  const ready = (async () => {
    if (globalThis.process?.versions?.node && typeof globalThis.Worker === 'undefined') {
      const specifier = 'node:worker_threads'; // never resolved by a bundler
      const { Worker } = await import(/* @vite-ignore */ /* webpackIgnore: true */ specifier);
      const w = new Worker(new URL('./worker.js', import.meta.url));
      w.on('message', answer);
      w.on('error', fail);
      w.on('exit', (code) => fail(new Error(`the module's worker exited (${code})`)));
      w.unref(); // an idle worker never keeps the process alive; a pending request does
      port = { post: (m, t) => w.postMessage(m, t), ref: () => w.ref(), unref: () => w.unref() };
    } else {
      // The form bundlers recognise (new Worker(new URL(..., import.meta.url))): they emit it.
      const w = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
      w.addEventListener('message', (e) => answer(e.data));
      w.addEventListener('error', (e) => fail(new Error(e.message ?? 'its script did not load (a Content-Security-Policy without worker-src?)')));
      port = { post: (m, t) => w.postMessage(m, t), ref() {}, unref() {} };
    }
  })();
  ready.catch((e) => fail(e)); // a worker that cannot even be created
  const thisThread = {
    async request(msg, transfer = []) {
      try {
        await ready;
      } catch (e) {
        throw new WorkerUnavailableError(`a2aport: the module's worker did not start: ${e?.message ?? e}`);
      }
      const id = ++next;
      const p = new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
      port.ref();
      port.post({ ...msg, id }, transfer);
      return p;
    },
  };
  return thisThread;
}

/** Module URLs the worker has compiled (it keeps them: loader.js), however it read them. */
const compiledThere = new Set();

/**
 * Creates an instance of the module `wasm` names (loader.loadModule's options) in the worker. A
 * URL is fetched and compiled there, unless the caller gave their own fetchImpl: then this thread
 * reads it with that, as inline (loader.js), once, and the worker compiles the bytes. A Response
 * is read here.
 */
export async function remoteInstance(options, fetchImpl) {
  const t = thread();
  let { wasm } = options;
  let bytes;
  const url = moduleURL(options);
  if (url !== null) {
    wasm = url;
    if (fetchImpl !== globalThis.fetch && !url.startsWith('file:') && !compiledThere.has(url)) {
      const response = await fetchImpl(new URL(url));
      if (!response.ok) throw moduleHTTPError(response.status);
      bytes = await response.arrayBuffer();
    }
  } else if (typeof Response !== 'undefined' && wasm instanceof Response) {
    wasm = await wasm.arrayBuffer();
  }
  const reply = await t.request({ op: 'instantiate', wasm, bytes }, bytes ? [bytes] : []);
  if (reply.error) {
    const { message, status, retryable } = reply.error;
    throw new A2APortError('MODULE_UNAVAILABLE', `a2aport: the module did not start in its worker: ${message}`, { status, retryable });
  }
  if (url !== null) compiledThere.add(url);
  return new RemoteInstance(t, reply.instance);
}

/** An instance in the worker, as the Driver uses it: exchange is asynchronous there. */
class RemoteInstance {
  remote = true;
  stderr = '';
  counters = { sleeps: 0, memoryBytes: 0 };

  constructor(thread, id) {
    this.thread = thread;
    this.id = id;
  }

  async exchange(frame) {
    const reply = await this.thread.request({ op: 'exchange', instance: this.id, frame: frame.buffer }, [frame.buffer]);
    if (reply.error) {
      this.stderr = reply.error.stderr ?? '';
      throw new Error(reply.error.message);
    }
    this.counters = reply.counters;
    return reply.frame;
  }

  release() {
    this.thread.request({ op: 'release', instance: this.id }).catch(() => {}); // the worker may be gone
  }
}
