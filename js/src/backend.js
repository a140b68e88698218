// The BackendPort itself: an A2A client that is the Go adapter compiled to WebAssembly. This package
// only loads the module, performs the effects it asks for (fetch, timers, the stores) and exposes
// the port. There is one module, a2aport.wasm (A2A 1.0 and 0.3, card signatures): the entry
// points (index.js, v1.js) both load it, unless the caller gives their own (the `wasm` option).

import { closedAnswers } from './closed.js';
import { createCredentials, hostCredentials } from './credentials.js';
import { Driver } from './driver.js';
import { A2APortError } from './errors.js';
import { instantiate, loadModule } from './loader.js';
import { optionTable } from './optiontable.js';
import { PushAnswer, pushHeaders, readPushBody } from './push.js';
import { remoteInstance, WorkerUnavailableError } from './thread.js';
import { checkResponse, checkWork, idsReadable } from './work.js';

/** A Work's outcome as submit() and resume() give it. */
const outcomeOf = ({ text, content, artifacts, messageReply }) => (messageReply ? { text, content, artifacts, messageReply } : { text, content, artifacts });

/** How a Work that settled so ended, as cancel() reports it. */
function endState({ ok, err }) {
  if (ok) return 'completed';
  switch (err?.code) {
    case 'A2A_TASK_FAILED': return 'failed';
    case 'A2A_TASK_REJECTED': return 'rejected';
    case 'WORK_CANCELLED': case 'ADAPTER_CLOSED': return 'cancelled'; // ended here
    default: return 'failed';
  }
}

/** How often cancel() asks again about a Work the module does not know yet (see #cancelWork). */
const TRANSIT_POLL_MS = 10;

/**
 * The module the package ships, next to src/. A bundler sees `new URL(..., import.meta.url)` and
 * emits the file it names as an asset. This is the one place that names it.
 */
const bundledModule = new URL('../a2aport.wasm', import.meta.url);

/**
 * What a closed adapter answers `call` with, as the Go adapter states it (closed.js is generated
 * from adapter.ClosedPort): the module that could say it is gone.
 */
const closedError = (call = 'start', workId = '') => {
  const { code, message } = closedAnswers[call];
  return new A2APortError(code, message.replace('%s', JSON.stringify(workId)));
};

/** The BackendPort, on the module the options give (`wasm`) or the one the package ships. */
export class Backend {
  #o;
  #credentials;
  #listeners = new Set();
  #queue = [];
  #draining = false;
  #driver = null; // the live instance's driver
  #starting = null; // the promise of the instance being created
  #closed = false;
  #lastDescription = null;
  #calls = new Map(); // work id → its submit and resume calls under way
  #settling = new Map(); // work id → resolves with {ok} or {err} when its submit or resume settles
  #cancels = new Map(); // work id → the cancel() under way for it

  constructor(options) {
    this.#o = options;
    this.#credentials = createCredentials(options);
  }

  /** What to load: the caller's module (`wasm`) as is, or the one the package ships. */
  #module() {
    return { wasm: this.#o.wasm ?? bundledModule };
  }

  /** A fresh instance of the module, in a worker or here; MODULE_UNAVAILABLE if none. */
  async #newInstance() {
    try {
      if (this.#o.worker) {
        try {
          return await remoteInstance(this.#module(), this.#o.fetchImpl);
        } catch (e) {
          if (!(e instanceof WorkerUnavailableError) || this.#o.workerAsked) throw e;
          this.#o.worker = false; // this page cannot run a worker: the module runs here, as before
        }
      }
      return await instantiate(await loadModule(this.#module(), this.#o.fetchImpl));
    } catch (e) {
      if (e instanceof A2APortError) throw e;
      // A TypeError is fetch's network failure: the next start may succeed.
      const why = String(e?.message ?? e).replace(/^a2aport: /, '');
      throw new A2APortError('MODULE_UNAVAILABLE', `a2aport: the module did not start: ${why}`, { cause: e, retryable: e instanceof TypeError });
    }
  }

  /** Returns the live driver, instantiating the module on first use and after a trap. */
  #ready() {
    if (this.#closed) return Promise.reject(closedError());
    if (this.#driver) return Promise.resolve(this.#driver);
    this.#starting ??= (async () => {
      const instance = await this.#newInstance();
      const driver = new Driver(instance, {
        fetchImpl: this.#o.fetchImpl,
        credentials: this.#credentials,
        contextStore: this.#o.contextStore,
        workStore: this.#o.workStore,
        dispatch: (fn) => this.#dispatch(fn),
        deliver: (ev, onEvent) => this.#deliver(ev, onEvent),
        redactEvent: (ev) => this.#redactEvent(ev),
        onTrap: (d) => { if (this.#driver === d) this.#driver = null; },
      });
      await driver.call('init', { init: this.#init() });
      this.#driver = driver;
      return driver;
    })().finally(() => { this.#starting = null; });
    return this.#starting;
  }

  /** The module's init (wasm/ABI.md): the options of the table that cross as they are, then the others. */
  #init() {
    const o = this.#o;
    const init = {};
    for (const { name, wire } of optionTable) {
      if (wire && o[name] !== undefined) init[name] = o[name];
    }
    return {
      ...init, agentCard: o.agentCard, legacyCompat: o.legacyCompat,
      cardKeys: Array.isArray(o.cardKeys) ? { keys: o.cardKeys } : o.cardKeys,
      hostContextStore: o.contextStore !== undefined, hostWorkStore: o.workStore !== undefined,
      hostCredentials: hostCredentials(o),
    };
  }

  /** Runs listeners and submit settlements in order, after the batch that produced them. */
  #dispatch(fn) {
    this.#queue.push(fn);
    if (this.#draining) return;
    this.#draining = true;
    queueMicrotask(() => {
      while (this.#queue.length > 0) this.#queue.shift()();
      this.#draining = false;
    });
  }

  #deliver(ev, onEvent) {
    for (const listener of [onEvent, ...this.#listeners]) {
      if (!listener) continue;
      try {
        listener(ev);
      } catch {
        // A throwing listener must not break the adapter or the other listeners.
      }
    }
  }

  #redactEvent(ev) {
    if (ev.text === undefined && ev.input === undefined) return ev; // an artifact event: nothing to redact
    const r = (s) => this.#credentials.redact(s);
    return { ...ev, text: r(ev.text), input: ev.input && { ...ev.input, prompt: r(ev.input.prompt) } };
  }

  async #call(method, args, onEvent, signal, body) {
    const driver = await this.#ready();
    return driver.call(method, args, onEvent, signal, body);
  }

  describe() {
    if (this.#driver && !this.#closed) {
      try {
        this.#lastDescription = this.#driver.describe() ?? this.#lastDescription;
      } catch {
        // a trapped instance: describe from what is known
      }
    }
    return this.#lastDescription ?? this.#staticDescription();
  }

  /** What options alone say, before the module runs (the module answers the same way). */
  #staticDescription() {
    const o = this.#o;
    const card = o.agentCard;
    const label = o.label || card?.name || (o.agentCardUrl ? new URL(o.agentCardUrl).host : 'A2A agent');
    return {
      protocol: 'a2a', label, discovered: false, ...(o.agentCardUrl ? { agentCardUrl: o.agentCardUrl } : {}),
      ...(card?.name ? { agentName: card.name } : {}), ...(card?.version ? { agentVersion: card.version } : {}),
      capabilities: {
        cancel: true, streaming: card?.capabilities?.streaming === true, inputRequests: true,
        continuity: o.reuseContext, authorization: false, messageReplies: true,
      },
    };
  }

  async start() {
    return (await this.#call('start')).health;
  }

  async health() {
    if (this.#closed) return { ...closedAnswers.health };
    return (await this.#call('health')).health;
  }

  async submit(work, { signal, onEvent, traceparent } = {}) {
    if (signal?.aborted) throw new A2APortError('WORK_CANCELLED', 'a2aport: the signal was aborted before submit');
    if (traceparent !== undefined && typeof traceparent !== 'string') {
      throw new A2APortError('INVALID_WORK', 'a2aport: traceparent must be a string (a W3C trace context)');
    }
    checkWork(work);
    // Aborting ends only this submit (a duplicate's abort leaves the active Work alone).
    const res = await this.#underWay(work.id, () => this.#call('submit', { work, traceparent }, onEvent, signal));
    return outcomeOf(res.outcome);
  }

  /**
   * Re-attaches to a Work a previous adapter left running (a page before its reload), from the
   * workStore's record, and settles as its submit would have; nothing is sent again.
   */
  async resume(workId, { ownerId, signal, onEvent, traceparent } = {}) {
    if (signal?.aborted) throw new A2APortError('WORK_CANCELLED', 'a2aport: the signal was aborted before resume');
    if (typeof workId !== 'string' || typeof ownerId !== 'string') {
      throw new A2APortError('WORK_NOT_FOUND', 'a2aport: resume needs a work id and its owner id');
    }
    if (traceparent !== undefined && typeof traceparent !== 'string') {
      throw new A2APortError('INVALID_WORK', 'a2aport: traceparent must be a string (a W3C trace context)');
    }
    const res = await this.#underWay(workId, () => this.#call('resume', { workId, ownerId, traceparent }, onEvent, signal));
    return outcomeOf(res.outcome);
  }

  status(workId, { ownerId } = {}) {
    const runtime = (st) => ({ state: st.state, started: st.started === true, activeWorks: st.activeWorks ?? 0 });
    if (this.#closed) return workId ? { ...closedAnswers.workStatus } : runtime(closedAnswers.runtimeStatus);
    if (!this.#driver) return workId ? { state: 'not_found' } : runtime({ state: 'idle' });
    if (!idsReadable(workId, ownerId)) return { state: 'not_found' };
    try {
      const st = this.#driver.status(workId, ownerId);
      return workId ? { state: st.state } : runtime(st);
    } catch {
      return workId ? { state: 'not_found' } : runtime({ state: 'idle' });
    }
  }

  /**
   * Cancels a Work. It resolves once the Work has settled (its submit's promise rejects with
   * WORK_CANCELLED after it, never before: `const p = submit(w); await cancel(w.id); await p`
   * sees the rejection where it awaits it), and it never rejects a cancel that happened: a
   * close() meanwhile still answers how the Work ended.
   */
  cancel(workId, { ownerId } = {}) {
    if (this.#closed || !idsReadable(workId, ownerId)) return Promise.resolve({ ...closedAnswers.cancel });
    const settled = this.#settling.get(workId);
    const cancelling = this.#cancelWork(workId, ownerId, settled);
    if (settled) {
      this.#cancels.set(workId, cancelling);
      const forget = () => { if (this.#cancels.get(workId) === cancelling) this.#cancels.delete(workId); };
      cancelling.then(forget, forget);
    }
    return cancelling;
  }

  async #cancelWork(workId, ownerId, settled) {
    let res;
    try {
      // A Work whose submit or resume is under way may be unknown to the module for a moment (the
      // call has not reached the module yet, or waits for its workStore record): ask again until
      // the module knows it or that call has ended, so that no cancel is lost.
      for (;;) {
        res = (await this.#call('cancel', { workId, ownerId })).cancel;
        if (res.state !== 'not_found' || !this.#calls.has(workId) || this.#closed) break;
        await new Promise((resolve) => setTimeout(resolve, TRANSIT_POLL_MS));
      }
    } catch (err) {
      if (!settled || !this.#closed) throw err;
      // close() ended the adapter under this cancel: the Work's own end says what happened.
      return { workId, state: endState(await settled) };
    }
    if (res.state === 'cancelled' && settled) await settled; // resolves once the Work has settled
    return res;
  }

  /** Counts a submit or resume of workId while call() runs (see cancel), and settles in order. */
  async #underWay(workId, call) {
    this.#calls.set(workId, (this.#calls.get(workId) ?? 0) + 1);
    let settle;
    const settled = new Promise((resolve) => { settle = resolve; });
    if (!this.#settling.has(workId)) this.#settling.set(workId, settled);
    try {
      const res = await call();
      settle({ ok: true });
      return res;
    } catch (err) {
      settle({ err });
      const cancelling = this.#cancels.get(workId);
      if (cancelling) await cancelling.catch(() => {}); // the cancel resolves first
      throw err;
    } finally {
      if (this.#settling.get(workId) === settled) this.#settling.delete(workId);
      const n = this.#calls.get(workId) - 1;
      if (n > 0) this.#calls.set(workId, n);
      else this.#calls.delete(workId);
    }
  }

  async respondInput(workId, inputRequestId, response, { ownerId } = {}) {
    if (this.#closed || !idsReadable(workId, inputRequestId, ownerId)) throw closedError('respondInput', workId);
    checkResponse(response);
    await this.#call('respondInput', { workId, inputRequestId, response: response ?? {}, ownerId });
  }

  async respondAuthorization(workId, inputRequestId, response, { ownerId } = {}) {
    if (this.#closed || !idsReadable(workId, inputRequestId, ownerId)) throw closedError('respondAuthorization', workId);
    checkResponse(response);
    await this.#call('respondAuthorization', { workId, inputRequestId, response: response ?? {}, ownerId });
  }

  /**
   * Takes one request to the webhook of pushWebhookUrl, as a fetch Request, and resolves with the
   * Response to answer it with: 200 when it woke its Work, else the status of the refusal (401
   * no or an unknown token, 400 a body for no Work's task, 413 too large, 405 not a POST).
   */
  async receivePush(request) {
    const { status, message } = await this.#push(request.method, request.headers, () => readPushBody(request.body, request.headers.get('content-length')));
    return new Response(message, { status, headers: status === 405 ? { allow: 'POST' } : { 'content-type': 'text/plain; charset=utf-8' } });
  }

  /**
   * receivePush for a Node server (node:http, Express): reads req, answers res, and resolves once
   * the answer is written.
   */
  async handlePush(req, res) {
    const { status, message } = await this.#push(req.method, req.headers, () => readPushBody(req, req.headers?.['content-length']));
    res.statusCode = status;
    if (status === 405) res.setHeader('allow', 'POST');
    res.setHeader('content-type', 'text/plain; charset=utf-8');
    res.end(message);
  }

  /** What a webhook request is answered: {status, message}. */
  async #push(method, headers, readBody) {
    if ((method ?? 'POST').toUpperCase() !== 'POST') return new PushAnswer(405, 'a push notification is a POST');
    if (this.#closed || !this.#driver) return new PushAnswer(401, 'no Work of this adapter waits for a push');
    try {
      const body = await readBody();
      await this.#call('receivePush', { headers: pushHeaders(headers) }, undefined, undefined, body);
      return new PushAnswer(200);
    } catch (e) {
      if (e instanceof PushAnswer) return e;
      if (e?.code === 'PUSH_REFUSED') return new PushAnswer(e.status ?? 400, e.message.replace(/^a2aport: /, ''));
      return new PushAnswer(503, 'the adapter could not take the push now'); // a sender tries a 5xx again
    }
  }

  subscribe(listener) {
    if (this.#closed || typeof listener !== 'function') return () => {};
    const entry = (ev) => listener(ev);
    this.#listeners.add(entry);
    return () => this.#listeners.delete(entry);
  }

  /** Cancels every active Work at the agent (bounded), rejects pending submits, and stops. */
  close() {
    return this.#shutdown('close');
  }

  /**
   * Stops like close(), but leaves every active Work running at the agent with its workStore
   * record, for resume() in the next adapter (the page after its reload, the app after its
   * update, another server process). Pending submits and resumes reject with WORK_DETACHED.
   */
  detach() {
    return this.#shutdown('detach');
  }

  async #shutdown(method) {
    if (this.#closed) return;
    const driver = this.#driver ?? (this.#starting ? await this.#starting.catch(() => null) : null);
    if (driver && !driver.dead) {
      this.describe(); // remembered for describe() after close
      await driver.call(method).catch(() => {}); // stopping is best-effort by contract
    }
    this.#closed = true;
    this.#listeners.clear();
    driver?.release(closedError());
    this.#driver = null;
  }

  /** Counters for tests: the Go runtime must never ask to sleep (wasm/ABI.md). */
  get [Symbol.for('a2aport.stats')]() {
    const d = this.#driver;
    return {
      runtimeSleeps: d?.instance.counters.sleeps ?? 0, fetches: d?.fetches.size ?? 0, timers: d?.timers.size ?? 0, reads: d?.reads ?? 0,
      memoryBytes: d?.instance.counters.memoryBytes ?? 0, worker: this.#o.worker === true,
      module: this.#o.wasm !== undefined ? 'given' : 'bundled',
    };
  }
}
