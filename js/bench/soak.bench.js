// Soak: many Works through one adapter (the module in Node) against the Go test agent, a mix of
// normal Works and faults drawn at random (dropped and stalled streams, a send lost in flight,
// refusals, answers that are not A2A, failed tasks), first one after the other, then all at once.
// Prints what must stay 0 (Works that never settled, outcomes other than the fault's, artifact
// events that repeated, events after the outcome) and memory and live counts at start and end.
// bench/soak_test.go does the same under wazero. Run with `make soak` or
// `node --expose-gc bench/soak.bench.js [sequential] [concurrent]`; asserts nothing.
import { createA2ABackendAdapter } from '../src/index.js';
import { newWork, startAgent } from '../test/agent.js';

const [sequential = 2_000, concurrent = 200] = process.argv.slice(2).map(Number);
const BOUND_MS = 60_000; // a Work not settled by then is lost

const report = (i) => Array.from({ length: i }, (_, k) => `part-${k + 1} `).join('');
// The mix, by weight: an instruction for the test agent and the outcome it must have.
const mix = [
  [40, 'complete soak', { content: /echo: complete soak/ }],
  [30, 'chunks 20', { text: report(20) }],
  [3, 'breakstream please', { text: report(12) }],
  [1, 'stallstream please', { text: report(12) }],
  [3, 'cutstream please', { content: /after cut/ }],
  [3, 'dropsend please', { code: 'A2A_OUTCOME_UNKNOWN' }],
  [3, 'status500 please', { code: 'A2A_HTTP_ERROR' }],
  [3, 'status429 please', { code: 'A2A_HTTP_ERROR' }],
  [3, 'badjson please', { code: 'A2A_INVALID_RESPONSE' }],
  [3, 'rpcerror please', { code: 'A2A_PROTOCOL_ERROR' }],
  [3, 'fail please', { code: 'A2A_TASK_FAILED' }],
];
const total = mix.reduce((n, [w]) => n + w, 0);
function draw() {
  let r = Math.random() * total;
  for (const entry of mix) if ((r -= entry[0]) < 0) return entry;
  return mix[0];
}

const counts = { works: 0, lost: 0, wrong: 0, repeated: 0, late: 0 };
const wrongSamples = [];

/** Runs one drawn Work and checks its events and outcome. */
async function one(port) {
  const [, instruction, want] = draw();
  const shown = new Map();
  let settledYet = false;
  const onEvent = (ev) => {
    if (settledYet) counts.late++;
    if (ev.type !== 'backend.artifact') return;
    const text = ev.artifact.parts.map((p) => p.text ?? '').join('');
    if (shown.get(ev.artifact.id) === text) counts.repeated++;
    shown.set(ev.artifact.id, text);
  };
  let timer;
  const bound = new Promise((resolve) => { timer = setTimeout(() => resolve('lost'), BOUND_MS); });
  const result = await Promise.race([
    port.submit(newWork('soak', instruction), { onEvent }).then((out) => ({ out }), (err) => ({ err })),
    bound,
  ]);
  clearTimeout(timer);
  settledYet = true;
  counts.works++;
  if (result === 'lost') {
    counts.lost++;
    return;
  }
  const { out, err } = result;
  const ok = want.code ? err?.code === want.code
    : !err && (want.text ? out.artifacts[0]?.parts[0]?.text === want.text : want.content.test(out.content));
  if (!ok) {
    counts.wrong++;
    if (wrongSamples.length < 5) wrongSamples.push(`${instruction}: ${err ? `${err.code} ${err.message}` : JSON.stringify(out).slice(0, 200)}`);
  }
}

const mb = (b) => `${(b / 2 ** 20).toFixed(0)} MB`;
const settle = async () => {
  globalThis.gc?.();
  await new Promise((r) => setTimeout(r, 50));
  return process.memoryUsage().rss;
};

const agent = await startAgent({ lifetime: '60m' });
const port = createA2ABackendAdapter({ agentCardUrl: agent.cards['v1-jsonrpc-stream'], streamIdleTimeoutMs: 200 });
try {
  await port.start();
  await one(port);
  const rss0 = await settle();
  const mem0 = port[Symbol.for('a2aport.stats')].memoryBytes;
  const t0 = performance.now();
  for (let i = 0; i < sequential; i++) await one(port);
  const t1 = performance.now();
  const rss1 = await settle();
  const mem1 = port[Symbol.for('a2aport.stats')].memoryBytes;
  await Promise.all(Array.from({ length: concurrent }, () => one(port)));
  const t2 = performance.now();
  const rss2 = await settle();
  const stats = port[Symbol.for('a2aport.stats')];
  console.log(`soak in Node ${process.version}: ${sequential} sequential Works in ${((t1 - t0) / 1000).toFixed(1)} s, then ${concurrent} at once in ${((t2 - t1) / 1000).toFixed(1)} s (${mix.length} kinds, ${Math.round((100 * (total - 70)) / total)} % faults)`);
  console.log(`  must be 0: lost ${counts.lost}, wrong outcome ${counts.wrong}, repeated artifact events ${counts.repeated}, events after the outcome ${counts.late}`);
  for (const s of wrongSamples) console.log(`    ${s}`);
  console.log(`  RSS ${mb(rss0)} → ${mb(rss1)} (sequential) → ${mb(rss2)} (concurrent); module memory ${mb(mem0)} → ${mb(mem1)} → ${mb(stats.memoryBytes)}`);
  console.log(`  live at the end: fetches ${stats.fetches}, timers ${stats.timers}; runtime sleeps ${stats.runtimeSleeps}`);
} finally {
  await port.close();
  await agent.stop();
}
