// Memory in Node: after 1,000 sequential Works, and with 100 streams of one long answer each running
// at once on one adapter (one module instance), for a2aport (its one module, default options)
// and @a2a-js/sdk's own client (the baseline), against the replay agent (bench/cmd/a2aport-replay).
// Every answer is checked byte for byte. Run with `make bench` or
// `node --expose-gc bench/memory.bench.js [works] [streams] [chunks]`; prints numbers, asserts nothing.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { ClientFactory } from '@a2a-js/sdk/client';

import { createA2ABackendAdapter } from '../src/index.js';
import { sdkAnswer } from './sdkanswer.js';

const [works = 1_000, streams = 100, chunks = 2_000] = process.argv.slice(2).map(Number);
const replayBin = new URL('../../bin/a2aport-replay', import.meta.url).pathname;
const child = spawn(replayBin, ['-lifetime', '20m'], { stdio: ['ignore', 'pipe', 'inherit'] });
const { cardUrl } = JSON.parse((await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next()).value);
const cardOf = (n) => cardUrl.replace('{n}', String(n));
const textOf = async (n) => (await fetch(cardOf(n).replace('/.well-known/agent-card.json', '/text'))).text();

const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
const settle = async () => {
  for (let i = 0; i < 3; i++) {
    globalThis.gc?.();
    await new Promise((r) => setTimeout(r, 20));
  }
  return process.memoryUsage().rss;
};

/** A consumer answers one Work on the agent of n chunks and returns the merged text. */
const consumers = {
  'a2aport (default)': async (n) => {
    const port = createA2ABackendAdapter({ agentCardUrl: cardOf(n) });
    await port.start();
    return {
      run: async () => (await port.submit({ id: randomUUID(), ownerId: 'bench', instruction: 'answer' })).artifacts[0]?.parts[0]?.text,
      moduleBytes: () => port[Symbol.for('a2aport.stats')].memoryBytes,
      close: () => port.close(),
    };
  },
  '@a2a-js/sdk client': async (n) => {
    const client = await new ClientFactory().createFromUrl(cardOf(n), '');
    return {
      run: () => sdkAnswer(client, 'answer'),
      moduleBytes: () => 0,
      close: async () => {},
    };
  },
};

const lines = [];
try {
  const smallText = await textOf(1);
  const longText = await textOf(chunks);
  for (const [name, create] of Object.entries(consumers)) {
    // Sequential Works: what stays after many.
    const before = await settle();
    const small = await create(1);
    const check = async () => { if ((await small.run()) !== smallText) throw new Error(`${name}: a Work's text differs`); };
    await check();
    const ready = await settle();
    const moduleReady = small.moduleBytes();
    for (let i = 0; i < works; i++) await check();
    const afterWorks = await settle();
    lines.push(`  ${name.padEnd(20)} ready and one Work: RSS +${mb(ready - before)}; ${works} more sequential Works: RSS ${afterWorks >= ready ? '+' : '-'}${mb(Math.abs(afterWorks - ready))}` +
      (moduleReady ? `, module memory ${mb(moduleReady)} → ${mb(small.moduleBytes())}` : ''));
    await small.close();

    // Concurrent long answers on one adapter / one client.
    const many = await create(chunks);
    await many.run(); // warm up
    const start = performance.now();
    let peak = 0;
    const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 25);
    const texts = await Promise.all(Array.from({ length: streams }, () => many.run()));
    clearInterval(sampler);
    const seconds = (performance.now() - start) / 1000;
    if (texts.some((t) => t !== longText)) throw new Error(`${name}: a concurrent answer's text differs`);
    peak = Math.max(peak, process.memoryUsage().rss);
    lines.push(`  ${name.padEnd(20)} ${streams} concurrent answers of ${chunks} chunks (${mb(streams * longText.length)} of text): ` +
      `${Math.round((streams * chunks) / seconds).toLocaleString('en')} chunks/s, peak RSS +${mb(peak - before)}` +
      (many.moduleBytes() ? `, module memory ${mb(many.moduleBytes())}` : ''));
    await many.close();
  }
} finally {
  child.kill();
}
console.log(`memory in Node ${process.version} (${globalThis.gc ? 'with' : 'without'} --expose-gc; @a2a-js/sdk client as baseline)`);
for (const l of lines) console.log(l);
