// Tests of the conformance suite itself (js/src/conformance.js), without the core or an agent:
// it runs the table the Go suite runs (conformance/checks.json), a port that keeps the contract passes every check,
// and each contract violation of a faulty port fails the checks that are about it.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { verifyBackendAdapterConformance } from '../src/conformance.js';
import { fakeFixtures } from './fakeport.js';

/** Registers the suite with a collecting test function; resolves name -> undefined (pass) or Error. */
async function runSuite(createFixture) {
  const results = new Map();
  const runs = [];
  verifyBackendAdapterConformance({
    createFixture,
    test: (name, fn) => {
      assert.ok(!results.has(name), `check ${name} registered twice`);
      results.set(name, 'running');
      runs.push(fn().then(() => results.set(name, undefined), (err) => results.set(name, err)));
    },
  });
  await Promise.all(runs);
  return results;
}

function failed(results) {
  return [...results].filter(([, err]) => err !== undefined).map(([name]) => name).sort();
}

/** The checks of the table both runners share, group/check, in order. */
const tableNames = JSON.parse(readFileSync(new URL('../../conformance/checks.json', import.meta.url), 'utf8'))
  .groups.flatMap((g) => g.checks.map((c) => `${g.name}/${c.name}`));

test('the JS suite runs the shared table, every check by its name and in order', () => {
  const names = [];
  verifyBackendAdapterConformance({ createFixture: () => ({}), test: (name) => names.push(name) });
  assert.deepEqual(names, tableNames);
});

test('options are validated', () => {
  assert.throws(() => verifyBackendAdapterConformance(), TypeError);
  assert.throws(() => verifyBackendAdapterConformance({}), /createFixture/);
  assert.throws(() => verifyBackendAdapterConformance({ createFixture: () => ({}), test: 'no' }), /test/);
});

test('a port that keeps the contract passes every check', async () => {
  const results = await runSuite(fakeFixtures());
  const failures = [...results].filter(([, err]) => err !== undefined).map(([, err]) => err.message);
  assert.deepEqual(failures, []);
  assert.equal(results.size, tableNames.length); // and none lacks its JS implementation (it would fail)
});

test('an unusable fixture fails every check with a fixture message', async () => {
  const results = await runSuite(({ hold }) => ({ ...fakeFixtures()({ hold }), nextWork: undefined }));
  for (const [name, err] of results) {
    assert.match(err?.message ?? '', /fixture \(hold=\w+\): nextWork is not a function/, name);
  }
});

// Each faulty port fails exactly the checks about its fault (and never hangs: a fault that
// leaves a submit pending is caught by the per-check deadline).
const faults = [
  { fault: { duplicateCode: 'INVALID_WORK' }, failing: ['hold/duplicate_submit'],
    message: /second submit\(\) of an active Work error = .*want an Error with code WORK_ALREADY_ACTIVE/ },
  { fault: { remoteTaskId: true },
    failing: ['events/on_event', 'events/subscribe', 'events/failing_listener', 'events/failing_on_event',
      'events/unsubscribe', 'submit/concurrent'],
    message: /workId = "remote-|received 0 events/ },
  { fault: { asyncStatus: true },
    failing: ['close/pending_submit', 'close/submit_after_close', 'health/no_side_effects', 'hold/cancel_other_owner',
      'hold/cancel_owner', 'hold/cancel_unknown', 'hold/duplicate_submit', 'hold/respond_without_request',
      'hold/status_active', 'hold/submit_abandoned', 'resume/other_owner', 'status/after_complete', 'status/runtime',
      'status/unknown_work', 'submit/concurrent', 'submit/validation'],
    message: /returned a Promise, want a synchronous answer/ },
  { fault: { listenerBreaks: true }, failing: ['events/failing_listener', 'events/failing_on_event'],
    message: /conformance: (listener|onEvent) throws/ },
  { fault: { cancelLeavesSubmit: true }, failing: ['hold/cancel_owner'],
    message: /submit\("fake-\d+"\) did not settle within the check's 15000 ms/ },
];

describe('faulty ports', { concurrency: true }, () => {
  for (const { fault, failing, message } of faults) {
    test(`a port with fault ${JSON.stringify(fault)} fails ${failing.length} checks`, { timeout: 60_000 }, async () => {
      const results = await runSuite(fakeFixtures(fault));
      assert.deepEqual(failed(results), [...failing].sort());
      for (const name of failing) assert.match(results.get(name).message, message, name);
    });
  }
});
