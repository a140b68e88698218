// Time per trivial Work in Node: a2aport (the Go adapter in a2aport.wasm, on this thread and in a
// worker: the `worker` option) against the same round trip made by @a2a-js/sdk's own client (the
// baseline), all on one loopback streaming agent.
// Run with `make bench` or `node bench/work.bench.js [works]`; prints numbers, asserts nothing.
import { randomUUID } from 'node:crypto';
import { Role } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';

import { createA2ABackendAdapter } from '../src/index.js';
import { startAgent } from '../test/agent.js';

const works = Number(process.argv[2] ?? 200);
const agent = await startAgent();
const card = agent.cards['v1-jsonrpc-stream'];

async function measure(name, once) {
  for (let i = 0; i < 20; i++) await once(i); // warm up: JIT, connections, the module's heap
  const times = [];
  for (let i = 0; i < works; i++) {
    const start = performance.now();
    await once(i);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  const p50 = at(0.5);
  console.log(`${name.padEnd(22)} p50 ${p50.toFixed(3)} ms, p99 ${at(0.99).toFixed(3)} ms (${works} works)`);
  return p50;
}

try {
  const p50 = {};
  for (const worker of [false, true]) {
    const port = createA2ABackendAdapter({ agentCardUrl: card, worker });
    p50[worker] = await measure(worker ? 'a2aport, in a worker' : 'a2aport (wasm)', (i) => port.submit({ id: `w${i}-${randomUUID()}`, ownerId: 'bench', instruction: 'complete bench' }));
    await port.close();
  }
  const a2aport = p50[false];

  const client = await new ClientFactory().createFromUrl(card, '');
  const sdk = await measure('@a2a-js/sdk client', async () => {
    const stream = client.sendMessageStream({
      tenant: '', configuration: undefined, metadata: undefined,
      message: {
        messageId: randomUUID(), contextId: '', taskId: '', role: Role.ROLE_USER, metadata: undefined,
        extensions: [], referenceTaskIds: [], parts: [{ content: { $case: 'text', value: 'complete bench' }, metadata: undefined, filename: '', mediaType: '' }],
      },
    });
    for await (const _ of stream) { /* drain to the final event */ }
  });
  console.log(`a2aport / @a2a-js/sdk  ${(a2aport / sdk).toFixed(2)}x at p50; in a worker ${(p50[true] / sdk).toFixed(2)}x`);
} finally {
  await agent.stop();
}
