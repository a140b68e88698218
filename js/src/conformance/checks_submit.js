import {
  INVALID_WORK_MESSAGE,
  Recorder,
  defined,
  hasOutcome,
  next,
  show,
  showErr,
  submit,
  submitAsync,
  wantErr,
  wantEvents,
  wantState,
} from './helpers.js';

// submit: validates the Work before anything else and runs a valid Work to one outcome.

export async function checkSubmitValidation(c, s) {
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

export async function checkSubmitCompletes(c, s) {
  const f = await s.started(c, { hold: false });
  await submit(c, f.backend, f.work);
  // The same backend runs a second Work as well.
  await submit(c, f.backend, next(c, f));
}

export async function checkSubmitConcurrent(c, s) {
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
