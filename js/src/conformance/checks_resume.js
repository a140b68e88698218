import {
  CLOSE_TIMEOUT_MS,
  Recorder,
  SETTLE_GRACE_MS,
  TIMED_OUT,
  closeBounded,
  eventually,
  otherOwner,
  settle,
  show,
  showResult,
  sleep,
  status,
  unknownId,
  wantActive,
  wantErr,
  wantEvents,
  wantNoErr,
  within,
} from './helpers.js';

// resume: resume() never re-attaches to a Work that is unknown or another owner's; with a fixture
// that can reopen its backend on the same workStore, a Work detach() left running is resumed
// (its events all before resume() settles), and one close() ended is not.

export async function checkResumeUnknownWork(c, s) {
  const f = await s.started(c, { hold: false });
  const r = await settle(c, 'resume() of an unknown Work', () => f.backend.resume(unknownId(c), { ownerId: f.work.ownerId }));
  wantErr(c, 'resume() of an unknown Work', r, 'WORK_NOT_FOUND');
}

export async function checkResumeOtherOwner(c, s) {
  const { f, pd } = await s.hold(c);
  const r = await settle(c, "resume() of another owner's Work", () => f.backend.resume(f.work.id, { ownerId: otherOwner(f.work) }));
  wantErr(c, "resume() of another owner's Work", r, 'WORK_NOT_FOUND');
  wantActive(c, f.backend, f.work);
  await pd.wantRunning(c);
}

/**
 * detach() leaves the held Work running with its record (its submit rejects with WORK_DETACHED);
 * a reopened backend resumes it, and every event of the resumed Work, the last one (cancelled)
 * included, is delivered before resume() settles.
 */
export async function checkResumeAfterDetach(c, s) {
  const { f, pd } = await s.hold(c);
  if (typeof f.reopen !== 'function') return; // the fixture cannot reopen its backend on the same workStore
  if (typeof f.backend.detach !== 'function') c.fatal('the backend has no detach()');
  const detached = await within(Promise.resolve().then(() => f.backend.detach()).then(() => ({}), (err) => ({ threw: true, err })), CLOSE_TIMEOUT_MS);
  if (detached === TIMED_OUT) c.fatal(`detach() did not settle within ${CLOSE_TIMEOUT_MS} ms`);
  wantNoErr(c, 'detach()', detached);
  wantErr(c, 'pending submit() after detach()', await pd.wait(c), 'WORK_DETACHED');
  const st = status(c, f.backend);
  if (st.state !== 'closed') c.error(`status().state = ${show(st.state)} after detach(), want "closed"`);

  const again = await f.reopen();
  c.deferClose(again);
  const rec = new Recorder();
  let atSettle;
  const resumed = again.resume(f.work.id, { ownerId: f.work.ownerId, onEvent: rec.listen })
    .then((value) => ({ value }), (err) => ({ threw: true, err }))
    .then((r) => { atSettle = rec.all().length; return r; });
  if (!await eventually(c, () => rec.all().length > 0 || atSettle !== undefined)) c.fatal('the resumed Work sent no event');
  if (atSettle !== undefined) c.fatal(`resume() after detach() = ${showResult(await resumed)} before any event, want the Work followed again`);
  wantActive(c, again, f.work);
  wantNoErr(c, 'cancel() of the resumed Work', await settle(c, 'cancel()', () => again.cancel(f.work.id, { ownerId: f.work.ownerId })));
  wantErr(c, 'resume() after cancel()', await c.wait(resumed, 'resume()'), 'WORK_CANCELLED');
  await sleep(SETTLE_GRACE_MS);
  const events = rec.all();
  if (events.length !== atSettle) c.error(`${events.length - atSettle} events came after resume() settled (${show(events.slice(atSettle))}), want every event first`);
  const last = events.at(-1);
  if (last?.type !== 'backend.activity' || last?.state !== 'cancelled') c.error(`the last event of the resumed Work is ${show(last)}, want the cancelled activity`);
  wantEvents(c, 'the resumed Work', events, [f.work]);
}

/** close() ends the held Work (cancelled at the agent, its record deleted): nothing to resume. */
export async function checkResumeAfterClose(c, s) {
  const { f, pd } = await s.hold(c);
  if (typeof f.reopen !== 'function') return;
  wantNoErr(c, 'close()', await closeBounded(c, f.backend));
  await pd.wait(c);
  const again = await f.reopen();
  c.deferClose(again);
  const r = await settle(c, 'resume() after close()', () => again.resume(f.work.id, { ownerId: f.work.ownerId }));
  wantErr(c, 'resume() after close()', r, 'WORK_NOT_FOUND');
}
