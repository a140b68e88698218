// Stream throughput in Node: one long answer of n chunks of 300 bytes (an LLM agent streaming
// token by token) from the replay agent (bench/cmd/a2aport-replay, a2asrv's own SSE bytes served
// from memory), to a2aport, @a2a-js/sdk's own client (the baseline), and
// raw fetch + SSE split + JSON.parse (the JS limit). Every answer is checked against the exact
// text before it counts. Run with `make bench` or `node bench/stream.bench.js [n ...]`; prints
// numbers, asserts nothing.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { ClientFactory } from '@a2a-js/sdk/client';

import { createA2ABackendAdapter } from '../src/index.js';
import { sdkAnswer } from './sdkanswer.js';

const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
if (sizes.length === 0) sizes.push(2_000, 20_000);

const replayBin = new URL('../../bin/a2aport-replay', import.meta.url).pathname;
const child = spawn(replayBin, ['-lifetime', '20m'], { stdio: ['ignore', 'pipe', 'inherit'] });
const { cardUrl, cardUrl03 } = JSON.parse((await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next()).value);
const cardOf = (n) => cardUrl.replace('{n}', String(n));
const card03Of = (n) => cardUrl03.replace('{n}', String(n));
const endpointOf = (n) => cardOf(n).replace('/.well-known/agent-card.json', '/a2a');

const ports = []; // a2aport's, closed at the end

/**
 * Each consumer is set up once per answer size (client, card, module instance: time to ready is
 * measured apart) and then runs one n-chunk answer per call, returning the merged text.
 */
const consumers = {
  'raw fetch+SSE+JSON.parse': async (n) => async () => {
    const res = await fetch(endpointOf(n), {
      method: 'POST', headers: { 'Content-Type': 'application/json', 'A2A-Version': '1.0', Accept: 'text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendStreamingMessage', params: { message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: 'answer at length' }] } } }),
    });
    const decoder = new TextDecoder();
    let pending = '';
    const texts = [];
    for await (const bytes of res.body) {
      pending += decoder.decode(bytes, { stream: true });
      let cut;
      while ((cut = pending.indexOf('\n\n')) >= 0) {
        const event = pending.slice(0, cut);
        pending = pending.slice(cut + 2);
        const data = event.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5)).join('\n');
        const update = JSON.parse(data).result?.artifactUpdate;
        if (update) for (const p of update.artifact.parts) if (p.text) texts.push(p.text);
      }
    }
    return texts.join('');
  },
  '@a2a-js/sdk client': async (n) => {
    const client = await new ClientFactory().createFromUrl(cardOf(n), '');
    return () => sdkAnswer(client, 'answer at length');
  },
  a2aport: (n) => a2aportOn(cardOf(n), n),
  // The same answer from an A2A 0.3 agent (a2a-go's 0.3 JSON-RPC server's bytes).
  'a2aport, 0.3 agent': (n) => a2aportOn(card03Of(n), n),
};

async function a2aportOn(agentCardUrl, n) {
  const port = createA2ABackendAdapter({ agentCardUrl });
  ports.push(port);
  await port.start();
  return async () => {
    let events = 0;
    const out = await port.submit({ id: randomUUID(), ownerId: 'bench', instruction: 'answer at length' }, { onEvent: () => { events++; } });
    if (events < n) throw new Error(`${events} events for ${n} chunks`);
    return out.artifacts[0]?.parts[0]?.text;
  };
}

const rows = [];
try {
  for (const n of sizes) {
    const want = await (await fetch(cardOf(n).replace('/.well-known/agent-card.json', '/text'))).text();
    const rounds = Math.max(1, Math.round(20_000 / n));
    for (const [name, prepare] of Object.entries(consumers)) {
      const run = await prepare(n);
      await run(); // warm up: JIT, connections, the module's heap
      let spent = 0;
      for (let r = 0; r < rounds; r++) {
        const start = performance.now();
        const got = await run();
        spent += performance.now() - start;
        if (got !== want) throw new Error(`${name}: ${got?.length} bytes of text for n=${n}, want ${want.length} exactly`);
      }
      rows.push({ n, name, chunksPerSec: (n * rounds) / (spent / 1000) });
    }
  }
} finally {
  await Promise.all(ports.map((p) => p.close()));
  child.kill();
}

const baseline = '@a2a-js/sdk client';
console.log(`stream throughput in Node ${process.version}, chunks/s (${(JSON.parse(await readFile(new URL('../node_modules/@a2a-js/sdk/package.json', import.meta.url))).version)} SDK as baseline)`);
for (const { n, name, chunksPerSec } of rows) {
  const base = rows.find((r) => r.n === n && r.name === baseline).chunksPerSec;
  const first = rows.find((r) => r.n === sizes[0] && r.name === name).chunksPerSec;
  console.log(`  n=${String(n).padEnd(7)} ${name.padEnd(26)} ${Math.round(chunksPerSec).toLocaleString('en').padStart(9)}   ${(chunksPerSec / base).toFixed(2)}x baseline   ${(chunksPerSec / first).toFixed(2)}x n=${sizes[0]}`);
}
