// What every check of the BackendPort suite needs: bounds, fixtures, bounded calls, error and event
// expectations (the JS twin of conformance/helpers.go).

import { table } from './checks.js';

// The contract's values, from the table both runners share (conformance/checks.json).
const { constants } = table;
/** Bounds every check: each wait inside a check shares this deadline. */
export const WAIT_TIMEOUT_MS = constants.waitTimeoutMs;
/** Bounds one close() call (best-effort remote cancel within a bounded time). */
export const CLOSE_TIMEOUT_MS = constants.closeTimeoutMs;
/** How often a condition that may be reached asynchronously is re-checked. */
export const POLL_INTERVAL_MS = 10;
/** How long the suite keeps listening after a call settled, for events that come late. */
export const SETTLE_GRACE_MS = 100;
/** The message for a Work without id, owner or input. */
export const INVALID_WORK_MESSAGE = constants.invalidWorkMessage;
/** The message for a second submit of an active Work. */
export const ALREADY_ACTIVE_MESSAGE = constants.alreadyActiveMessage;
/** The states of a Work that runs and waits for nothing. */
export const ACTIVE_STATES = constants.activeStates;
/** The event types of docs/DESIGN.md §2. */
export const EVENT_TYPES = constants.eventTypes;

// ---------------------------------------------------------------------------------------------
// The suite: fixtures, and what every check needs.

export class Suite {
  constructor(createFixture) {
    this.createFixture = createFixture;
  }

  /** Asks the factory for a Fixture and fails the check at once if it is unusable. */
  async fixture(c, opts) {
    const hold = opts.hold === true;
    const r = await settle(c, `createFixture({hold: ${hold}})`, () => this.createFixture({ hold }), { async: false });
    if (r.threw) c.fatal(`fixture: createFixture({hold: ${hold}}) error = ${showErr(r.err)}`);
    const f = r.value;
    // The suite owns the backends it is given: it closes each one when the check ends.
    if (f !== null && typeof f === 'object' && f.backend && typeof f.backend.close === 'function') {
      c.deferClose(f.backend);
    }
    const msg = validateFixture(f, hold);
    if (msg !== '') c.fatal(`fixture (hold=${hold}): ${msg}`);
    return f;
  }

  /** Returns a fixture whose backend has been started successfully. */
  async started(c, opts) {
    const f = await this.fixture(c, opts);
    const r = await settle(c, 'start()', () => f.backend.start());
    if (r.threw) c.fatal(`start() error = ${showErr(r.err)}, want it to resolve`);
    if (r.value?.ok !== true) c.fatal(`start() = ${show(r.value)}, want ok true`);
    return f;
  }

  /** Starts a hold fixture, submits its Work and returns once the Work reached the agent. */
  async hold(c, submitOptions = {}) {
    const f = await this.started(c, { hold: true });
    const pd = submitAsync(c, f.backend, f.work, submitOptions);
    const started = Promise.resolve(f.started).then(() => ({ started: true }), (err) => ({ err }));
    const outcome = await c.wait(Promise.race([started, pd.promise.then(() => ({ settled: true }))]),
      'fixture: started');
    if (outcome.err !== undefined) {
      c.fatal(`fixture: started rejected with ${showErr(outcome.err)}, want it to resolve once the held Work reached the agent`);
    }
    if (outcome.settled) {
      c.fatal(`submit(${show(f.work.id)}) of a held Work = ${showResult(pd.result)} before it started, want it running until cancelled`);
    }
    return { f, pd };
  }
}

/** Describes what is wrong with fixture f, or returns '' when it is usable. */
export function validateFixture(f, hold) {
  if (f === null || typeof f !== 'object') return `createFixture returned ${show(f)}, want an object`;
  const w = f.work;
  switch (true) {
    case !isBackend(f.backend):
      return 'backend is missing or lacks BackendPort methods';
    case w === null || typeof w !== 'object':
      return 'work is missing';
    case !nonEmpty(w.id) || !nonEmpty(w.ownerId):
      return 'work needs an id and an ownerId';
    case !nonEmpty(w.instruction) && !(Array.isArray(w.inputParts) && w.inputParts.length > 0):
      return 'work needs an instruction or inputParts';
    case typeof f.nextWork !== 'function':
      return 'nextWork is not a function';
    case hold && !isThenable(f.started):
      return 'started is not a promise, but hold asks for it';
  }
  return '';
}

export const PORT_METHODS = ['describe', 'start', 'health', 'submit', 'status', 'cancel', 'respondInput',
  'respondAuthorization', 'subscribe', 'close'];

export function isBackend(b) {
  return b !== null && typeof b === 'object' && PORT_METHODS.every((m) => typeof b[m] === 'function');
}

/** Returns f.nextWork() after checking that it is a fresh Work of the fixture's owner. */
export function next(c, f, used = []) {
  const w = f.nextWork();
  if (w === null || typeof w !== 'object' || !nonEmpty(w.id) || w.ownerId !== f.work.ownerId) {
    c.fatal(`fixture: nextWork() = ${show(w)}, want a new id and ownerId ${show(f.work.ownerId)}`);
  }
  for (const id of [f.work.id, ...used]) {
    if (w.id === id) c.fatal(`fixture: nextWork() reused id ${show(id)}, want a fresh one`);
  }
  return w;
}

/** A Work id that no fixture is expected to produce. */
export function unknownId(c) {
  return `conformance-unknown-${c.name.replaceAll('/', '-')}`;
}

/** An owner id different from the Work's owner. */
export function otherOwner(w) {
  return `${w.ownerId}-conformance-other`;
}

// ---------------------------------------------------------------------------------------------
// One check's run: its deadline, its failures and its cleanup.

/** Thrown by CheckContext.fatal to end a check; never escapes runCheck. */
export class CheckStop extends Error {}

export class CheckContext {
  constructor(name) {
    this.name = name;
    this.deadline = Date.now() + WAIT_TIMEOUT_MS;
    this.failures = [];
    this.cleanups = [];
  }

  /** Records a failure and lets the check go on (Go's t.Errorf). */
  error(msg) {
    this.failures.push(msg);
  }

  /** Records a failure and ends the check (Go's t.Fatalf). */
  fatal(msg) {
    this.failures.push(msg);
    throw new CheckStop(msg);
  }

  /** Runs fn when the check ends, last registered first. */
  defer(fn) {
    this.cleanups.push(fn);
  }

  /** Closes backend (bounded) when the check ends; a close() error fails the check. */
  deferClose(backend) {
    this.defer(async () => {
      const err = await closeWithin(backend, CLOSE_TIMEOUT_MS);
      if (err === TIMED_OUT) this.error(`cleanup: close() did not settle within ${CLOSE_TIMEOUT_MS} ms, want a bounded close`);
      else if (err !== undefined) this.error(`cleanup: close() error = ${showErr(err)}, want it to resolve`);
    });
  }

  remaining() {
    return Math.max(0, this.deadline - Date.now());
  }

  /** Resolves with what promise resolves to, failing the check if it takes past the deadline. */
  async wait(promise, what) {
    const r = await within(promise, this.remaining());
    if (r === TIMED_OUT) this.fatal(`${what} did not settle within the check's ${WAIT_TIMEOUT_MS} ms`);
    return r;
  }
}

export async function runCheck(name, run, suite) {
  const c = new CheckContext(name);
  try {
    await run(c, suite);
  } catch (err) {
    if (!(err instanceof CheckStop)) c.error(`unexpected exception: ${err?.stack ?? showErr(err)}`);
  } finally {
    for (const fn of c.cleanups.reverse()) {
      try {
        await fn();
      } catch (err) {
        c.error(`cleanup: ${showErr(err)}`);
      }
    }
  }
  if (c.failures.length > 0) {
    const err = new Error(`${name}:\n  ${c.failures.join('\n  ')}`);
    err.stack = `Error: ${err.message}`; // the failures say where; the suite's frames do not
    err.failures = c.failures.slice();
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------
// Calls and waits.

export const TIMED_OUT = Symbol('timed out');

/** Resolves with promise's value, or TIMED_OUT after ms; rejects as promise does. */
export function within(promise, ms) {
  let timer;
  const timeout = new Promise((resolve) => { timer = setTimeout(resolve, ms, TIMED_OUT); });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Calls fn (a method that returns a Promise) and waits for it within the check's deadline.
 * Resolves {value} or {threw: true, err}. A synchronous throw is recorded as a contract
 * violation (the method must reject instead) and then handled like a rejection.
 */
export async function settle(c, op, fn, { async = true } = {}) {
  let p;
  try {
    p = fn();
  } catch (err) {
    if (async) c.error(`${op} threw synchronously (${showErr(err)}), want a rejected Promise`);
    return { threw: true, err };
  }
  if (async && !isThenable(p)) c.error(`${op} = ${show(p)}, want a Promise`);
  const caught = Promise.resolve(p).then((value) => ({ value }), (err) => ({ threw: true, err }));
  return c.wait(caught, op);
}

/** Calls a method the contract calls synchronous, failing the check if it answers a Promise. */
export function syncCall(c, op, fn) {
  let v;
  try {
    v = fn();
  } catch (err) {
    c.fatal(`${op} threw ${showErr(err)}, want a synchronous answer`);
  }
  if (isThenable(v)) {
    Promise.resolve(v).catch(() => {}); // it is wrong either way; keep a rejection quiet
    c.fatal(`${op} returned a Promise, want a synchronous answer`);
  }
  return v;
}

/** Calls status() (without workId: the runtime status) and fails the check unless it is an object. */
export function status(c, backend, workId, ownerId) {
  const op = workId === undefined ? 'status()' : `status(${show(workId)}, {ownerId: ${show(ownerId)}})`;
  const st = syncCall(c, op, () => (workId === undefined ? backend.status() : backend.status(workId, { ownerId })));
  if (st === null || typeof st !== 'object') c.fatal(`${op} = ${show(st)}, want an object with a state`);
  return st;
}

/** Fails the check unless status(workId, {ownerId}).state is want. */
export function wantState(c, backend, workId, ownerId, want) {
  const got = status(c, backend, workId, ownerId).state;
  if (got !== want) c.error(`status(${show(workId)}, {ownerId: ${show(ownerId)}}).state = ${show(got)}, want ${show(want)}`);
}

/** Fails the check unless the Work is submitted or working for its owner. */
export function wantActive(c, backend, w) {
  const got = status(c, backend, w.id, w.ownerId).state;
  if (!ACTIVE_STATES.includes(got)) {
    c.error(`status(${show(w.id)}, {ownerId: ${show(w.ownerId)}}).state = ${show(got)}, want one of ${show(ACTIVE_STATES)}`);
  }
}

/** Polls cond until it holds or the check's deadline passes; resolves whether cond held. */
export async function eventually(c, cond) {
  for (;;) {
    if (cond()) return true;
    const left = c.remaining();
    if (left <= 0) return cond();
    await sleep(Math.min(POLL_INTERVAL_MS, left));
  }
}

export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Calls close() and waits at most ms; resolves undefined, the rejection, or TIMED_OUT. */
export async function closeWithin(backend, ms) {
  let p;
  try {
    p = backend.close();
  } catch (err) {
    return err;
  }
  const r = await within(Promise.resolve(p).then(() => undefined, (err) => ({ err })), ms);
  if (r === TIMED_OUT) return TIMED_OUT;
  return r?.err;
}

/** Calls close() and fails the check if it does not settle within the close bound. */
export async function closeBounded(c, backend) {
  const err = await closeWithin(backend, CLOSE_TIMEOUT_MS);
  if (err === TIMED_OUT) c.fatal(`close() did not settle within ${CLOSE_TIMEOUT_MS} ms, want a bounded close`);
  return err === undefined ? { value: undefined } : { threw: true, err };
}

/** A submit() in flight. */
export class Pending {
  constructor(work, promise) {
    this.work = work;
    this.result = undefined; // {value} or {threw, err} once settled
    this.promise = promise.then((r) => { this.result = r; return r; });
  }

  /** Resolves the submit's result, failing the check if it does not settle before the deadline. */
  wait(c) {
    return c.wait(this.promise, `submit(${show(this.work?.id)})`);
  }

  /** Fails the check if the submit has already settled. */
  async wantRunning(c) {
    await sleep(0); // let a settlement that already happened propagate
    if (this.result !== undefined) {
      c.error(`submit(${show(this.work.id)}) = ${showResult(this.result)}, want it still running`);
    }
  }
}

/** Starts submit(); a synchronous throw is recorded and treated as a rejection. */
export function submitAsync(c, backend, work, options) {
  let p;
  try {
    p = options === undefined ? backend.submit(work) : backend.submit(work, options);
  } catch (err) {
    c.error(`submit(${show(work?.id)}) threw synchronously (${showErr(err)}), want a rejected Promise`);
    p = Promise.reject(err);
  }
  if (!isThenable(p)) c.error(`submit(${show(work?.id)}) = ${show(p)}, want a Promise`);
  return new Pending(work, Promise.resolve(p).then((value) => ({ value }), (err) => ({ threw: true, err })));
}

/** Runs a Work that is expected to complete and returns its outcome. */
export async function submit(c, backend, work, options) {
  const r = await submitAsync(c, backend, work, options).wait(c);
  if (r.threw) c.fatal(`submit(${show(work.id)}) error = ${showErr(r.err)}, want an outcome`);
  if (!hasOutcome(r.value)) c.error(`submit(${show(work.id)}) = ${show(r.value)}, want non-empty content or artifacts`);
  return r.value;
}

export function hasOutcome(out) {
  return out !== null && typeof out === 'object' &&
    ((typeof out.content === 'string' && out.content !== '') || (Array.isArray(out.artifacts) && out.artifacts.length > 0));
}

// ---------------------------------------------------------------------------------------------
// Errors.

export function codeOf(err) {
  return err !== null && typeof err === 'object' ? err.code : undefined;
}

/**
 * Describes how result r (from settle or a Pending) differs from a rejection with an Error of
 * code want whose message contains substr, or returns ''.
 */
export function diagnoseErr(r, want, substr = '') {
  if (!r.threw) return `resolved ${show(r.value)}, want ${want}`;
  const err = r.err;
  if (!(err instanceof Error) || codeOf(err) !== want) return `${showErr(err)}, want an Error with code ${want}`;
  if (substr !== '' && !String(err.message).includes(substr)) {
    return `${show(err.message)}, want a message containing ${show(substr)}`;
  }
  return '';
}

export function wantErr(c, op, r, want, substr = '') {
  const msg = diagnoseErr(r, want, substr);
  if (msg !== '') c.error(`${op} error = ${msg}`);
}

export function wantNoErr(c, op, r) {
  if (r.threw) c.error(`${op} error = ${showErr(r.err)}, want it to resolve`);
}

// ---------------------------------------------------------------------------------------------
// Events.

/** Collects the events a listener receives, as snapshots taken on arrival. */
export class Recorder {
  constructor() {
    this.events = [];
    this.listen = (e) => { this.events.push(snapshot(e)); };
  }

  all() {
    return this.events.slice();
  }

  /** The events received so far of the Work workId. */
  of(workId) {
    return this.events.filter((e) => e?.workId === workId);
  }
}

export function snapshot(v) {
  try {
    return structuredClone(v);
  } catch {
    return v;
  }
}

/** Renders events compactly for failure messages. */
export function summary(events) {
  const parts = events.map((e) => (e?.state ? `${e?.type}(${e.state})` : String(e?.type)));
  return `${events.length} events [${parts.join(' ')}]`;
}

/**
 * Describes the first event that does not belong to one of works (workId of one of them with
 * the matching ownerId) or has an unknown type, or returns ''.
 */
export function diagnoseEvents(events, works) {
  for (const [i, e] of events.entries()) {
    if (e === null || typeof e !== 'object') return `event ${i} = ${show(e)}, want an object`;
    if (!EVENT_TYPES.includes(e.type)) return `event ${i} type = ${show(e.type)}, want one of ${show(EVENT_TYPES)}`;
    const w = works.find((x) => x.id === e.workId);
    if (w === undefined) return `event ${i} (${e.type}) workId = ${show(e.workId)}, want a submitted Work id`;
    if (e.ownerId !== w.ownerId) return `event ${i} (${e.type}) of ${show(e.workId)} ownerId = ${show(e.ownerId)}, want ${show(w.ownerId)}`;
  }
  return '';
}

export function wantEvents(c, who, events, works) {
  const msg = diagnoseEvents(events, works);
  if (msg !== '') c.error(`${who}: ${msg}`);
}

// ---------------------------------------------------------------------------------------------
// Values.

export function nonEmpty(s) {
  return typeof s === 'string' && s !== '';
}

export function isThenable(v) {
  return v !== null && (typeof v === 'object' || typeof v === 'function') && typeof v.then === 'function';
}

/** A copy of o without its undefined members. */
export function defined(o) {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

/** Structural equality of plain data; object members that are undefined count as absent. */
export function deepEqual(a, b) {
  if (Object.is(a, b)) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (ArrayBuffer.isView(a) || ArrayBuffer.isView(b)) {
    if (!ArrayBuffer.isView(a) || !ArrayBuffer.isView(b) || a.byteLength !== b.byteLength) return false;
    const x = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    const y = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    return x.every((v, i) => v === y[i]);
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  const ka = Object.keys(a).filter((k) => a[k] !== undefined);
  const kb = Object.keys(b).filter((k) => b[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
}

/** Renders a value for a failure message. */
export function show(v) {
  if (v === undefined) return 'undefined';
  if (typeof v === 'string') return JSON.stringify(v);
  try {
    return JSON.stringify(v, (_, x) => (ArrayBuffer.isView(x) ? `<${x.byteLength} bytes>` : typeof x === 'bigint' ? String(x) : x)) ?? String(v);
  } catch {
    return String(v);
  }
}

export function showErr(err) {
  if (err instanceof Error) return `${err.name}: ${err.message} (code ${show(err.code)})`;
  return `${show(err)} (not an Error)`;
}

export function showResult(r) {
  if (r === undefined) return 'nothing yet';
  return r.threw ? `error ${showErr(r.err)}` : show(r.value);
}

