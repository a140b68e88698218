// a2aport/conformance — the BackendPort contract checks (DESIGN.md §2) for any JS BackendPort.
//
// This is the JS twin of the Go package github.com/a2aport/a2aport/adapter/conformance: the
// same groups and checks in the same order, with the same bounds. A behaviour that differs
// between the Go and the JS implementation of the port is a bug, so a check added on one side
// belongs on the other too. Check names follow the Go ones; where Go speaks of something JS does
// not have, the JS name says what it checks instead:
//
//   Go                               JS
//   events/panicking_listener        events/throwing_listener
//   events/panicking_on_event        events/throwing_on_event
//   hold/submit_context_cancelled    hold/submit_signal_aborted
//
// Usage, in a node:test file:
//
//   import { createA2ABackendAdapter } from 'a2aport';
//   import { verifyBackendAdapterConformance } from 'a2aport/conformance';
//
//   let n = 0;
//   verifyBackendAdapterConformance({
//     createFixture({ hold }) {
//       const backend = createA2ABackendAdapter({ agentCardUrl });
//       const nextWork = () => ({ id: `work-${++n}`, ownerId: 'owner-1',
//         instruction: hold ? `hold ${n}` : 'say hello' });
//       const work = nextWork();
//       // started: resolves once the held Work reached execution at the agent.
//       return { backend, work, nextWork, started: hold ? agentStarted(work) : undefined };
//     },
//   });
//
// Each check gets a fresh fixture and closes its backend when it ends (the suite cannot hand the
// fixture a cleanup hook, so it owns the backends it is given). Every wait is bounded — 15 s per
// check, 10 s per close() — so a port that hangs fails instead of blocking the test run.
// Errors are recognised by their `code` (WORK_CANCELLED, WORK_NOT_FOUND, ...), never by class.
//
// `test` defaults to node:test's `test`, loaded only when no test function is passed, so this
// module also loads in a browser test runner that passes its own. Inside a node:test `describe`
// pass `it` (or `test`) explicitly: checks are registered synchronously then.

import {
  checkDescribeAfterStart,
  checkDescribeBeforeStart,
  describe,
} from './conformance/checks_describe.js';
import {
  checkStartAfterClose,
  checkStartCloseBeforeStart,
  checkStartConcurrent,
  checkStartIdempotent,
} from './conformance/checks_start.js';
import {
  checkHealthAfterStart,
  checkHealthNoSideEffects,
} from './conformance/checks_health.js';
import {
  checkStatusAfterComplete,
  checkStatusRuntime,
  checkStatusUnknownWork,
} from './conformance/checks_status.js';
import {
  checkSubmitCompletes,
  checkSubmitConcurrent,
  checkSubmitValidation,
} from './conformance/checks_submit.js';
import {
  checkEventsOnEvent,
  checkEventsSubscribe,
  checkEventsThrowingListener,
  checkEventsThrowingOnEvent,
  checkEventsUnsubscribe,
  subscribe,
} from './conformance/checks_events.js';
import {
  checkHoldCancelOtherOwner,
  checkHoldCancelOwner,
  checkHoldCancelUnknown,
  checkHoldDuplicateSubmit,
  checkHoldRespondWithoutRequest,
  checkHoldStatusActive,
  checkHoldSubmitSignalAborted,
} from './conformance/checks_hold.js';
import {
  checkRespondAuthorizationUnsupported,
  checkRespondInputUnknownWork,
} from './conformance/checks_respond.js';
import {
  checkCloseIdempotent,
  checkClosePendingSubmit,
  checkCloseSubmitAfterClose,
} from './conformance/checks_close.js';
import { checkResumeAfterClose, checkResumeAfterDetach, checkResumeOtherOwner, checkResumeUnknownWork } from './conformance/checks_resume.js';
import { Suite, runCheck, status, submit } from './conformance/helpers.js';

/**
 * Registers the BackendPort contract checks (the same as the Go suite) as tests.
 *
 * @param {{
 *   createFixture: (options: {hold: boolean}) => Fixture | Promise<Fixture>,
 *   test?: (name: string, fn: () => Promise<void>) => unknown,
 * }} options
 */
export function verifyBackendAdapterConformance(options) {
  if (options === null || typeof options !== 'object') {
    throw new TypeError('verifyBackendAdapterConformance: options must be an object with createFixture');
  }
  const { createFixture, test } = options;
  if (typeof createFixture !== 'function') {
    throw new TypeError('verifyBackendAdapterConformance: createFixture must be a function');
  }
  if (test !== undefined && typeof test !== 'function') {
    throw new TypeError('verifyBackendAdapterConformance: test must be a function when given');
  }
  const suite = new Suite(createFixture);
  const register = (testFn) => {
    for (const group of groups()) {
      for (const check of group.checks) {
        const name = `${group.name}/${check.name}`;
        testFn(name, () => runCheck(name, check.run, suite));
      }
    }
  };
  if (test !== undefined) {
    register(test);
    return;
  }
  // Loaded lazily so that the module imports in a browser; bundlers are told to leave it alone.
  const specifier = 'node:test';
  import(/* @vite-ignore */ /* webpackIgnore: true */ specifier).then(
    (nodeTest) => register(nodeTest.test),
    (err) => {
      throw new Error(
        'verifyBackendAdapterConformance: node:test is not available here; pass a test function ({test})',
        { cause: err });
    });
}

// ---------------------------------------------------------------------------------------------
// Groups and checks, in the order of DESIGN.md §2 (and of the Go suite).

function groups() {
  return [
    { name: 'describe', checks: [
      { name: 'before_start', run: checkDescribeBeforeStart },
      { name: 'after_start', run: checkDescribeAfterStart },
    ] },
    { name: 'start', checks: [
      { name: 'idempotent', run: checkStartIdempotent },
      { name: 'concurrent', run: checkStartConcurrent },
      { name: 'after_close', run: checkStartAfterClose },
      { name: 'close_before_start', run: checkStartCloseBeforeStart },
    ] },
    { name: 'health', checks: [
      { name: 'after_start', run: checkHealthAfterStart },
      { name: 'no_side_effects', run: checkHealthNoSideEffects },
    ] },
    { name: 'status', checks: [
      { name: 'runtime', run: checkStatusRuntime },
      { name: 'unknown_work', run: checkStatusUnknownWork },
      { name: 'after_complete', run: checkStatusAfterComplete },
    ] },
    { name: 'submit', checks: [
      { name: 'validation', run: checkSubmitValidation },
      { name: 'completes', run: checkSubmitCompletes },
      { name: 'concurrent', run: checkSubmitConcurrent },
    ] },
    { name: 'events', checks: [
      { name: 'on_event', run: checkEventsOnEvent },
      { name: 'subscribe', run: checkEventsSubscribe },
      { name: 'unsubscribe', run: checkEventsUnsubscribe },
      { name: 'throwing_listener', run: checkEventsThrowingListener },
      { name: 'throwing_on_event', run: checkEventsThrowingOnEvent },
    ] },
    { name: 'hold', checks: [
      { name: 'status_active', run: checkHoldStatusActive },
      { name: 'duplicate_submit', run: checkHoldDuplicateSubmit },
      { name: 'cancel_other_owner', run: checkHoldCancelOtherOwner },
      { name: 'cancel_owner', run: checkHoldCancelOwner },
      { name: 'cancel_unknown', run: checkHoldCancelUnknown },
      { name: 'respond_without_request', run: checkHoldRespondWithoutRequest },
      { name: 'submit_signal_aborted', run: checkHoldSubmitSignalAborted },
    ] },
    { name: 'respond', checks: [
      { name: 'authorization_unsupported', run: checkRespondAuthorizationUnsupported },
      { name: 'input_unknown_work', run: checkRespondInputUnknownWork },
    ] },
    { name: 'resume', checks: [
      { name: 'unknown_work', run: checkResumeUnknownWork },
      { name: 'other_owner', run: checkResumeOtherOwner },
      { name: 'after_detach', run: checkResumeAfterDetach },
      { name: 'after_close', run: checkResumeAfterClose },
    ] },
    { name: 'close', checks: [
      { name: 'idempotent', run: checkCloseIdempotent },
      { name: 'pending_submit', run: checkClosePendingSubmit },
      { name: 'submit_after_close', run: checkCloseSubmitAfterClose },
    ] },
  ];
}
