// Drives one module instance: batches inputs, calls the module, performs its effects
// (wasm/ABI.md). The module never waits for us; we never block it: every effect is performed
// asynchronously and its completion becomes an input of a later batch.

import { Artifacts } from './artifacts.js';
import { A2APortError, fromWire } from './errors.js';
import { FrameWriter, readFrame, slice } from './frame.js';
import { CredentialError, HeaderFunctionError, inBrowser } from './credentials.js';

const nowNanos = () => Date.now() * 1e6;
const decoder = new TextDecoder();

/** Why the host aborts a request: the module is done with it (see Driver.abort). */
const released = new Error('a2aport: the adapter is done with this request');

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
  call(method, args = {}, onEvent, signal, body) {
    if (this.dead) return Promise.reject(this.dead);
    const id = ++this.nextCall;
    const workId = method === 'submit' ? args.work?.id : method === 'resume' ? args.workId : undefined;
    const p = new Promise((resolve, reject) => this.calls.set(id, { method, onEvent, resolve, reject, workId }));
    if (this.instance.remote && workId !== undefined && !this.works.has(workId)) {
      this.works.set(workId, { ownerId: method === 'submit' ? args.work?.ownerId : args.ownerId, state: 'submitted', callId: id });
    }
    this.push({ k: 'call', id, m: method, ...args }, body);
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
        case 'event': this.event(e, payload); break;
        case 'more': this.more(e, payload); break;
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
    const fail = async (err) => this.push({ k: 'failed', id: e.id, error: await this.fetchError(err, e.url) });
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
      entry.ended = true;
      this.push({ k: 'end', id });
      return;
    }
    entry.reader.read().then(({ done, value }) => {
      if (value?.byteLength) this.push({ k: 'chunk', id }, value);
      if (done) {
        entry.ended = true;
        this.push({ k: 'end', id });
      } else if (!value?.byteLength) this.read(id);
    }, async (err) => this.push({ k: 'failed', id, error: await this.fetchError(err) }));
  }

  abort(id) {
    const entry = this.fetches.get(id);
    if (!entry) return;
    this.fetches.delete(id);
    if (entry.ended) return; // nothing left to cancel
    // The module ends most requests this way (it stops reading once it has its answer), so the
    // reason is made once: abort() without one builds a DOMException and its stack trace each
    // time (~60 µs of a trivial Work's ~5 ms in a Node profile).
    entry.controller.abort(released);
    entry.reader?.cancel(released).catch(() => {}); // already ended or aborted: nothing to report
  }

  /**
   * Types a failed fetch for the module: what failed, in words, and the runtime's cause (Node
   * names it: ECONNREFUSED, ENOTFOUND). A browser says only "Failed to fetch": there a request to
   * another origin is tried once more without asking anything of CORS, and if the server answers
   * that, the browser's origin policy (CORS) refused the first, which it does at the preflight,
   * before the request leaves.
   */
  async fetchError(err, url) {
    const redact = (text) => this.host.credentials.redact(text);
    if (err instanceof HeaderFunctionError) return { code: 'A2A_HEADERS_FAILED', message: redact(String(err.message)) };
    if (err instanceof RedirectHidden) return { code: 'A2A_REDIRECT_HIDDEN', message: redact(String(err.message)) };
    if (err instanceof CredentialError) {
      return { code: err.retry ? 'A2A_NETWORK_NOT_SENT' : 'A2A_AUTH_REQUIRED', status: err.status || undefined, message: redact(String(err.message)) };
    }
    const cause = systemCause(err);
    if (cause) {
      const message = redact(`${causeWords[cause.code] ?? String(err?.message ?? err)} (${cause.message})`);
      const code = notConnected.has(cause.code) ? 'A2A_NETWORK_NOT_SENT' : broken.has(cause.code) ? 'A2A_NETWORK_BROKEN' : 'A2A_NETWORK_ERROR';
      return { code, message, cause: { code: cause.code, message: redact(cause.message) } };
    }
    const message = redact(String(err?.message ?? err));
    if (url && await blockedByOrigin(url, this.host.fetchImpl)) {
      return { code: 'A2A_NETWORK_BLOCKED', message: redact(`${message}${corsHint(url, true)}`), cause: { message } };
    }
    return { code: 'A2A_NETWORK_ERROR', message: `${message}${url ? redact(corsHint(url, false)) : ''}`, cause: { message } };
  }

  event(e, payload) {
    if (e.deltaText && e.event.delta) e.event.delta.text = decoder.decode(slice(payload, e.deltaText));
    let artifacts = this.artifacts.get(e.id);
    if (!artifacts) {
      this.artifacts.set(e.id, (artifacts = new Artifacts()));
      this.snapshot.describeStale = true; // a Work's first event: discovery has happened
    }
    this.deliverEvent(e.id, artifacts.rebuild(e.event));
  }

  /** A `more` envelope: the call's last text-delta event again, appending the text at deltaText. */
  more(e, payload) {
    const artifacts = this.artifacts.get(e.id);
    if (!artifacts) throw new Error(`a2aport: more text for call ${e.id}, which sent no event`);
    this.deliverEvent(e.id, artifacts.rebuild(artifacts.more(decoder.decode(slice(payload, e.deltaText))), true));
  }

  deliverEvent(id, rebuilt) {
    const c = this.calls.get(id);
    const ev = this.host.redactEvent(rebuilt);
    if (ev.type === 'backend.message') ev.text ??= ''; // a message of data or files alone
    const w = c && this.works.get(c.workId);
    if (w?.callId === id && ev.type === 'backend.activity' && ev.state) w.state = ev.state;
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
      e.outcome = (this.artifacts.get(e.id) ?? new Artifacts()).outcome(e.outcome, e.reuse, e.contentOf);
    }
    this.artifacts.delete(e.id);
    const c = this.calls.get(e.id);
    if (!c) return;
    this.calls.delete(e.id);
    if (this.works.get(c.workId)?.callId === e.id) this.works.delete(c.workId);
    const settle = e.error
      ? () => c.reject(fromWire({ ...e.error, message: this.host.credentials.redact(e.error.message), agentText: e.error.agentText && this.host.credentials.redact(e.error.agentText) }))
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
/** The page's origin and the agent's, when a request crosses from one to the other in a browser; else null. */
function crossOrigin(url) {
  const page = globalThis.location?.origin;
  if (!page || page === 'null' || globalThis.process?.versions?.node) return null;
  let target;
  try {
    target = new URL(url).origin;
  } catch {
    return null;
  }
  return target === page ? null : { page, target };
}

/**
 * What to tell about a browser's failed request to another origin: that CORS refused it (blocked:
 * the agent's server answers, but not to this page), or that it may have.
 */
function corsHint(url, blocked) {
  const cross = crossOrigin(url);
  if (!cross) return '';
  const fix = ` the agent must allow this origin, the methods GET, POST and OPTIONS and the request headers a2aport sends:` +
    ` Content-Type, A2A-Version, and Authorization, A2A-Extensions, traceparent and your own headers when used`;
  if (blocked) {
    return ` (the browser refused it for CORS: the agent's server on ${cross.target} answers, but does not allow pages of ${cross.page};` +
      ` a browser asks such a server's leave before it sends a message (the preflight), so no message was sent;${fix})`;
  }
  return ` (from a page on ${cross.page} to an agent on ${cross.target}: if the network is fine, the browser likely blocked it for CORS;${fix})`;
}

/**
 * Whether a request a browser failed to another origin was refused by CORS: the same URL fetched
 * without CORS (an opaque answer, nothing read) answers, so the server is there and the network
 * fine. Bounded: a server that does not answer at once is taken as unreachable.
 */
async function blockedByOrigin(url, fetchImpl) {
  if (!crossOrigin(url)) return false;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), probeTimeoutMs);
  try {
    const res = await fetchImpl(url, { method: 'GET', mode: 'no-cors', credentials: 'omit', cache: 'no-store', signal: controller.signal });
    await res.body?.cancel().catch(() => {});
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

const probeTimeoutMs = 3000;

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
const notConnected = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT',
  'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'CERT_HAS_EXPIRED', 'ERR_TLS_CERT_ALTNAME_INVALID']);

/** Causes that say a connection was made and broke: the server was there (netfail.Broken). */
const broken = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

/** The runtime's system error under a failed fetch (Node's undici puts it in the cause chain), or null. */
function systemCause(err) {
  let e = err;
  for (let depth = 0; e && depth < 4; depth++, e = e.cause) {
    if (typeof e.code === 'string' && /^[A-Z][A-Z0-9_]+$/.test(e.code) && typeof e.message === 'string') return { code: e.code, message: e.message };
  }
  return null;
}

/** What a system error means, for the message (the error's own text follows in parentheses). */
const causeWords = {
  ECONNREFUSED: 'the connection was refused: nothing listens at that address',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name could not be resolved now (DNS did not answer)',
  EHOSTUNREACH: 'the host cannot be reached',
  ENETUNREACH: 'the network cannot be reached',
  UND_ERR_CONNECT_TIMEOUT: 'connecting timed out',
  ECONNRESET: 'the connection was reset',
  ETIMEDOUT: 'the connection timed out',
  EPIPE: 'the connection was closed while sending',
  UND_ERR_SOCKET: 'the connection was closed',
  DEPTH_ZERO_SELF_SIGNED_CERT: "the server's TLS certificate is not trusted (self-signed)",
  SELF_SIGNED_CERT_IN_CHAIN: "the server's TLS certificate is not trusted (a self-signed certificate in its chain)",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "the server's TLS certificate is not trusted",
  CERT_HAS_EXPIRED: "the server's TLS certificate has expired",
  ERR_TLS_CERT_ALTNAME_INVALID: "the server's TLS certificate is for another host name",
};
