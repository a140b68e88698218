// Drives one module instance: batches inputs, calls the module, performs its effects
// (wasm/ABI.md). The module never waits for us; we never block it: every effect is performed
// asynchronously and its completion becomes an input of a later batch.

import { Artifacts } from './artifacts.js';
import { A2APortError, fromWire } from './errors.js';
import { FrameWriter, readFrame, slice } from './frame.js';
import { CredentialError, HeaderFunctionError, inBrowser } from './credentials.js';

const nowNanos = () => Date.now() * 1e6;
const decoder = new TextDecoder();

export class Driver {
  /**
   * @param instance an Instance (instance.js) on this thread, or a RemoteInstance (thread.js)
   *   in a worker, whose exchange answers asynchronously
   * @param host {fetchImpl, credentials, contextStore, dispatch(fn), onTrap(driver)}
   */
  constructor(instance, host) {
    this.instance = instance;
    this.host = host;
    this.inbox = [];
    this.scheduled = false;
    this.running = false;
    this.dead = null;
    this.nextCall = 0;
    this.calls = new Map(); // id → {method, onEvent, resolve, reject}
    this.fetches = new Map(); // id → {controller, reader}
    this.timers = new Map(); // id → timeout handle
    this.artifacts = new Map(); // submit call id → Artifacts: the whole artifacts its events rebuild
    this.reads = 0;
    // In a worker, where no call can be answered at once: the module's runtime status and
    // description as its last batch left them (each batch asks for them: wasm/ABI.md, snapshot),
    // and the active Works as their calls and events say (workId → {ownerId, state, callId}).
    this.snapshot = { runtime: null, description: null, describeStale: true };
    this.works = new Map();
  }

  /** Queues an input for the next batch. */
  push(envelope, data) {
    if (this.dead) return;
    this.inbox.push({ envelope, data });
    if (!this.scheduled) {
      this.scheduled = true;
      queueMicrotask(() => {
        this.scheduled = false;
        this.flush();
      });
    }
  }

  /**
   * Starts an API call; resolves with the result envelope. An aborted signal ends the call's
   * context in the module, as a cancelled context ends a native call.
   */
  call(method, args = {}, onEvent, signal) {
    if (this.dead) return Promise.reject(this.dead);
    const id = ++this.nextCall;
    const workId = method === 'submit' ? args.work?.id : method === 'resume' ? args.workId : undefined;
    const p = new Promise((resolve, reject) => this.calls.set(id, { method, onEvent, resolve, reject, workId }));
    if (this.instance.remote && workId !== undefined && !this.works.has(workId)) {
      this.works.set(workId, { ownerId: method === 'submit' ? args.work?.ownerId : args.ownerId, state: 'submitted', callId: id });
    }
    this.push({ k: 'call', id, m: method, ...args });
    if (signal) {
      const abort = () => this.push({ k: 'abortCall', id });
      signal.addEventListener('abort', abort, { once: true });
      p.finally(() => signal.removeEventListener('abort', abort)).catch(() => {});
    }
    return p;
  }

  /** What the module says of a Work, or of the runtime when workId is empty, at once. */
  status(workId, ownerId) {
    if (!this.instance.remote) return this.callSync('status', { workId, ownerId }).status;
    if (!workId) return this.snapshot.runtime ?? { state: 'idle' };
    const w = this.works.get(workId);
    return w && w.ownerId === ownerId ? { state: w.state } : { state: 'not_found' };
  }

  /** describe(), at once; null when an instance in a worker has not answered yet. */
  describe() {
    if (!this.instance.remote) return this.callSync('describe').description;
    return this.snapshot.description;
  }

  /** Runs a call that the module answers within one batch (describe, status). */
  callSync(method, args = {}) {
    if (this.dead) throw this.dead;
    let result;
    const id = ++this.nextCall;
    this.calls.set(id, { method, resolve: (e) => { result = e; }, reject: (e) => { result = e; } });
    this.inbox.push({ envelope: { k: 'call', id, m: method, ...args } });
    this.flush();
    if (result === undefined) throw new A2APortError('INTERNAL', `a2aport: the module did not answer ${method} at once`);
    if (result instanceof Error) throw result;
    return result;
  }

  /** Sends everything queued to the module and performs the effects it returns. */
  flush() {
    if (this.running || this.dead || this.inbox.length === 0) return;
    this.running = true;
    if (this.instance.remote) {
      this.flushRemote();
      return;
    }
    try {
      while (this.inbox.length > 0 && !this.dead) {
        try {
          // Whatever the module returns, a bad frame included, ends here: never in the host's loop.
          this.perform(this.instance.exchange(this.nextFrame()));
        } catch (e) {
          this.die(e);
          return;
        }
      }
    } finally {
      this.running = false;
    }
  }

  /** flush for an instance in a worker: one batch in flight; what comes meanwhile goes next. */
  async flushRemote() {
    try {
      while (this.inbox.length > 0 && !this.dead) {
        try {
          this.perform(await this.instance.exchange(this.nextFrame()));
        } catch (e) {
          this.die(e);
          return;
        }
      }
    } finally {
      this.running = false;
    }
  }

  /** The next input frame: everything queued, and for a worker the snapshot calls. */
  nextFrame() {
    const batch = this.inbox;
    this.inbox = [];
    const w = new FrameWriter();
    for (const { envelope, data } of batch) {
      if (data) envelope.body = w.bytes(data);
      w.add(envelope);
    }
    if (!this.instance.remote) return w.encode(nowNanos());
    // The description changes with discovery: asked for with each batch until it says the agent
    // is discovered, then again only when a call settles or a Work starts to report.
    const describe = this.snapshot.describeStale || this.snapshot.description?.discovered !== true;
    const snapshot = describe ? { describe: true } : {};
    this.snapshot.describeStale = false;
    return w.encode(nowNanos(), snapshot);
  }

  /** The instance trapped: every pending call fails, fetches and timers stop. */
  die(cause) {
    const stderr = this.instance.stderr.split('\n').slice(0, 3).join(' | ');
    const message = this.host.credentials.redact(`a2aport: the WebAssembly module stopped: ${cause?.message ?? cause}${stderr ? `: ${stderr}` : ''}`);
    this.dead = new A2APortError('MODULE_TRAPPED', message, { cause });
    this.release();
    this.host.onTrap(this);
  }

  /** Stops the instance's fetches and timers and rejects its pending calls with the reason. */
  release(reason = this.dead) {
    this.dead ??= reason;
    for (const f of this.fetches.values()) f.controller.abort();
    for (const t of this.timers.values()) clearTimeout(t);
    this.fetches.clear();
    this.timers.clear();
    this.artifacts.clear();
    this.works.clear();
    this.instance.release();
    const calls = [...this.calls.values()];
    this.calls.clear();
    for (const c of calls) {
      if (followsWork(c.method)) this.host.dispatch(() => c.reject(reason));
      else c.reject(reason);
    }
  }

  perform(frame) {
    const { envelopes, payload } = readFrame(frame);
    for (const e of envelopes) {
      switch (e.k) {
        case 'fetch': this.fetch(e, slice(payload, e.body).slice()); break;
        case 'read': this.read(e.id); break;
        case 'abort': this.abort(e.id); break;
        case 'set': this.timers.set(e.id, setTimeout(() => {
          this.timers.delete(e.id);
          this.push({ k: 'timer', id: e.id });
        }, (e.ns ?? 0) / 1e6)); break;
        case 'clear': clearTimeout(this.timers.get(e.id)); this.timers.delete(e.id); break;
        case 'event': this.event(e); break;
        case 'result': this.result(e, payload); break;
        case 'store': this.store(e); break;
        case 'snapshot':
          this.snapshot.runtime = e.status;
          if (e.description) this.snapshot.description = e.description;
          break;
        default: this.die(new Error(`unknown effect ${e.k}`)); return;
      }
    }
  }

  fetch(e, body) {
    const controller = new AbortController();
    const entry = { controller, reader: null };
    this.fetches.set(e.id, entry);
    const fail = (err) => this.push({ k: 'failed', id: e.id, error: this.fetchError(err, e.url) });
    (async () => {
      const creds = this.host.credentials;
      const send = async () => {
        const { url, headers, fetched, carried } = await creds.apply(e.url, e.m, e.headers, e.auth);
        const fetchImpl = this.host.fetchImpl; // called unbound: a browser's fetch refuses any other `this`
        const res = await fetchImpl(url, {
          method: e.m, headers, body: body.byteLength > 0 ? body : undefined, signal: controller.signal,
          redirect: redirectMode(carried),
        });
        if (res.type === 'opaqueredirect') throw new RedirectHidden();
        return { res, fetched };
      };
      let { res, fetched } = await send();
      if (res.status === 401 && fetched.size > 0) {
        // The agent refused a token from a token endpoint (revoked, expired early): once more
        // with a fresh one.
        await res.body?.cancel().catch(() => {});
        creds.forget(fetched);
        ({ res } = await send());
      }
      entry.reader = res.body ? res.body.getReader() : null;
      const h = {};
      res.headers.forEach((value, name) => { (h[name] ??= []).push(value); });
      this.push({ k: 'response', id: e.id, httpStatus: res.status, headers: h });
    })().catch(fail);
  }

  /** Reads one chunk, only when the module asks: a slow reader never makes us buffer unasked. */
  read(id) {
    const entry = this.fetches.get(id);
    if (!entry) return;
    this.reads++;
    if (!entry.reader) {
      this.push({ k: 'end', id });
      return;
    }
    entry.reader.read().then(({ done, value }) => {
      if (value?.byteLength) this.push({ k: 'chunk', id }, value);
      if (done) this.push({ k: 'end', id });
      else if (!value?.byteLength) this.read(id);
    }, (err) => this.push({ k: 'failed', id, error: this.fetchError(err) }));
  }

  abort(id) {
    const entry = this.fetches.get(id);
    if (!entry) return;
    this.fetches.delete(id);
    entry.controller.abort();
    entry.reader?.cancel().catch(() => {}); // already ended or aborted: nothing to report
  }

  fetchError(err, url) {
    let code = 'A2A_NETWORK_ERROR';
    let status;
    if (err instanceof HeaderFunctionError) code = 'A2A_HEADERS_FAILED';
    else if (err instanceof RedirectHidden) code = 'A2A_REDIRECT_HIDDEN';
    else if (err instanceof CredentialError) {
      code = err.retry ? 'A2A_NETWORK_NOT_SENT' : 'A2A_AUTH_REQUIRED';
      if (err.status) status = err.status;
    }
    else if (neverConnected(err)) code = 'A2A_NETWORK_NOT_SENT';
    const message = String(err?.message ?? err) + (code === 'A2A_NETWORK_ERROR' ? corsHint(url) : '');
    return { code, status, message: this.host.credentials.redact(message) };
  }

  event(e) {
    const c = this.calls.get(e.id);
    let artifacts = this.artifacts.get(e.id);
    if (!artifacts) {
      this.artifacts.set(e.id, (artifacts = new Artifacts()));
      this.snapshot.describeStale = true; // a Work's first event: discovery has happened
    }
    const ev = this.host.redactEvent(artifacts.rebuild(e.event));
    const w = c && this.works.get(c.workId);
    if (w?.callId === e.id && ev.type === 'backend.activity' && ev.state) w.state = ev.state;
    this.host.dispatch(() => this.host.deliver(ev, c?.onEvent));
  }

  result(e, payload) {
    this.snapshot.describeStale = true;
    if (e.id === 0 && e.error) {
      // The module could not read a frame: whatever it carried (answers to fetches, timers) is
      // lost, so this instance cannot be trusted; its calls fail and the next starts afresh.
      this.die(new Error(e.error.message));
      return;
    }
    if (e.outcome) {
      if (e.contentBody) e.outcome.content = decoder.decode(slice(payload, e.contentBody));
      e.outcome = (this.artifacts.get(e.id) ?? new Artifacts()).outcome(e.outcome, e.reuse, e.contentFrom);
    }
    this.artifacts.delete(e.id);
    const c = this.calls.get(e.id);
    if (!c) return;
    this.calls.delete(e.id);
    if (this.works.get(c.workId)?.callId === e.id) this.works.delete(c.workId);
    const settle = e.error
      ? () => c.reject(fromWire({ ...e.error, message: this.host.credentials.redact(e.error.message) }))
      : () => c.resolve(e);
    // A submit or resume settles after its events, in order; other calls settle at once.
    if (followsWork(c.method)) this.host.dispatch(settle);
    else settle();
  }

  store(e) {
    if (e.m === 'hold' || e.m === 'release') return;
    const works = e.m.startsWith('work');
    const store = works ? this.host.workStore : this.host.contextStore;
    (async () => {
      if (!store) throw new Error(`no store for ${e.m}`);
      switch (e.m) {
        case 'get': {
          const contextId = await store.get(e.ownerId);
          return contextId ? { contextId, found: true } : {};
        }
        case 'set': await store.set(e.ownerId, e.contextId); return {};
        case 'delete': await store.delete(e.ownerId); return {};
        case 'workGet': {
          const record = await store.get(e.workId);
          return record ? { record, found: true } : {};
        }
        case 'workSet': await store.set(e.record); return {};
        case 'workDelete': await store.delete(e.workId); return {};
        default: throw new Error(`unknown store method ${e.m}`);
      }
    })().then(
      (answer) => this.push({ k: 'storeDone', id: e.id, ...answer }),
      (err) => this.push({ k: 'storeDone', id: e.id, error: { code: 'INTERNAL', message: this.host.credentials.redact(String(err?.message ?? err)) } }),
    );
  }
}

/**
 * In a page, a request to another origin that fails without a reason is most often one the browser
 * blocked for want of CORS (the page cannot tell: the browser hides why). Says what to check.
 */
function corsHint(url) {
  const page = globalThis.location?.origin;
  if (!url || !page || page === 'null' || globalThis.process?.versions?.node) return '';
  let target;
  try {
    target = new URL(url).origin;
  } catch {
    return '';
  }
  if (target === page) return '';
  return ` (from a page on ${page} to an agent on ${target}: if the network is fine, the browser likely blocked it for CORS;` +
    ` the agent must allow this origin, the methods GET, POST and OPTIONS and the request headers a2aport sends:` +
    ` Content-Type, A2A-Version, and Authorization, A2A-Extensions, traceparent and your own headers when used)`;
}

/**
 * How a fetch treats a redirect. Fetch itself would follow one anywhere, taking the caller's
 * headers along (only Authorization is dropped across origins), so the module decides instead:
 * in Node the redirect comes back to it (manual), and its HTTP client follows it only where the
 * origin policy lets requests go, each hop a new fetch with the credentials for that place. A
 * browser hides a manual redirect (an opaque response): there a request that carries the caller's
 * secrets follows none, and one that carries none is left to the browser.
 */
function redirectMode(carried) {
  return inBrowser() && !carried ? 'follow' : 'manual';
}

/** A redirect a browser answered opaquely (see redirectMode). */
class RedirectHidden extends Error {}

/** Whether a call runs a Work (its events come first, then its settlement). */
const followsWork = (method) => method === 'submit' || method === 'resume';

/** Causes (Node, undici) that say the connection was never made: the request did not leave. */
const notConnected = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * Whether a failed fetch provably never sent its request. Browsers do not say why a fetch
 * failed: there a send's fate stays unknown (the safe answer).
 */
function neverConnected(err) {
  let e = err;
  for (let depth = 0; e && depth < 4; depth++, e = e.cause) {
    if (notConnected.has(e.code)) return true;
  }
  return false;
}
