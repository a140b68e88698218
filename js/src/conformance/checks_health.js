import { ACTIVE_STATES, deepEqual, settle, show, showErr, status } from './helpers.js';
import { wantHealthy } from './checks_start.js';

// health: answers ok once started and touches no Work.

export async function checkHealthAfterStart(c, s) {
  const f = await s.started(c, { hold: false });
  wantHealthy(c, 'health()', await settle(c, 'health()', () => f.backend.health()));
}

export async function checkHealthNoSideEffects(c, s) {
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
