import {
  closeBounded,
  settle,
  show,
  showErr,
  status,
  submit,
  unknownId,
  wantNoErr,
  wantState,
} from './helpers.js';

// status: without an id it reports the runtime; with an id it reports "not_found" for every
// Work that is unknown or finished.

export async function checkStatusRuntime(c, s) {
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

export async function checkStatusUnknownWork(c, s) {
  const f = await s.started(c, { hold: false });
  wantState(c, f.backend, unknownId(c), f.work.ownerId, 'not_found');
  // A Work that was never submitted is unknown too.
  wantState(c, f.backend, f.work.id, f.work.ownerId, 'not_found');
}

export async function checkStatusAfterComplete(c, s) {
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
