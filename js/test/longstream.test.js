// One answer of 100,000 chunks of 300 bytes (30 MB of text, a2a-go's own bytes replayed by
// bench/cmd/a2aport-replay, from an A2A 1.0 agent and from a 0.3 one) through a2aport in Node: it completes with the exact text, every
// chunk is one event whose delta is that chunk, and the module's memory stays within 4x the text
// plus 32 MB (the target is 3x: see tests/longstream_test.go). Throughput is measured in bench/.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';

import { createA2ABackendAdapter } from '../src/index.js';
import { repoRoot } from './agent.js';

const CHUNKS = 100_000;
const replayBin = join(repoRoot, 'bin', 'a2aport-replay');
let replay;
let cards; // by protocol version

before(async () => {
  await promisify(execFile)('go', ['build', '-o', replayBin, './bench/cmd/a2aport-replay'], { cwd: repoRoot, timeout: 300_000 });
  replay = spawn(replayBin, ['-lifetime', '10m'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = (await createInterface({ input: replay.stdout })[Symbol.asyncIterator]().next()).value;
  const { cardUrl, cardUrl03 } = JSON.parse(line);
  cards = { '1.0': cardUrl.replace('{n}', String(CHUNKS)), '0.3': cardUrl03.replace('{n}', String(CHUNKS)) };
});
after(() => replay?.kill());

for (const version of ['1.0', '0.3']) {
  it(`streams ${CHUNKS.toLocaleString('en')} chunks from a ${version} agent to the end, in bounded memory`, { timeout: 300_000 }, async () => {
    const want = await (await fetch(cards['1.0'].replace('/.well-known/agent-card.json', '/text'))).text();
    const port = createA2ABackendAdapter({ agentCardUrl: cards[version] });
    try {
      let events = 0;
      let chunkDeltas = 0;
      const out = await port.submit({ id: 'long', ownerId: 'o', instruction: 'answer at length' }, {
        onEvent: (ev) => {
          if (ev.type !== 'backend.artifact') return;
          events++;
          if (ev.delta?.text?.length === 300) chunkDeltas++;
        },
      });
      assert.equal(out.artifacts.length, 1);
      assert.ok(out.artifacts[0].parts[0].text === want, `the merged answer is not the ${want.length} bytes sent`);
      assert.ok(out.content === want, 'the content is the answer');
      assert.deepEqual([events, chunkDeltas], [CHUNKS, CHUNKS - 1], 'one event per chunk, each delta that chunk');
      const { memoryBytes } = port[Symbol.for('a2aport.stats')];
      const limit = 4 * want.length + 32 * 2 ** 20; // the target is 3x: see tests/longstream_test.go
      assert.ok(memoryBytes <= limit, `module memory ${memoryBytes >> 20} MB, want at most ${limit >> 20} MB`);
      console.log(`# module memory after a ${want.length >> 20} MB answer: ${memoryBytes >> 20} MB`);
    } finally {
      await port.close();
    }
  });
}
