// a2aport/conformance — the BackendPort contract checks (DESIGN.md §2) for any JS BackendPort.
//
// The checks are those of the one table both runners share (conformance/checks.json,
// generated here as conformance/checks.js): the same groups and checks in the same order, with
// the same bounds and the contract's values, as the Go package
// github.com/a2aport/a2aport/conformance. A check of the table this runner lacks fails,
// saying so.
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
  checkEventsFailingListener,
  checkEventsFailingOnEvent,
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
  checkHoldSubmitAbandoned,
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
import { table } from './conformance/checks.js';
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
    for (const group of table.groups) {
      for (const check of group.checks) {
        const name = `${group.name}/${check.name}`;
        const run = implementations[name] ?? (() => {
          throw new Error(`conformance: check ${name} (${check.contract}) has no JS implementation`);
        });
        testFn(name, () => runCheck(name, run, suite));
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
// The JS checks by the names the table gives them, group/check; each file
// conformance/checks_<group>.js holds a group's.

const implementations = {
  'describe/before_start': checkDescribeBeforeStart,
  'describe/after_start': checkDescribeAfterStart,
  'start/idempotent': checkStartIdempotent,
  'start/concurrent': checkStartConcurrent,
  'start/after_close': checkStartAfterClose,
  'start/close_before_start': checkStartCloseBeforeStart,
  'health/after_start': checkHealthAfterStart,
  'health/no_side_effects': checkHealthNoSideEffects,
  'status/runtime': checkStatusRuntime,
  'status/unknown_work': checkStatusUnknownWork,
  'status/after_complete': checkStatusAfterComplete,
  'submit/validation': checkSubmitValidation,
  'submit/completes': checkSubmitCompletes,
  'submit/concurrent': checkSubmitConcurrent,
  'events/on_event': checkEventsOnEvent,
  'events/subscribe': checkEventsSubscribe,
  'events/unsubscribe': checkEventsUnsubscribe,
  'events/failing_listener': checkEventsFailingListener,
  'events/failing_on_event': checkEventsFailingOnEvent,
  'hold/status_active': checkHoldStatusActive,
  'hold/duplicate_submit': checkHoldDuplicateSubmit,
  'hold/cancel_other_owner': checkHoldCancelOtherOwner,
  'hold/cancel_owner': checkHoldCancelOwner,
  'hold/cancel_unknown': checkHoldCancelUnknown,
  'hold/respond_without_request': checkHoldRespondWithoutRequest,
  'hold/submit_abandoned': checkHoldSubmitAbandoned,
  'respond/authorization_unsupported': checkRespondAuthorizationUnsupported,
  'respond/input_unknown_work': checkRespondInputUnknownWork,
  'resume/unknown_work': checkResumeUnknownWork,
  'resume/other_owner': checkResumeOtherOwner,
  'resume/after_detach': checkResumeAfterDetach,
  'resume/after_close': checkResumeAfterClose,
  'close/idempotent': checkCloseIdempotent,
  'close/pending_submit': checkClosePendingSubmit,
  'close/submit_after_close': checkCloseSubmitAfterClose,
};
