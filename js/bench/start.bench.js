// Time to ready and memory in a fresh Node process: import, create, start against a loopback
// Agent Card, for a2aport and @a2a-js/sdk's client (the baseline); and the module's size (raw,
// gzip, brotli). Run with `make bench` or `node bench/start.bench.js [runs]`;
// prints numbers, asserts nothing.
import { execFile, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const runs = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 5);
const brotli = !process.argv.includes('--no-brotli');
const replayBin = new URL('../../bin/a2aport-replay', import.meta.url).pathname;
const child = spawn(replayBin, ['-lifetime', '5m'], { stdio: ['ignore', 'pipe', 'inherit'] });
const { cardUrl } = JSON.parse((await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next()).value);
const card = cardUrl.replace('{n}', '1');
const pkg = new URL('../', import.meta.url).pathname;

// Each script runs in a fresh process and prints {readyMs, rssMB}: readyMs counts from the
// process's own start (performance.timeOrigin), rssMB is what getting ready added.
const prelude = 'const rss0 = process.memoryUsage().rss;';
const report = 'console.log(JSON.stringify({ readyMs: performance.now(), rssMB: (process.memoryUsage().rss - rss0) / 2 ** 20 }));';
const scripts = {
  a2aport: `${prelude} const { createA2ABackendAdapter } = await import('${pkg}src/index.js');
    const p = createA2ABackendAdapter({ agentCardUrl: '${card}' }); await p.start(); ${report} await p.close();`,
  '@a2a-js/sdk client': `${prelude} const { ClientFactory } = await import('@a2a-js/sdk/client');
    await new ClientFactory().createFromUrl('${card}', ''); ${report}`,
  'node itself (empty script)': `${prelude} ${report}`,
};

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows = [];
try {
  for (const [name, script] of Object.entries(scripts)) {
    const samples = [];
    for (let i = 0; i < runs; i++) {
      const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { cwd: pkg });
      samples.push(JSON.parse(stdout.trim().split('\n').at(-1)));
    }
    rows.push({ name, readyMs: median(samples.map((s) => s.readyMs)), rssMB: median(samples.map((s) => s.rssMB)) });
  }
} finally {
  child.kill();
}
const base = rows.find((r) => r.name === '@a2a-js/sdk client');
console.log(`time to ready in a fresh Node ${process.version} process (median of ${runs}; import, create, start against a loopback card)`);
for (const { name, readyMs, rssMB } of rows) {
  console.log(`  ${name.padEnd(28)} ${readyMs.toFixed(0).padStart(5)} ms (${(readyMs / base.readyMs).toFixed(2)}x baseline)   RSS +${rssMB.toFixed(0)} MB`);
}
const [packed] = JSON.parse((await promisify(execFile)('npm', ['pack', '--dry-run', '--json'], { cwd: pkg })).stdout);
console.log(`npm package: ${(packed.size / 1e6).toFixed(2)} MB packed, ${(packed.unpackedSize / 1e6).toFixed(2)} MB unpacked, ${packed.entryCount} files`);
{
  const bytes = await readFile(new URL('../a2aport.wasm', import.meta.url));
  const mb = (n) => (n / 1e6).toFixed(2);
  const br = brotli ? `, ${mb(brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }).length)} MB brotli` : '';
  console.log(`module size: a2aport.wasm ${mb(bytes.length)} MB raw, ${mb(gzipSync(bytes, { level: 9 }).length)} MB gzip${br}`);
}
