import { Recorder, deepEqual, eventually, next, settle, show, submit, summary, wantEvents } from './helpers.js';
import { wantHealthy } from './checks_start.js';

// events: every event carries the Work id and owner; per-Work and subscribed listeners see the
// same events; unsubscribe stops delivery; a throwing listener breaks nothing.

export async function checkEventsOnEvent(c, s) {
  const f = await s.started(c, { hold: false });
  const on = new Recorder();
  await submit(c, f.backend, f.work, { onEvent: on.listen });
  await wantSomeEvents(c, 'onEvent listener', on, f.work);
  wantEvents(c, 'onEvent listener', on.all(), [f.work]);
}

export async function checkEventsSubscribe(c, s) {
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

export async function checkEventsUnsubscribe(c, s) {
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

export async function checkEventsFailingListener(c, s) {
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

export async function checkEventsFailingOnEvent(c, s) {
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
export function subscribe(c, backend, listener) {
  const unsubscribe = backend.subscribe(listener);
  if (typeof unsubscribe !== 'function') {
    c.fatal(`subscribe() = ${show(unsubscribe)}, want an unsubscribe function`);
  }
  c.defer(() => unsubscribe());
  return unsubscribe;
}

/** Waits until rec has received an event of w, and fails the check otherwise. */
export async function wantSomeEvents(c, who, rec, w) {
  if (!(await eventually(c, () => rec.of(w.id).length > 0))) {
    c.error(`${who} received ${summary(rec.of(w.id))} for Work ${show(w.id)}, want at least one`);
  }
}

/**
 * Waits until the subscribed listener sub has received for w exactly the events the Work's own
 * listener on received, and fails the check otherwise. Delivery to subscribers may complete
 * after submit() settles, hence the wait.
 */
export async function wantSameEvents(c, sub, on, w) {
  const same = () => {
    const want = on.of(w.id);
    return want.length > 0 && deepEqual(sub.of(w.id), want);
  };
  if (!(await eventually(c, same))) {
    c.error(`subscribed listener received ${summary(sub.of(w.id))} for Work ${show(w.id)}, want the ${summary(on.of(w.id))} its onEvent listener received`);
  }
}
