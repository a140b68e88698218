// The scenario matrix of tests/matrix_test.go, against the JS package: every scenario of the Go
// test agent over {1.0, 0.3} × {JSON-RPC, HTTP+JSON} × {streaming, polling}, with the same
// expectations. What the Go tests read from the agent's own log (a remote cancel that reached
// it) is read here from the requests the adapter sent and the agent's answers (recordingFetch).
// The timeout scenario uses a real 1 s timeoutMs instead of a fake clock.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { createA2ABackendAdapter } from '../src/index.js';
import {
  Recorder, newWork, recordingFetch, remoteCancelConfirmed, settled, startAgent, variants, withTimeout,
} from './agent.js';

const TEST_TIMEOUT_MS = 30_000;

let agent;
before(async () => { agent = await startAgent(); });
after(async () => { await agent?.stop(); });

/** One scenario's environment: a fresh adapter on the variant's card, closed afterwards. */
async function withPort(variant, options, run) {
  const rec = recordingFetch();
  const port = createA2ABackendAdapter({ agentCardUrl: agent.cards[variant.name], pollIntervalMs: 10, fetchImpl: rec.fetchImpl, ...options });
  try {
    await run({ port, variant, requests: rec.requests });
  } finally {
    // The Go runtime in the module never asks to sleep; a request means a miscounted goroutine.
    const { runtimeSleeps } = port[Symbol.for('a2aport.stats')];
    await withTimeout(port.close(), 10_000, 'close() did not settle');
    assert.equal(runtimeSleeps, 0, 'the module asked the host to sleep');
  }
}

/** Submits w with a recorder and returns the pending result and the recorder. */
function submitAsync(port, w) {
  const rec = new Recorder();
  const done = settled(port.submit(w, { onEvent: rec.listen }));
  return { rec, done };
}

/** Runs one Work to its outcome: {out, err, events}. */
async function submit(port, w) {
  const { rec, done } = submitAsync(port, w);
  const r = await done;
  return { ...r, events: rec.events };
}

/** The outcome as plain data: undefined members dropped, raw bytes as Uint8Array kept. */
function clean(v) {
  if (Array.isArray(v)) return v.map(clean);
  if (v instanceof Uint8Array) return new Uint8Array(v);
  if (v !== null && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined).map(([k, x]) => [k, clean(x)]));
  }
  return v;
}

/**
 * Runs a Work whose stream fails after a few chunks of a 12-chunk report while the task carries
 * on, and checks that it completes with every chunk delivered once, after one send and a
 * resubscription.
 */
async function checkRecovered(port, requests, instruction) {
  const { out, err, events } = await submit(port, newWork('alice', instruction));
  assert.ifError(err);
  const want = Array.from({ length: 12 }, (_, i) => `part-${i + 1} `).join('');
  assert.equal(out.artifacts.length, 1);
  assert.equal(out.artifacts[0].parts[0].text, want, 'the whole report');
  checkStreamedOnce(events, want);
  const methods = requests.map((r) => r.a2aMethod).filter(Boolean);
  assert.equal(methods.filter((m) => m === 'SendStreamingMessage').length, 1, `requests: ${methods}; want one send`);
  assert.ok(methods.includes('SubscribeToTask'), `requests: ${methods}; want a resubscription`);
}

/**
 * Checks that a Work's artifact events grew its one artifact to want, each showing more than the
 * one before (nothing delivered twice), and that the Work said it was reconnecting.
 */
function checkStreamedOnce(events, want) {
  let shown = '';
  for (const ev of events.filter((e) => e.type === 'backend.artifact')) {
    const text = ev.artifact.parts[0].text;
    assert.ok(text.length > shown.length && text.startsWith(shown), `artifact event shows ${JSON.stringify(text)} after ${JSON.stringify(shown)}`);
    if (ev.delta) assert.equal(shown + ev.delta.text, text, 'the delta takes the previous text to this one');
    shown = text;
  }
  assert.equal(shown, want, 'the artifact events end at the whole text');
  assert.ok(events.some((e) => e.type === 'backend.activity' && e.reconnecting === true), 'no activity event said the Work was reconnecting');
  checkNoRepeats(events);
}

/**
 * Fails when an activity or message event shows what an earlier one of the Work already showed
 * (the agent's snapshot after a reconnection re-applied), or a reconnection is not answered by one
 * `reconnected` notice.
 */
function checkNoRepeats(events) {
  const seen = new Set();
  let open = 0;
  for (const [i, ev] of events.entries()) {
    if (ev.reconnecting) {
      open++;
    } else if (ev.reconnected) {
      assert.equal(open, 1, `event ${i} says reconnected with ${open} breaks open`);
      open = 0;
    } else if (ev.type === 'backend.activity' || ev.type === 'backend.message') {
      const key = JSON.stringify([ev.type, ev.state, ev.text]);
      assert.ok(!seen.has(key), `event ${i} repeats ${key}, which the Work already showed`);
      seen.add(key);
    }
  }
  assert.ok(open <= 1, `${open} reconnection notices for one break`);
}

function wantCode(err, code) {
  assert.ok(err, `error = none, want code ${code}`);
  assert.equal(err.code, code, `error = ${err.name}: ${err.message} (code ${err.code}), want code ${code}`);
  assert.ok(err instanceof Error, 'the rejection is an Error');
}

const countType = (events, type) => events.filter((e) => e.type === type).length;
const isType = (type) => (e) => e.type === type;

const scenarios = [
  { name: 'complete', async run({ port }) {
    const w = newWork('alice', 'complete hello there');
    const { out, err, events } = await submit(port, w);
    assert.ifError(err);
    assert.deepEqual(clean(out), {
      text: 'echo: complete hello there', // the answer; content is the summary, status text first
      content: 'done\n\necho: complete hello there',
      artifacts: [{ id: 'result', name: 'result', parts: [{ type: 'text', text: 'echo: complete hello there' }] }],
    });
    for (const ev of events) {
      assert.ok(ev.workId === w.id && ev.ownerId === w.ownerId, `event ${JSON.stringify(ev)} carries Work ${ev.workId} owner ${ev.ownerId}, want ${w.id} ${w.ownerId}`);
    }
    const last = events.at(-1);
    assert.ok(last?.type === 'backend.activity' && last.state === 'completed', `last event = ${JSON.stringify(last)}, want completed activity`);
    assert.equal(countType(events, 'backend.artifact'), 1, 'artifact events (once per artifact and change)');
  } },
  { name: 'padded', async run({ port }) {
    // The content is the answer trimmed, the artifact the answer as sent: the module sends the
    // content as a reference to the artifact's text and the white space to leave out.
    const { out, err } = await submit(port, newWork('alice', 'padded the answer'));
    assert.ifError(err);
    assert.deepEqual(clean(out), {
      text: '\n\u3000 the answer \n',
      content: 'the answer',
      artifacts: [{ id: 'answer', name: 'answer', parts: [{ type: 'text', text: '\n\u3000 the answer \n' }] }],
    });
  } },
  { name: 'chunks', async run({ port, variant }) {
    const { out, err, events } = await submit(port, newWork('alice', 'chunks 5'));
    assert.ifError(err);
    assert.ok(out.artifacts.length === 1 && out.artifacts[0].parts[0].text === 'part-1 part-2 part-3 part-4 part-5 ',
      `artifacts = ${JSON.stringify(out.artifacts)}, want one report with the five chunks merged in order`);
    // Streamed chunks arrive in order, each event a longer prefix of the final text.
    let prev = '';
    for (const ev of events.filter(isType('backend.artifact'))) {
      const text = ev.artifact.parts[0].text;
      assert.ok(text.startsWith(prev) && text !== prev, `artifact event ${JSON.stringify(text)} does not extend ${JSON.stringify(prev)}`);
      prev = text;
    }
    if (variant.streaming) assert.equal(countType(events, 'backend.artifact'), 5, 'streamed artifact events');
    // outcome.text is what appending every delta gives: the answer, untrimmed, without the status text.
    let appended = '';
    for (const ev of events.filter(isType('backend.artifact'))) appended = ev.delta ? appended + (ev.delta.text ?? '') : ev.artifact.parts[0].text;
    assert.deepEqual({ text: out.text, appended }, { text: 'part-1 part-2 part-3 part-4 part-5 ', appended: 'part-1 part-2 part-3 part-4 part-5 ' });
    assert.equal(out.content, 'done\n\npart-1 part-2 part-3 part-4 part-5');
  } },
  { name: 'fail', async run({ port }) {
    const { err } = await submit(port, newWork('alice', 'fail now'));
    wantCode(err, 'A2A_TASK_FAILED');
    assert.match(err.message, /the agent failed on purpose/, "the error carries the agent's status text");
    assert.equal(err.agentText, 'the agent failed on purpose', "agentText: the agent's words as it said them");
  } },
  { name: 'reject', async run({ port }) {
    const { err } = await submit(port, newWork('alice', 'reject this'));
    wantCode(err, 'A2A_TASK_REJECTED');
    assert.match(err.message, /the agent rejected the request/, "the error carries the agent's status text");
  } },
  { name: 'message-only', async run({ port }) {
    const { out, err, events } = await submit(port, newWork('alice', 'message please'));
    assert.ifError(err);
    const want = { text: 'plain reply', content: 'plain reply', artifacts: [{ name: 'message', parts: [{ type: 'data', data: { kind: 'message' } }] }], messageReply: true };
    if (out.artifacts?.length === 1) want.artifacts[0] = { id: out.artifacts[0].id, ...want.artifacts[0] };
    assert.deepEqual(clean(out), clean(want));
    assert.equal(countType(events, 'backend.message'), 1, 'message events');
    assert.ok(!events.some((e) => e.type === 'backend.activity' && e.state === 'submitted'), 'a Work answered with a message says submitted');
  } },
  { name: 'artifacts', async run({ port, variant }) {
    const { out, err } = await submit(port, newWork('alice', 'artifacts all kinds'));
    assert.ifError(err);
    const want = [
      { id: 'a-text', name: 'notes', description: 'text part', parts: [{ type: 'text', text: 'hello artifacts' }] },
      { id: 'a-raw', name: 'bytes', parts: [{ type: 'raw', raw: new Uint8Array([0, 1, 2, 3, 255]), mediaType: 'application/octet-stream', filename: 'bytes.bin' }] },
      { id: 'a-url', name: 'link', parts: [{ type: 'url', url: 'https://example.com/report.pdf', mediaType: 'application/pdf', filename: 'report.pdf' }] },
      { id: 'a-data', name: 'data', parts: [{ type: 'data', data: { answer: 42, ok: true }, mediaType: 'application/json' }] },
    ];
    if (variant.version === '0.3') delete want[3].parts[0].mediaType; // A2A 0.3 data parts carry no media type
    const raw = out.artifacts?.[1]?.parts?.[0]?.raw;
    assert.ok(raw instanceof Uint8Array, `raw part = ${Object.prototype.toString.call(raw)}, want a Uint8Array`);
    assert.deepEqual(clean(out.artifacts), want);
    assert.equal(out.content, 'done\n\nhello artifacts', 'content: status text plus artifact text');
  } },
  { name: 'files', async run({ port }) {
    const w = newWork('alice', 'files attached');
    w.inputParts = [
      { type: 'file', url: 'data:text/plain;base64,aGVsbG8=', filename: 'a.txt' },
      { type: 'file', url: 'https://files.test/r.pdf', mime: 'application/pdf', filename: 'r.pdf' },
    ];
    const { out, err } = await submit(port, w);
    assert.ifError(err);
    const got = out.artifacts[0].parts[0].text;
    for (const line of ['raw a.txt text/plain 5', 'url https://files.test/r.pdf application/pdf r.pdf']) {
      assert.ok(got.includes(line), `agent saw ${JSON.stringify(got)}, want a line ${JSON.stringify(line)}`);
    }
  } },
  { name: 'input-required', async run({ port }) {
    const w = newWork('alice', 'input needed');
    const { rec, done } = submitAsync(port, w);
    const { event: ev, index: at } = await rec.waitFor(isType('backend.input.requested'));
    assert.ok(ev.input.kind === 'input' && ev.input.prompt === 'What is your name?' && ev.input.mode === 'text',
      `input request = ${JSON.stringify(ev.input)}, want kind input with the agent's prompt`);
    assert.equal(port.status(w.id, { ownerId: w.ownerId }).state, 'input_required');
    const id = ev.input.inputRequestId;
    await assert.rejects(port.respondInput(w.id, 'no-such-request', { text: 'x' }, { ownerId: w.ownerId }), { code: 'INPUT_NOT_PENDING' });
    await assert.rejects(port.respondInput(w.id, id, { text: 'x' }, { ownerId: 'mallory' }), { code: 'WORK_NOT_FOUND' });
    await assert.rejects(port.respondInput(w.id, id, {}, { ownerId: w.ownerId }), { code: 'INPUT_ACTION_REQUIRED' });
    await port.respondInput(w.id, id, { text: 'again' }, { ownerId: w.ownerId });
    await assert.rejects(port.respondInput(w.id, id, { text: 'twice' }, { ownerId: w.ownerId }), { code: 'INPUT_ALREADY_SUBMITTED' });
    const { event: second } = await rec.waitFor(isType('backend.input.requested'), { from: at + 1 });
    assert.ok(second.input.prompt === 'What is your name, really?' && second.input.inputRequestId !== id,
      `second request = ${JSON.stringify(second.input)}, want a new id and the follow-up prompt`);
    await port.respondInput(w.id, second.input.inputRequestId, { text: 'Ada' }, { ownerId: w.ownerId });
    const r = await done;
    assert.ifError(r.err);
    assert.match(r.out.content, /Hello, Ada!/);
    assert.equal(countType(rec.events, 'backend.input.resolved'), 2, 'input.resolved events');
  } },
  { name: 'auth-decline', async run(e) {
    const { out, err } = await answerAuth(e, { action: 'decline' });
    assert.ifError(err);
    assert.match(out.content, /authorization declined/, 'the agent continues with the decline');
  } },
  { name: 'auth-accept', async run(e) {
    const { out, err } = await answerAuth(e, { action: 'accept' });
    assert.ifError(err);
    assert.match(out.content, /authorized/);
  } },
  { name: 'auth-cancel', async run(e) {
    const { err } = await answerAuth(e, { action: 'cancel' });
    wantCode(err, 'WORK_CANCELLED');
    assert.ok(await remoteCancelConfirmed(e.requests), 'cancelling an authorization request did not cancel the remote task');
  } },
  { name: 'cancel', async run({ port, variant, requests }) {
    const w = newWork('alice', `hold cancel ${variant.name} ${process.pid}`);
    const { rec, done } = submitAsync(port, w);
    await rec.waitFor((ev) => ev.state === 'working');
    await assert.rejects(port.cancel(w.id, { ownerId: 'mallory' }), { code: 'WORK_NOT_FOUND' });
    assert.deepEqual(clean(await port.cancel(w.id, { ownerId: w.ownerId })), { workId: w.id, state: 'cancelled' });
    wantCode((await done).err, 'WORK_CANCELLED');
    assert.ok(await remoteCancelConfirmed(requests), 'cancel did not cancel the remote task');
  } },
  { name: 'timeout', options: { timeoutMs: 1000 }, async run({ port, variant, requests }) {
    // Discovery first, so that the Work's second is spent at the agent: the remote task is
    // known long before the timeout fires (the Go test waits for that with a fake clock).
    await port.start();
    const w = newWork('alice', `hold timeout ${variant.name} ${process.pid}`);
    const { rec, done } = submitAsync(port, w);
    wantCode((await done).err, 'A2A_TIMEOUT');
    assert.ok(rec.events.some((ev) => ev.state === 'working'), 'the Work was never working before it timed out');
    assert.ok(await remoteCancelConfirmed(requests), 'a timed-out Work did not cancel its remote task');
  } },
  { name: 'stream-cut-falls-back-to-polling', streamingOnly: true, async run({ port }) {
    const { out, err } = await submit(port, newWork('alice', 'cutstream please'));
    assert.ifError(err);
    assert.match(out.content, /after cut/, 'the outcome found by polling');
  } },
  { name: 'stream-break-recovers', streamingOnly: true, async run({ port, requests }) {
    // The connection drops after 3 of 12 chunks while the task carries on: the Work
    // resubscribes and delivers every chunk once, without sending the message again.
    await checkRecovered(port, requests, 'breakstream please');
  } },
  { name: 'stream-stall-recovers', streamingOnly: true, options: { streamIdleTimeoutMs: 200 }, async run({ port, requests }) {
    // The stream goes silent after 2 of 12 chunks, its connection open: past the idle limit the
    // Work resubscribes, as for a broken one.
    await checkRecovered(port, requests, 'stallstream please');
  } },
  { name: 'stream-stall-found-by-probe', streamingOnly: true, options: { streamProbeIntervalMs: 200 }, async run({ port, requests }) {
    // The same silent stream, found dead by the probe (the idle timeout stays at 60 s): the task
    // moved on, the stream did not.
    await checkRecovered(port, requests, 'stallstream probed');
  } },
  { name: 'quiet-agent-is-kept', streamingOnly: true, options: { streamProbeIntervalMs: 100 }, async run({ port, requests }) {
    // The agent thinks for 1.5 s without a word on a healthy stream: the probes find the task
    // where the stream left it, and the stream is kept.
    const { out, err, events } = await submit(port, newWork('alice', 'slow 1500 quietly'));
    assert.ifError(err);
    assert.match(out.content, /slow done/);
    assert.ok(!events.some((e) => e.reconnecting), 'a quiet agent on a healthy stream was reconnected');
    const methods = requests.map((r) => r.a2aMethod).filter(Boolean);
    assert.ok(methods.includes('GetTask'), `requests: ${methods}; want a probe while the agent was quiet`);
    assert.ok(!methods.includes('SubscribeToTask'), `requests: ${methods}; a quiet agent's stream was resubscribed`);
  } },
  { name: 'stream-silent-before-first-event', streamingOnly: true, options: { firstEventTimeoutMs: 300 }, async run({ port }) {
    // The message may have reached the agent: its fate is unknown, and it is never sent again.
    const { err } = await submit(port, newWork('alice', 'stallfirst please'));
    wantCode(err, 'A2A_OUTCOME_UNKNOWN');
    assert.match(err.message, /sent no event within/);
    assert.ok(!err.retryable, 'retryable, but the agent may have received the message');
  } },
  { name: 'answer-over-the-response-limit', options: { maxResponseBytes: 64 << 10 }, async run({ port }) {
    // One event (streaming) or one GetTask answer (polling) of 100 kB, past a 64 KiB limit.
    const { err } = await submit(port, newWork('alice', 'big 100000'));
    wantCode(err, 'A2A_RESPONSE_TOO_LARGE');
  } },
  { name: 'artifact-over-its-limit', options: { maxArtifactBytes: 4096 }, async run({ port }) {
    const { err } = await submit(port, newWork('alice', 'big 5000'));
    wantCode(err, 'A2A_RESPONSE_TOO_LARGE');
  } },
  { name: 'artifacts-over-the-work-limit', options: { maxArtifactBytes: 4096, maxWorkBytes: 10_000 }, async run({ port }) {
    // Each artifact within its limit, all of them past the Work's.
    const { err } = await submit(port, newWork('alice', 'many 5 3000'));
    wantCode(err, 'A2A_RESPONSE_TOO_LARGE');
    assert.match(err.message, /MaxWorkBytes/);
    const { out, err: ok } = await submit(port, newWork('alice', 'many 3 3000'));
    assert.ifError(ok);
    assert.equal(out.artifacts.length, 3);
  } },
  { name: 'send-dropped-outcome-unknown', async run({ port }) {
    // The agent got the message, the connection dropped before any answer: the adapter cannot
    // know what became of it, says so, and does not invite a retry.
    const { err } = await submit(port, newWork('alice', 'dropsend please'));
    wantCode(err, 'A2A_OUTCOME_UNKNOWN');
    assert.ok(!err.retryable, 'retryable, but a retry could start the work twice');
  } },
  { name: 'stream-refused-with-json-rpc-error', streamingOnly: true, async run({ port, variant }) {
    if (variant.binding !== 'jsonrpc') return; // a JSON-RPC error response is a JSON-RPC binding's
    const { err } = await submit(port, newWork('alice', 'rpcerror please'));
    wantCode(err, 'A2A_PROTOCOL_ERROR');
    assert.match(err.message, /streaming is switched off today/, "the agent's own message");
  } },
  { name: 'stream-unsupported-falls-back-to-send', streamingOnly: true, async run({ port }) {
    const { out, err } = await submit(port, newWork('alice', 'nostream please'));
    assert.ifError(err);
    assert.equal(out.content, 'done\n\necho: nostream please', 'the task completed through a plain send');
  } },
  { name: 'empty-stream', streamingOnly: true, async run({ port }) {
    const { err } = await submit(port, newWork('alice', 'emptystream please'));
    wantCode(err, 'A2A_INVALID_RESPONSE');
  } },
  { name: 'http-refusals', async run({ port }) {
    // A send refused before the agent: A2A_HTTP_ERROR with the status, A2A_AUTH_REQUIRED for 401
    // and 403; retryable only where a later try may succeed (429), and never retried by the adapter.
    for (const [status, code, retryable] of [[401, 'A2A_AUTH_REQUIRED', false], [403, 'A2A_AUTH_REQUIRED', false],
      [404, 'A2A_HTTP_ERROR', false], [429, 'A2A_HTTP_ERROR', true]]) {
      const { err } = await submit(port, newWork('alice', `status${status} please`));
      wantCode(err, code);
      assert.deepEqual({ status: err.status, retryable: err.retryable }, { status, retryable });
    }
    const { out, err } = await submit(port, newWork('alice', 'complete after refusals'));
    assert.ifError(err);
    assert.match(out.content, /echo: complete after refusals/);
  } },
  { name: 'answers-that-are-not-a2a', async run({ port }) {
    for (const instruction of ['badjson please', 'wrongtype please']) {
      const { err } = await submit(port, newWork('alice', instruction));
      wantCode(err, 'A2A_INVALID_RESPONSE');
    }
  } },
  { name: 'slow-drip-is-not-cut', streamingOnly: true, options: { streamIdleTimeoutMs: 1000 }, async run({ port }) {
    // Every event arrives in pieces, far apart but each gap well under the idle limit: a slow,
    // healthy stream completes without a reconnection.
    const { out, err, events } = await submit(port, newWork('alice', 'slowdrip please'));
    assert.ifError(err);
    assert.equal(out.artifacts[0]?.parts[0]?.text, Array.from({ length: 12 }, (_, i) => `part-${i + 1} `).join(''));
    assert.ok(!events.some((e) => e.reconnecting), 'a slow but healthy stream was recovered as a broken one');
  } },
  { name: 'repeated-status-updates', streamingOnly: true, async run({ port }) {
    // A relay that sends every status update twice: each state shows once, the Work completes.
    const { out, err, events } = await submit(port, newWork('alice', 'dupstatus please'));
    assert.ifError(err);
    assert.match(out.content, /echo: dupstatus please/);
    assert.deepEqual(events.filter((e) => e.type === 'backend.activity').map((e) => e.state), ['submitted', 'working', 'completed']);
  } },
  { name: 'http-500', async run({ port }) {
    const { err } = await submit(port, newWork('alice', 'status500 please'));
    wantCode(err, 'A2A_HTTP_ERROR');
    assert.ok(err.status === 500 && err.retryable === true && err.message.includes('agent exploded'),
      `error = {status: ${err.status}, retryable: ${err.retryable}, message: ${JSON.stringify(err.message)}}, want status 500, retryable, body summary`);
  } },
];

/** Submits an auth scenario and answers its authorization request with response. */
async function answerAuth({ port }, response) {
  const w = newWork('alice', `auth calendar ${response.action} ${process.pid}`);
  const { rec, done } = submitAsync(port, w);
  const { event: ev } = await rec.waitFor(isType('backend.input.requested'));
  assert.ok(ev.input.kind === 'authorization' && ev.input.prompt === 'Please authorize access to the calendar',
    `request = ${JSON.stringify(ev.input)}, want an authorization request with the agent's prompt`);
  assert.equal(port.status(w.id, { ownerId: w.ownerId }).state, 'auth_required');
  await assert.rejects(port.respondInput(w.id, ev.input.inputRequestId, { text: 'ok' }, { ownerId: w.ownerId }), { code: 'INPUT_ACTION_REQUIRED' });
  await port.respondInput(w.id, ev.input.inputRequestId, response, { ownerId: w.ownerId });
  return done;
}

for (const variant of variants) {
  describe(variant.name, { concurrency: true }, () => {
    for (const sc of scenarios) {
      if (sc.streamingOnly && !variant.streaming) continue;
      it(sc.name, { timeout: TEST_TIMEOUT_MS }, () => withPort(variant, sc.options, sc.run));
    }
  });
}
