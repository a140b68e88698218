// a2aport/conformance — the BackendPort contract checks (DESIGN §2) for any JS BackendPort.
//
// This is the JS twin of the Go package github.com/a2aport/a2aport/adapter/conformance: the
// same groups and checks in the same order, with the same bounds. A behaviour that differs
// between the Go and the JS implementation of the port is a bug, so a check added on one side
// belongs on the other too. Check names follow the Go ones; where Go speaks of something JS does
// not have, the JS name says what it checks instead:
//
//   Go                               JS
//   events/panicking_listener        events/throwing_listener
//   events/panicking_on_event        events/throwing_on_event
//   hold/submit_context_cancelled    hold/submit_signal_aborted
//
// Usage, in a node:test file:
//
//   import { createA2ABackendAdapter } from 'a2aport';
//   import { verifyBackendAdapterConformance } from 'a2aport/conformance';
//
//   let n = 0;
//   verifyBackendAdapterConformance({
//     createFixture({ hold }) {
//       const backend = createA2ABackendAdapter({ agentCardUrl });
//       const nextWork = () => ({ id: `work-${++n}`, ownerId: 'owner-1',
//         instruction: hold ? `hold ${n}` : 'say hello' });
//       const work = nextWork();
//       // started: resolves once the held Work reached execution at the agent.
//       return { backend, work, nextWork, started: hold ? agentStarted(work) : undefined };
//     },
//   });
//
// Each check gets a fresh fixture and closes its backend when it ends (the suite cannot hand the
// fixture a cleanup hook, so it owns the backends it is given). Every wait is bounded — 15 s per
// check, 10 s per close() — so a port that hangs fails instead of blocking the test run.
// Errors are recognised by their `code` (WORK_CANCELLED, WORK_NOT_FOUND, ...), never by class.
//
// `test` defaults to node:test's `test`, loaded only when no test function is passed, so this
// module also loads in a browser test runner that passes its own. Inside a node:test `describe`
// pass `it` (or `test`) explicitly: checks are registered synchronously then.

/** Bounds every check: each wait inside a check shares this deadline. */
const WAIT_TIMEOUT_MS = 15_000;
/** Bounds one close() call (DESIGN §2: best-effort remote cancel within a bounded time). */
const CLOSE_TIMEOUT_MS = 10_000;
/** How often a condition that may be reached asynchronously is re-checked. */
const POLL_INTERVAL_MS = 10;

/** The message DESIGN §2 gives for a Work without id, owner or input. */
const INVALID_WORK_MESSAGE = 'requires task id, owner and input';
/** The message DESIGN §2 gives for a second submit of an active Work. */
const ALREADY_ACTIVE_MESSAGE = 'already active';

/** The states of a Work that runs and waits for nothing. */
const ACTIVE_STATES = ['submitted', 'working'];
/** The event types of DESIGN §2. */
const EVENT_TYPES = [
  'backend.activity', 'backend.message', 'backend.artifact',
  'backend.input.requested', 'backend.input.resolved',
];

/**
 * Registers the BackendPort contract checks (the same as the Go suite) as tests.
 *
 * @param {{
 *   createFixture: (options: {hold: boolean}) => Fixture | Promise<Fixture>,
 *   test?: (name: string, fn: () => Promise<void>) => unknown,
 * }} options
 */
export function verifyBackendAdapterConformance(options) {
  if (options === null || typeof options !== 'object') {
    throw new TypeError('verifyBackendAdapterConformance: options must be an object with createFixture');
  }
  const { createFixture, test } = options;
  if (typeof createFixture !== 'function') {
    throw new TypeError('verifyBackendAdapterConformance: createFixture must be a function');
  }
  if (test !== undefined && typeof test !== 'function') {
    throw new TypeError('verifyBackendAdapterConformance: test must be a function when given');
  }
  const suite = new Suite(createFixture);
  const register = (testFn) => {
    for (const group of groups()) {
      for (const check of group.checks) {
        const name = `${group.name}/${check.name}`;
        testFn(name, () => runCheck(name, check.run, suite));
      }
    }
  };
  if (test !== undefined) {
    register(test);
    return;
  }
  // Loaded lazily so that the module imports in a browser; bundlers are told to leave it alone.
  const specifier = 'node:test';
  import(/* @vite-ignore */ /* webpackIgnore: true */ specifier).then(
    (nodeTest) => register(nodeTest.test),
    (err) => {
      throw new Error(
        'verifyBackendAdapterConformance: node:test is not available here; pass a test function ({test})',
        { cause: err });
    });
}

// ---------------------------------------------------------------------------------------------
// Groups and checks, in the order of DESIGN §2 (and of the Go suite).

function groups() {
  return [
    { name: 'describe', checks: [
      { name: 'before_start', run: checkDescribeBeforeStart },
      { name: 'after_start', run: checkDescribeAfterStart },
    ] },
    { name: 'start', checks: [
      { name: 'idempotent', run: checkStartIdempotent },
      { name: 'concurrent', run: checkStartConcurrent },
      { name: 'after_close', run: checkStartAfterClose },
      { name: 'close_before_start', run: checkStartCloseBeforeStart },
    ] },
    { name: 'health', checks: [
      { name: 'after_start', run: checkHealthAfterStart },
      { name: 'no_side_effects', run: checkHealthNoSideEffects },
    ] },
    { name: 'status', checks: [
      { name: 'runtime', run: checkStatusRuntime },
      { name: 'unknown_work', run: checkStatusUnknownWork },
      { name: 'after_complete', run: checkStatusAfterComplete },
    ] },
    { name: 'submit', checks: [
      { name: 'validation', run: checkSubmitValidation },
      { name: 'completes', run: checkSubmitCompletes },
      { name: 'concurrent', run: checkSubmitConcurrent },
    ] },
    { name: 'events', checks: [
      { name: 'on_event', run: checkEventsOnEvent },
      { name: 'subscribe', run: checkEventsSubscribe },
      { name: 'unsubscribe', run: checkEventsUnsubscribe },
      { name: 'throwing_listener', run: checkEventsThrowingListener },
      { name: 'throwing_on_event', run: checkEventsThrowingOnEvent },
    ] },
    { name: 'hold', checks: [
      { name: 'status_active', run: checkHoldStatusActive },
      { name: 'duplicate_submit', run: checkHoldDuplicateSubmit },
      { name: 'cancel_other_owner', run: checkHoldCancelOtherOwner },
      { name: 'cancel_owner', run: checkHoldCancelOwner },
      { name: 'cancel_unknown', run: checkHoldCancelUnknown },
      { name: 'respond_without_request', run: checkHoldRespondWithoutRequest },
      { name: 'submit_signal_aborted', run: checkHoldSubmitSignalAborted },
    ] },
    { name: 'respond', checks: [
      { name: 'authorization_unsupported', run: checkRespondAuthorizationUnsupported },
      { name: 'input_unknown_work', run: checkRespondInputUnknownWork },
    ] },
    { name: 'close', checks: [
      { name: 'idempotent', run: checkCloseIdempotent },
      { name: 'pending_submit', run: checkClosePendingSubmit },
      { name: 'submit_after_close', run: checkCloseSubmitAfterClose },
    ] },
  ];
}

// describe: synchronous, names the protocol and a label before discovery, and the selected
// transport and protocol version after it.

async function checkDescribeBeforeStart(c, s) {
  const f = await s.fixture(c, { hold: false });
  // discovered may be false or true (a fixture may hand over a started backend): only the
  // identity is required before start().
  wantIdentity(c, describe(c, f.backend));
}

async function checkDescribeAfterStart(c, s) {
  const f = await s.started(c, { hold: false });
  const d = describe(c, f.backend);
  wantIdentity(c, d);
  if (d.discovered !== true) {
    c.error(`describe().discovered = ${show(d.discovered)} after start(), want true`);
  }
  if (d.transport !== 'JSONRPC' && d.transport !== 'HTTP+JSON') {
    c.error(`describe().transport = ${show(d.transport)}, want "JSONRPC" or "HTTP+JSON"`);
  }
  if (typeof d.protocolVersion !== 'string' || d.protocolVersion === '') {
    c.error(`describe().protocolVersion = ${show(d.protocolVersion)}, want a non-empty string`);
  }
}

function describe(c, backend) {
  const d = syncCall(c, 'describe()', () => backend.describe());
  if (d === null || typeof d !== 'object') c.fatal(`describe() = ${show(d)}, want an object`);
  return d;
}

function wantIdentity(c, d) {
  if (d.protocol !== 'a2a') c.error(`describe().protocol = ${show(d.protocol)}, want "a2a"`);
  if (typeof d.label !== 'string' || d.label === '') {
    c.error(`describe().label = ${show(d.label)}, want a non-empty string`);
  }
}

// start: idempotent, concurrent calls share one discovery and all succeed, and a closed backend
// refuses to start.

async function checkStartIdempotent(c, s) {
  const f = await s.fixture(c, { hold: false });
  for (let i = 1; i <= 2; i++) {
    const r = await settle(c, `start() #${i}`, () => f.backend.start());
    wantHealthy(c, `start() #${i}`, r);
  }
  wantHealthy(c, 'health()', await settle(c, 'health()', () => f.backend.health()));
}

async function checkStartConcurrent(c, s) {
  const f = await s.fixture(c, { hold: false });
  const n = 8;
  const calls = [];
  for (let i = 1; i <= n; i++) calls.push(settle(c, `concurrent start() #${i}`, () => f.backend.start()));
  const answers = await Promise.all(calls);
  answers.forEach((r, i) => wantHealthy(c, `concurrent start() #${i + 1}`, r));
  wantHealthy(c, 'health()', await settle(c, 'health()', () => f.backend.health()));
}

async function checkStartAfterClose(c, s) {
  const f = await s.started(c, { hold: false });
  wantNoErr(c, 'close()', await closeBounded(c, f.backend));
  const r = await settle(c, 'start() after close()', () => f.backend.start());
  wantErr(c, 'start() after close()', r, 'ADAPTER_CLOSED');
}

async function checkStartCloseBeforeStart(c, s) {
  const f = await s.fixture(c, { hold: false });
  wantNoErr(c, 'close() before start()', await closeBounded(c, f.backend));
  const r = await settle(c, 'start() after close()', () => f.backend.start());
  wantErr(c, 'start() after close()', r, 'ADAPTER_CLOSED');
}

/** Fails the check unless start() or health() resolved {ok: true, started: true}. */
function wantHealthy(c, op, r) {
  if (r.threw) {
    c.error(`${op} error = ${showErr(r.err)}, want it to resolve`);
    return;
  }
  const h = r.value;
  if (h === null || typeof h !== 'object' || h.ok !== true || h.started !== true) {
    c.error(`${op} = ${show(h)}, want ok and started true`);
  }
}

// health: answers ok once started and touches no Work.

async function checkHealthAfterStart(c, s) {
  const f = await s.started(c, { hold: false });
  wantHealthy(c, 'health()', await settle(c, 'health()', () => f.backend.health()));
}

async function checkHealthNoSideEffects(c, s) {
  const { f, pd } = await s.hold(c);
  const { id, ownerId } = f.work;
  const before = status(c, f.backend, id, ownerId);
  const runtimeBefore = status(c, f.backend);
  for (let i = 1; i <= 3; i++) {
    const r = await settle(c, `health() #${i}`, () => f.backend.health());
    if (r.threw || r.value?.ok !== true) {
      c.error(`health() #${i} = ${r.threw ? showErr(r.err) : show(r.value)}, want ok`);
    }
  }
  const after = status(c, f.backend, id, ownerId);
  // The remote agent may move the Work from submitted to working meanwhile; health() must not
  // end it, move it anywhere else, or move it back.
  if (!ACTIVE_STATES.includes(before.state)) {
    c.error(`status(${show(id)}, {ownerId: ${show(ownerId)}}).state = ${show(before.state)} before health(), want one of ${show(ACTIVE_STATES)}`);
  } else if (!ACTIVE_STATES.includes(after.state) || (before.state === 'working' && after.state !== 'working')) {
    c.error(`status(${show(id)}, {ownerId: ${show(ownerId)}}).state = ${show(after.state)} after health(), want ${show(before.state)} as before`);
  }
  const runtimeAfter = status(c, f.backend);
  if (!deepEqual(runtimeAfter, runtimeBefore)) {
    c.error(`status() = ${show(runtimeAfter)} after health(), want ${show(runtimeBefore)} as before`);
  }
  await pd.wantRunning(c);
}

// status: without an id it reports the runtime; with an id it reports "not_found" for every
// Work that is unknown or finished.

async function checkStatusRuntime(c, s) {
  const f = await s.fixture(c, { hold: false });
  // Before start() the fixture's backend is idle, or ready when the fixture started it.
  let st = status(c, f.backend);
  if (st.state !== 'idle' && st.state !== 'ready') {
    c.error(`status().state = ${show(st.state)} before start(), want "idle" or "ready"`);
  }
  const r = await settle(c, 'start()', () => f.backend.start());
  if (r.threw) c.fatal(`start() error = ${showErr(r.err)}, want it to resolve`);
  st = status(c, f.backend);
  if (st.state !== 'ready' || st.started !== true) {
    c.error(`status() = ${show(st)} after start(), want state "ready" and started true`);
  }
  if (st.activeWorks !== 0) {
    c.error(`status().activeWorks = ${show(st.activeWorks)} with no Work submitted, want 0`);
  }
  wantNoErr(c, 'close()', await closeBounded(c, f.backend));
  st = status(c, f.backend);
  if (st.state !== 'closed') c.error(`status().state = ${show(st.state)} after close(), want "closed"`);
}

async function checkStatusUnknownWork(c, s) {
  const f = await s.started(c, { hold: false });
  wantState(c, f.backend, unknownId(c), f.work.ownerId, 'not_found');
  // A Work that was never submitted is unknown too.
  wantState(c, f.backend, f.work.id, f.work.ownerId, 'not_found');
}

async function checkStatusAfterComplete(c, s) {
  const f = await s.started(c, { hold: false });
  const { id, ownerId } = f.work;
  await submit(c, f.backend, f.work);
  wantState(c, f.backend, id, ownerId, 'not_found');
  // A finished Work is unknown to cancel() as well: not_found, not an error.
  const r = await settle(c, 'cancel() of a completed Work', () => f.backend.cancel(id, { ownerId }));
  wantNoErr(c, 'cancel() of a completed Work', r);
  if (!r.threw && r.value?.state !== 'not_found') {
    c.error(`cancel(${show(id)}, {ownerId: ${show(ownerId)}}) = ${show(r.value)} after completion, want state "not_found"`);
  }
  const st = status(c, f.backend);
  if (st.activeWorks !== 0) {
    c.error(`status().activeWorks = ${show(st.activeWorks)} after the only Work completed, want 0`);
  }
}

// submit: validates the Work before anything else and runs a valid Work to one outcome.

async function checkSubmitValidation(c, s) {
  const f = await s.started(c, { hold: false });
  const w = next(c, f);
  const tests = [
    { name: 'empty', work: {}, message: INVALID_WORK_MESSAGE },
    { name: 'missing id', work: defined({ ownerId: w.ownerId, instruction: w.instruction, inputParts: w.inputParts }) },
    { name: 'missing owner', work: defined({ id: w.id, instruction: w.instruction, inputParts: w.inputParts }) },
    { name: 'missing instruction and input parts', work: { id: w.id, ownerId: w.ownerId } },
  ];
  for (const tt of tests) {
    const r = await submitAsync(c, f.backend, tt.work).wait(c);
    wantErr(c, `submit(${tt.name})`, r, 'INVALID_WORK', tt.message);
  }
  // A rejected Work never became active.
  wantState(c, f.backend, w.id, w.ownerId, 'not_found');
  // The backend is still usable after rejecting Works.
  await submit(c, f.backend, f.work);
}

async function checkSubmitCompletes(c, s) {
  const f = await s.started(c, { hold: false });
  await submit(c, f.backend, f.work);
  // The same backend runs a second Work as well.
  await submit(c, f.backend, next(c, f));
}

async function checkSubmitConcurrent(c, s) {
  const f = await s.started(c, { hold: false });
  const works = [f.work];
  while (works.length < 4) works.push(next(c, f, works.map((w) => w.id)));
  const recs = works.map(() => new Recorder());
  const pds = works.map((w, i) => submitAsync(c, f.backend, w, { onEvent: recs[i].listen }));
  for (const [i, pd] of pds.entries()) {
    const r = await pd.wait(c);
    if (r.threw) {
      c.error(`concurrent submit(${show(works[i].id)}) error = ${showErr(r.err)}, want an outcome`);
    } else if (!hasOutcome(r.value)) {
      c.error(`concurrent submit(${show(works[i].id)}) = ${show(r.value)}, want non-empty content or artifacts`);
    }
  }
  for (const [i, w] of works.entries()) {
    // Each Work's own listener sees that Work's events only.
    wantEvents(c, `onEvent of ${w.id}`, recs[i].all(), [w]);
    wantState(c, f.backend, w.id, w.ownerId, 'not_found');
  }
}

// events: every event carries the Work id and owner; per-Work and subscribed listeners see the
// same events; unsubscribe stops delivery; a throwing listener breaks nothing.

async function checkEventsOnEvent(c, s) {
  const f = await s.started(c, { hold: false });
  const on = new Recorder();
  await submit(c, f.backend, f.work, { onEvent: on.listen });
  await wantSomeEvents(c, 'onEvent listener', on, f.work);
  wantEvents(c, 'onEvent listener', on.all(), [f.work]);
}

async function checkEventsSubscribe(c, s) {
  const f = await s.started(c, { hold: false });
  const sub = new Recorder();
  subscribe(c, f.backend, sub.listen);
  const works = [f.work, next(c, f)];
  for (const w of works) {
    const on = new Recorder();
    await submit(c, f.backend, w, { onEvent: on.listen });
    await wantSameEvents(c, sub, on, w);
  }
  wantEvents(c, 'subscribed listener', sub.all(), works);
}

async function checkEventsUnsubscribe(c, s) {
  const f = await s.started(c, { hold: false });
  const gone = new Recorder();
  const kept = new Recorder();
  const unsubscribe = subscribe(c, f.backend, gone.listen);
  subscribe(c, f.backend, kept.listen);

  const first = f.work;
  let on = new Recorder();
  await submit(c, f.backend, first, { onEvent: on.listen });
  await wantSameEvents(c, gone, on, first);
  await wantSameEvents(c, kept, on, first);

  unsubscribe();
  unsubscribe(); // a second call is harmless

  const second = next(c, f);
  on = new Recorder();
  await submit(c, f.backend, second, { onEvent: on.listen });
  // Once the listener still subscribed has everything, nothing more is on its way.
  await wantSameEvents(c, kept, on, second);
  const got = gone.of(second.id);
  if (got.length !== 0) {
    c.error(`unsubscribed listener received ${summary(got)} for Work ${show(second.id)} submitted after unsubscribe, want none`);
  }
}

async function checkEventsThrowingListener(c, s) {
  const f = await s.started(c, { hold: false });
  const throws = (e) => { throw new Error(`conformance: listener throws on ${e?.type}`); };
  // One throwing listener before and one after the well-behaved one, whatever the call order.
  subscribe(c, f.backend, throws);
  const kept = new Recorder();
  subscribe(c, f.backend, kept.listen);
  subscribe(c, f.backend, throws);

  for (const w of [f.work, next(c, f)]) {
    const on = new Recorder();
    await submit(c, f.backend, w, { onEvent: on.listen });
    await wantSameEvents(c, kept, on, w);
  }
  wantHealthy(c, 'health() after throwing listeners', await settle(c, 'health()', () => f.backend.health()));
}

async function checkEventsThrowingOnEvent(c, s) {
  const f = await s.started(c, { hold: false });
  const sub = new Recorder();
  subscribe(c, f.backend, sub.listen);
  const throws = (e) => { throw new Error(`conformance: onEvent throws on ${e?.type}`); };
  await submit(c, f.backend, f.work, { onEvent: throws });
  await wantSomeEvents(c, 'subscribed listener', sub, f.work);
  // The backend still runs Works afterwards.
  const w = next(c, f);
  const on = new Recorder();
  await submit(c, f.backend, w, { onEvent: on.listen });
  await wantSameEvents(c, sub, on, w);
}

/** Subscribes listener, unsubscribes it when the check ends and returns the unsubscribe function. */
function subscribe(c, backend, listener) {
  const unsubscribe = backend.subscribe(listener);
  if (typeof unsubscribe !== 'function') {
    c.fatal(`subscribe() = ${show(unsubscribe)}, want an unsubscribe function`);
  }
  c.defer(() => unsubscribe());
  return unsubscribe;
}

/** Waits until rec has received an event of w, and fails the check otherwise. */
async function wantSomeEvents(c, who, rec, w) {
  if (!(await eventually(c, () => rec.of(w.id).length > 0))) {
    c.error(`${who} received ${summary(rec.of(w.id))} for Work ${show(w.id)}, want at least one`);
  }
}

/**
 * Waits until the subscribed listener sub has received for w exactly the events the Work's own
 * listener on received, and fails the check otherwise. Delivery to subscribers may complete
 * after submit() settles, hence the wait.
 */
async function wantSameEvents(c, sub, on, w) {
  const same = () => {
    const want = on.of(w.id);
    return want.length > 0 && deepEqual(sub.of(w.id), want);
  };
  if (!(await eventually(c, same))) {
    c.error(`subscribed listener received ${summary(sub.of(w.id))} for Work ${show(w.id)}, want the ${summary(on.of(w.id))} its onEvent listener received`);
  }
}

// hold: a Work that runs until cancelled is active for its owner only, cannot be submitted
// twice, is cancelled by its owner alone, and ends its pending submit with WORK_CANCELLED.

async function checkHoldStatusActive(c, s) {
  const { f, pd } = await s.hold(c);
  wantActive(c, f.backend, f.work);
  // Another owner's Work is not_found, never revealed.
  wantState(c, f.backend, f.work.id, otherOwner(f.work), 'not_found');
  const st = status(c, f.backend);
  if (st.activeWorks !== 1) {
    c.error(`status().activeWorks = ${show(st.activeWorks)} with one held Work, want 1`);
  }
  await pd.wantRunning(c);
}

async function checkHoldDuplicateSubmit(c, s) {
  const { f, pd } = await s.hold(c);
  const r = await submitAsync(c, f.backend, f.work).wait(c);
  wantErr(c, 'second submit() of an active Work', r, 'WORK_ALREADY_ACTIVE', ALREADY_ACTIVE_MESSAGE);
  // The first submit is untouched.
  wantActive(c, f.backend, f.work);
  await pd.wantRunning(c);
}

async function checkHoldCancelOtherOwner(c, s) {
  const { f, pd } = await s.hold(c);
  const ownerId = otherOwner(f.work);
  const r = await settle(c, 'cancel() by another owner', () => f.backend.cancel(f.work.id, { ownerId }));
  wantErr(c, 'cancel() by another owner', r, 'WORK_NOT_FOUND');
  wantActive(c, f.backend, f.work);
  await pd.wantRunning(c);
}

async function checkHoldCancelOwner(c, s) {
  const { f, pd } = await s.hold(c);
  const { id, ownerId } = f.work;
  let r = await settle(c, 'cancel() by the owner', () => f.backend.cancel(id, { ownerId }));
  wantNoErr(c, 'cancel() by the owner', r);
  const want = { taskId: id, state: 'cancelled' };
  if (!r.threw && !deepEqual(r.value, want)) {
    c.error(`cancel(${show(id)}, {ownerId: ${show(ownerId)}}) = ${show(r.value)}, want ${show(want)}`);
  }
  const done = await pd.wait(c);
  wantErr(c, 'pending submit() after cancel()', done, 'WORK_CANCELLED');

  r = await settle(c, 'second cancel()', () => f.backend.cancel(id, { ownerId }));
  wantNoErr(c, 'second cancel()', r);
  if (!r.threw && r.value?.state !== 'not_found') {
    c.error(`second cancel(${show(id)}, {ownerId: ${show(ownerId)}}) = ${show(r.value)}, want state "not_found"`);
  }
  wantState(c, f.backend, id, ownerId, 'not_found');
}

async function checkHoldCancelUnknown(c, s) {
  const { f, pd } = await s.hold(c);
  const id = unknownId(c);
  const { ownerId } = f.work;
  const r = await settle(c, 'cancel() of an unknown Work', () => f.backend.cancel(id, { ownerId }));
  wantNoErr(c, 'cancel() of an unknown Work', r);
  if (!r.threw && r.value?.state !== 'not_found') {
    c.error(`cancel(${show(id)}, {ownerId: ${show(ownerId)}}) = ${show(r.value)}, want state "not_found"`);
  }
  // Cancelling something else leaves the held Work alone.
  wantActive(c, f.backend, f.work);
  await pd.wantRunning(c);
}

async function checkHoldRespondWithoutRequest(c, s) {
  const { f, pd } = await s.hold(c);
  const { id, ownerId } = f.work;
  const answer = { text: 'conformance' };
  const requestId = 'conformance-no-such-request';

  let r = await settle(c, 'respondAuthorization() on an active Work',
    () => f.backend.respondAuthorization(id, requestId, { action: 'accept' }, { ownerId }));
  wantErr(c, 'respondAuthorization() on an active Work', r, 'A2A_AUTHORIZATION_UNSUPPORTED');
  r = await settle(c, 'respondInput() by another owner',
    () => f.backend.respondInput(id, requestId, answer, { ownerId: otherOwner(f.work) }));
  wantErr(c, 'respondInput() by another owner', r, 'WORK_NOT_FOUND');
  r = await settle(c, 'respondInput() with no input requested',
    () => f.backend.respondInput(id, requestId, answer, { ownerId }));
  wantErr(c, 'respondInput() with no input requested', r, 'INPUT_NOT_PENDING');

  wantActive(c, f.backend, f.work);
  await pd.wantRunning(c);
}

async function checkHoldSubmitSignalAborted(c, s) {
  const controller = new AbortController();
  const { f, pd } = await s.hold(c, { signal: controller.signal });
  controller.abort();
  const r = await pd.wait(c);
  // Aborting the signal cancels the Work as cancel() would (index.d.ts, SubmitOptions.signal).
  wantErr(c, 'submit() after its signal was aborted', r, 'WORK_CANCELLED');
  wantState(c, f.backend, f.work.id, f.work.ownerId, 'not_found');
}

// respond: respondAuthorization is always unsupported; respondInput needs a known Work.
// Answers to held Works are checked in the hold group.

async function checkRespondAuthorizationUnsupported(c, s) {
  const f = await s.started(c, { hold: false });
  for (const action of ['accept', 'decline', 'cancel']) {
    const op = `respondAuthorization(${action})`;
    const r = await settle(c, op, () => f.backend.respondAuthorization(
      unknownId(c), 'conformance-request', { action }, { ownerId: f.work.ownerId }));
    wantErr(c, op, r, 'A2A_AUTHORIZATION_UNSUPPORTED');
  }
}

async function checkRespondInputUnknownWork(c, s) {
  const f = await s.started(c, { hold: false });
  const r = await settle(c, 'respondInput() on an unknown Work', () => f.backend.respondInput(
    unknownId(c), 'conformance-request', { text: 'conformance' }, { ownerId: f.work.ownerId }));
  wantErr(c, 'respondInput() on an unknown Work', r, 'WORK_NOT_FOUND');
}

// close: idempotent and bounded, ends pending submits, and the backend refuses Work afterwards.

async function checkCloseIdempotent(c, s) {
  const f = await s.started(c, { hold: false });
  wantNoErr(c, 'close()', await closeBounded(c, f.backend));
  wantNoErr(c, 'second close()', await closeBounded(c, f.backend));
}

async function checkClosePendingSubmit(c, s) {
  const { f, pd } = await s.hold(c);
  wantNoErr(c, 'close() with a pending submit()', await closeBounded(c, f.backend));
  const r = await pd.wait(c);
  if (r.threw !== true || (codeOf(r.err) !== 'ADAPTER_CLOSED' && codeOf(r.err) !== 'WORK_CANCELLED')) {
    c.error(`pending submit() after close() ${r.threw ? `error = ${showErr(r.err)}` : `= ${show(r.value)}`}, want ADAPTER_CLOSED or WORK_CANCELLED`);
  }
  wantState(c, f.backend, f.work.id, f.work.ownerId, 'not_found');
  const st = status(c, f.backend);
  if (st.state !== 'closed') c.error(`status().state = ${show(st.state)} after close(), want "closed"`);
}

async function checkCloseSubmitAfterClose(c, s) {
  const f = await s.started(c, { hold: false });
  wantNoErr(c, 'close()', await closeBounded(c, f.backend));
  const r = await submitAsync(c, f.backend, f.work).wait(c);
  wantErr(c, 'submit() after close()', r, 'ADAPTER_CLOSED');
  wantState(c, f.backend, f.work.id, f.work.ownerId, 'not_found');
}

// ---------------------------------------------------------------------------------------------
// The suite: fixtures, and what every check needs.

class Suite {
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
function validateFixture(f, hold) {
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

const PORT_METHODS = ['describe', 'start', 'health', 'submit', 'status', 'cancel', 'respondInput',
  'respondAuthorization', 'subscribe', 'close'];

function isBackend(b) {
  return b !== null && typeof b === 'object' && PORT_METHODS.every((m) => typeof b[m] === 'function');
}

/** Returns f.nextWork() after checking that it is a fresh Work of the fixture's owner. */
function next(c, f, used = []) {
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
function unknownId(c) {
  return `conformance-unknown-${c.name.replaceAll('/', '-')}`;
}

/** An owner id different from the Work's owner. */
function otherOwner(w) {
  return `${w.ownerId}-conformance-other`;
}

// ---------------------------------------------------------------------------------------------
// One check's run: its deadline, its failures and its cleanup.

/** Thrown by CheckContext.fatal to end a check; never escapes runCheck. */
class CheckStop extends Error {}

class CheckContext {
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

async function runCheck(name, run, suite) {
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

const TIMED_OUT = Symbol('timed out');

/** Resolves with promise's value, or TIMED_OUT after ms; rejects as promise does. */
function within(promise, ms) {
  let timer;
  const timeout = new Promise((resolve) => { timer = setTimeout(resolve, ms, TIMED_OUT); });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Calls fn (a method that returns a Promise) and waits for it within the check's deadline.
 * Resolves {value} or {threw: true, err}. A synchronous throw is recorded as a contract
 * violation (the method must reject instead) and then handled like a rejection.
 */
async function settle(c, op, fn, { async = true } = {}) {
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
function syncCall(c, op, fn) {
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
function status(c, backend, workId, ownerId) {
  const op = workId === undefined ? 'status()' : `status(${show(workId)}, {ownerId: ${show(ownerId)}})`;
  const st = syncCall(c, op, () => (workId === undefined ? backend.status() : backend.status(workId, { ownerId })));
  if (st === null || typeof st !== 'object') c.fatal(`${op} = ${show(st)}, want an object with a state`);
  return st;
}

/** Fails the check unless status(workId, {ownerId}).state is want. */
function wantState(c, backend, workId, ownerId, want) {
  const got = status(c, backend, workId, ownerId).state;
  if (got !== want) c.error(`status(${show(workId)}, {ownerId: ${show(ownerId)}}).state = ${show(got)}, want ${show(want)}`);
}

/** Fails the check unless the Work is submitted or working for its owner. */
function wantActive(c, backend, w) {
  const got = status(c, backend, w.id, w.ownerId).state;
  if (!ACTIVE_STATES.includes(got)) {
    c.error(`status(${show(w.id)}, {ownerId: ${show(w.ownerId)}}).state = ${show(got)}, want one of ${show(ACTIVE_STATES)}`);
  }
}

/** Polls cond until it holds or the check's deadline passes; resolves whether cond held. */
async function eventually(c, cond) {
  for (;;) {
    if (cond()) return true;
    const left = c.remaining();
    if (left <= 0) return cond();
    await sleep(Math.min(POLL_INTERVAL_MS, left));
  }
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Calls close() and waits at most ms; resolves undefined, the rejection, or TIMED_OUT. */
async function closeWithin(backend, ms) {
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
async function closeBounded(c, backend) {
  const err = await closeWithin(backend, CLOSE_TIMEOUT_MS);
  if (err === TIMED_OUT) c.fatal(`close() did not settle within ${CLOSE_TIMEOUT_MS} ms, want a bounded close`);
  return err === undefined ? { value: undefined } : { threw: true, err };
}

/** A submit() in flight. */
class Pending {
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
function submitAsync(c, backend, work, options) {
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
async function submit(c, backend, work, options) {
  const r = await submitAsync(c, backend, work, options).wait(c);
  if (r.threw) c.fatal(`submit(${show(work.id)}) error = ${showErr(r.err)}, want an outcome`);
  if (!hasOutcome(r.value)) c.error(`submit(${show(work.id)}) = ${show(r.value)}, want non-empty content or artifacts`);
  return r.value;
}

function hasOutcome(out) {
  return out !== null && typeof out === 'object' &&
    ((typeof out.content === 'string' && out.content !== '') || (Array.isArray(out.artifacts) && out.artifacts.length > 0));
}

// ---------------------------------------------------------------------------------------------
// Errors.

function codeOf(err) {
  return err !== null && typeof err === 'object' ? err.code : undefined;
}

/**
 * Describes how result r (from settle or a Pending) differs from a rejection with an Error of
 * code want whose message contains substr, or returns ''.
 */
function diagnoseErr(r, want, substr = '') {
  if (!r.threw) return `resolved ${show(r.value)}, want ${want}`;
  const err = r.err;
  if (!(err instanceof Error) || codeOf(err) !== want) return `${showErr(err)}, want an Error with code ${want}`;
  if (substr !== '' && !String(err.message).includes(substr)) {
    return `${show(err.message)}, want a message containing ${show(substr)}`;
  }
  return '';
}

function wantErr(c, op, r, want, substr = '') {
  const msg = diagnoseErr(r, want, substr);
  if (msg !== '') c.error(`${op} error = ${msg}`);
}

function wantNoErr(c, op, r) {
  if (r.threw) c.error(`${op} error = ${showErr(r.err)}, want it to resolve`);
}

// ---------------------------------------------------------------------------------------------
// Events.

/** Collects the events a listener receives, as snapshots taken on arrival. */
class Recorder {
  constructor() {
    this.events = [];
    this.listen = (e) => { this.events.push(snapshot(e)); };
  }

  all() {
    return this.events.slice();
  }

  /** The events received so far whose taskId is taskId. */
  of(taskId) {
    return this.events.filter((e) => e?.taskId === taskId);
  }
}

function snapshot(v) {
  try {
    return structuredClone(v);
  } catch {
    return v;
  }
}

/** Renders events compactly for failure messages. */
function summary(events) {
  const parts = events.map((e) => (e?.state ? `${e?.type}(${e.state})` : String(e?.type)));
  return `${events.length} events [${parts.join(' ')}]`;
}

/**
 * Describes the first event that does not belong to one of works (taskId of one of them with
 * the matching ownerId) or has an unknown type, or returns ''.
 */
function diagnoseEvents(events, works) {
  for (const [i, e] of events.entries()) {
    if (e === null || typeof e !== 'object') return `event ${i} = ${show(e)}, want an object`;
    if (!EVENT_TYPES.includes(e.type)) return `event ${i} type = ${show(e.type)}, want one of ${show(EVENT_TYPES)}`;
    const w = works.find((x) => x.id === e.taskId);
    if (w === undefined) return `event ${i} (${e.type}) taskId = ${show(e.taskId)}, want a submitted Work id`;
    if (e.ownerId !== w.ownerId) return `event ${i} (${e.type}) of ${show(e.taskId)} ownerId = ${show(e.ownerId)}, want ${show(w.ownerId)}`;
  }
  return '';
}

function wantEvents(c, who, events, works) {
  const msg = diagnoseEvents(events, works);
  if (msg !== '') c.error(`${who}: ${msg}`);
}

// ---------------------------------------------------------------------------------------------
// Values.

function nonEmpty(s) {
  return typeof s === 'string' && s !== '';
}

function isThenable(v) {
  return v !== null && (typeof v === 'object' || typeof v === 'function') && typeof v.then === 'function';
}

/** A copy of o without its undefined members. */
function defined(o) {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

/** Structural equality of plain data; object members that are undefined count as absent. */
function deepEqual(a, b) {
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
function show(v) {
  if (v === undefined) return 'undefined';
  if (typeof v === 'string') return JSON.stringify(v);
  try {
    return JSON.stringify(v, (_, x) => (ArrayBuffer.isView(x) ? `<${x.byteLength} bytes>` : typeof x === 'bigint' ? String(x) : x)) ?? String(v);
  } catch {
    return String(v);
  }
}

function showErr(err) {
  if (err instanceof Error) return `${err.name}: ${err.message} (code ${show(err.code)})`;
  return `${show(err)} (not an Error)`;
}

function showResult(r) {
  if (r === undefined) return 'nothing yet';
  return r.threw ? `error ${showErr(r.err)}` : show(r.value);
}
