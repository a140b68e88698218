import { otherOwner, settle, unknownId, wantActive, wantErr } from './helpers.js';

// resume: resume() never re-attaches to a Work that is unknown or another owner's. Resuming a
// recorded Work after a reload needs a workStore the fixture does not describe; the package's own
// tests cover it (test/resume.test.js).

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
