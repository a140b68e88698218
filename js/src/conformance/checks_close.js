import {
  closeBounded,
  codeOf,
  show,
  showErr,
  status,
  submit,
  submitAsync,
  wantErr,
  wantNoErr,
  wantState,
} from './helpers.js';

// close: idempotent and bounded, ends pending submits, and the backend refuses Work afterwards.

export async function checkCloseIdempotent(c, s) {
  const f = await s.started(c, { hold: false });
  wantNoErr(c, 'close()', await closeBounded(c, f.backend));
  wantNoErr(c, 'second close()', await closeBounded(c, f.backend));
}

export async function checkClosePendingSubmit(c, s) {
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

export async function checkCloseSubmitAfterClose(c, s) {
  const f = await s.started(c, { hold: false });
  wantNoErr(c, 'close()', await closeBounded(c, f.backend));
  const r = await submitAsync(c, f.backend, f.work).wait(c);
  wantErr(c, 'submit() after close()', r, 'ADAPTER_CLOSED');
  wantState(c, f.backend, f.work.id, f.work.ownerId, 'not_found');
}
