import { closeBounded, settle, show, showErr, wantErr, wantNoErr } from './helpers.js';

// start: idempotent, concurrent calls share one discovery and all succeed, and a closed backend
// refuses to start.

export async function checkStartIdempotent(c, s) {
  const f = await s.fixture(c, { hold: false });
  for (let i = 1; i <= 2; i++) {
    const r = await settle(c, `start() #${i}`, () => f.backend.start());
    wantHealthy(c, `start() #${i}`, r);
  }
  wantHealthy(c, 'health()', await settle(c, 'health()', () => f.backend.health()));
}

export async function checkStartConcurrent(c, s) {
  const f = await s.fixture(c, { hold: false });
  const n = 8;
  const calls = [];
  for (let i = 1; i <= n; i++) calls.push(settle(c, `concurrent start() #${i}`, () => f.backend.start()));
  const answers = await Promise.all(calls);
  answers.forEach((r, i) => wantHealthy(c, `concurrent start() #${i + 1}`, r));
  wantHealthy(c, 'health()', await settle(c, 'health()', () => f.backend.health()));
}

export async function checkStartAfterClose(c, s) {
  const f = await s.started(c, { hold: false });
  wantNoErr(c, 'close()', await closeBounded(c, f.backend));
  const r = await settle(c, 'start() after close()', () => f.backend.start());
  wantErr(c, 'start() after close()', r, 'ADAPTER_CLOSED');
}

export async function checkStartCloseBeforeStart(c, s) {
  const f = await s.fixture(c, { hold: false });
  wantNoErr(c, 'close() before start()', await closeBounded(c, f.backend));
  const r = await settle(c, 'start() after close()', () => f.backend.start());
  wantErr(c, 'start() after close()', r, 'ADAPTER_CLOSED');
}

/** Fails the check unless start() or health() resolved {ok: true, started: true}. */
export function wantHealthy(c, op, r) {
  if (r.threw) {
    c.error(`${op} error = ${showErr(r.err)}, want it to resolve`);
    return;
  }
  const h = r.value;
  if (h === null || typeof h !== 'object' || h.ok !== true || h.started !== true) {
    c.error(`${op} = ${show(h)}, want ok and started true`);
  }
}
