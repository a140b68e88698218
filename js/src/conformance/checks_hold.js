import {
  ALREADY_ACTIVE_MESSAGE,
  deepEqual,
  otherOwner,
  settle,
  show,
  status,
  submit,
  submitAsync,
  unknownId,
  wantActive,
  wantErr,
  wantNoErr,
  wantState,
} from './helpers.js';

// hold: a Work that runs until cancelled is active for its owner only, cannot be submitted
// twice, is cancelled by its owner alone, and ends its pending submit with WORK_CANCELLED.

export async function checkHoldStatusActive(c, s) {
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

export async function checkHoldDuplicateSubmit(c, s) {
  const { f, pd } = await s.hold(c);
  const r = await submitAsync(c, f.backend, f.work).wait(c);
  wantErr(c, 'second submit() of an active Work', r, 'WORK_ALREADY_ACTIVE', ALREADY_ACTIVE_MESSAGE);
  // The first submit is untouched.
  wantActive(c, f.backend, f.work);
  await pd.wantRunning(c);
}

export async function checkHoldCancelOtherOwner(c, s) {
  const { f, pd } = await s.hold(c);
  const ownerId = otherOwner(f.work);
  const r = await settle(c, 'cancel() by another owner', () => f.backend.cancel(f.work.id, { ownerId }));
  wantErr(c, 'cancel() by another owner', r, 'WORK_NOT_FOUND');
  wantActive(c, f.backend, f.work);
  await pd.wantRunning(c);
}

export async function checkHoldCancelOwner(c, s) {
  const { f, pd } = await s.hold(c);
  const { id, ownerId } = f.work;
  let r = await settle(c, 'cancel() by the owner', () => f.backend.cancel(id, { ownerId }));
  wantNoErr(c, 'cancel() by the owner', r);
  const want = { workId: id, state: 'cancelled' };
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

export async function checkHoldCancelUnknown(c, s) {
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

export async function checkHoldRespondWithoutRequest(c, s) {
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

export async function checkHoldSubmitAbandoned(c, s) {
  const controller = new AbortController();
  const { f, pd } = await s.hold(c, { signal: controller.signal });
  controller.abort();
  const r = await pd.wait(c);
  // Aborting the signal cancels the Work as cancel() would (index.d.ts, SubmitOptions.signal).
  wantErr(c, 'submit() after its signal was aborted', r, 'WORK_CANCELLED');
  wantState(c, f.backend, f.work.id, f.work.ownerId, 'not_found');
}
