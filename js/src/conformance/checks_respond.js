import { settle, unknownId, wantErr } from './helpers.js';

// respond: respondAuthorization is always unsupported; respondInput needs a known Work.
// Answers to held Works are checked in the hold group.

export async function checkRespondAuthorizationUnsupported(c, s) {
  const f = await s.started(c, { hold: false });
  for (const action of ['accept', 'decline', 'cancel']) {
    const op = `respondAuthorization(${action})`;
    const r = await settle(c, op, () => f.backend.respondAuthorization(
      unknownId(c), 'conformance-request', { action }, { ownerId: f.work.ownerId }));
    wantErr(c, op, r, 'A2A_AUTHORIZATION_UNSUPPORTED');
  }
}

export async function checkRespondInputUnknownWork(c, s) {
  const f = await s.started(c, { hold: false });
  const r = await settle(c, 'respondInput() on an unknown Work', () => f.backend.respondInput(
    unknownId(c), 'conformance-request', { text: 'conformance' }, { ownerId: f.work.ownerId }));
  wantErr(c, 'respondInput() on an unknown Work', r, 'WORK_NOT_FOUND');
}
