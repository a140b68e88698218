// Time to ready in a real Chromium page: on the demo's own page (served by the demo server, like
// the agent), import the a2aport package, create an adapter and start it against the demo agent's
// 1.0 card; cold (a fresh browser profile: nothing cached) and warm (the same profile again: the
// browser's HTTP and compiled-code caches); with the module on the page's thread (the baseline)
// and in a worker (`worker: true`). Also how long the page's main thread was blocked meanwhile
// (long tasks: > 50 ms each), the page's navigation time and the module's memory. Run with
// `make bench` or `node bench/ready.bench.js [runs]`; prints numbers, asserts nothing. Needs
// /usr/bin/chromium (or CHROMIUM_PATH) and the modules in bin/.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const runs = Number(process.argv[2] ?? 5);
const here = fileURLToPath(new URL('.', import.meta.url));
const repo = resolve(here, '../../..');
const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const tmp = mkdtempSync(join(tmpdir(), 'a2aport-ready-'));

const binary = join(tmp, 'a2aport-demo');
if (spawnSync('go', ['build', '-o', binary, './examples/browser'], { cwd: repo, stdio: 'inherit' }).status !== 0) {
  throw new Error('go build ./examples/browser failed');
}
const server = spawn(binary, ['-addr', '127.0.0.1:0', '-lifetime', '10m', '-js-dir', join(repo, 'js'), '-wasm-dir', join(repo, 'bin')],
  { cwd: repo, stdio: ['ignore', 'pipe', 'inherit'] });
const baseURL = await new Promise((ok, fail) => {
  let out = '';
  server.stdout.on('data', (d) => {
    out += d;
    const m = out.match(/open (http:\/\/127\.0\.0\.1:\d+)\//);
    if (m) ok(m[1]);
  });
  server.on('exit', (code) => fail(new Error(`the demo server exited with ${code}`)));
});

/** One page load and one adapter start in the profile at dir; returns the page's own timings. */
async function measure(dir, worker) {
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: chromiumPath, headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = await context.newPage();
    await page.goto(`${baseURL}/`);
    const navigationMs = await page.evaluate(() => performance.getEntriesByType('navigation')[0].loadEventEnd);
    // The demo page starts an adapter of its own on load: measured is one on a page of the same
    // origin that has none (the package's manifest, shown as text).
    await page.goto(`${baseURL}/a2aport/package.json`);
    const { readyMs, module, moduleMB, blockedMs, longestMs } = await page.evaluate(async ({ card, worker }) => {
      const long = [];
      const observer = new PerformanceObserver((list) => long.push(...list.getEntries()));
      observer.observe({ type: 'longtask' });
      const t0 = performance.now();
      const pkg = await import('/a2aport/src/index.js');
      const port = pkg.createA2ABackendAdapter({ agentCardUrl: card, worker });
      await port.start();
      const ready = performance.now() - t0;
      await new Promise((r) => setTimeout(r, 100)); // the observer reports a task once it ended
      observer.disconnect();
      const during = long.filter((e) => e.startTime >= t0 && e.startTime <= t0 + ready);
      const stats = port[Symbol.for('a2aport.stats')];
      await port.close();
      return {
        readyMs: ready, module: stats.module, moduleMB: stats.memoryBytes / 2 ** 20,
        blockedMs: during.reduce((sum, e) => sum + e.duration, 0), longestMs: Math.max(0, ...during.map((e) => e.duration)),
      };
    }, { card: `${baseURL}/.well-known/agent-card.json`, worker });
    return { navigationMs, readyMs, module, moduleMB, blockedMs, longestMs };
  } finally {
    await context.close();
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results = { inline: { cold: [], warm: [] }, worker: { cold: [], warm: [] } };
try {
  for (let i = 0; i < runs; i++) {
    for (const mode of ['inline', 'worker']) {
      const dir = join(tmp, `profile-${mode}-${i}`);
      results[mode].cold.push(await measure(dir, mode === 'worker'));
      results[mode].warm.push(await measure(dir, mode === 'worker'));
      rmSync(dir, { recursive: true, force: true });
    }
  }
} finally {
  server.kill('SIGTERM');
  rmSync(tmp, { recursive: true, force: true });
}
const version = spawnSync(chromiumPath, ['--version'], { encoding: 'utf8' }).stdout.trim();
console.log(`time to ready in a Chromium page (${version}; median of ${runs}; import, create, start against the demo agent's 1.0 card)`);
for (const mode of ['inline', 'worker']) {
  for (const [name, rows] of [['cold (fresh profile)', results[mode].cold], ['warm (same profile)', results[mode].warm]]) {
    const base = results.inline[name.startsWith('cold') ? 'cold' : 'warm'];
    const ready = median(rows.map((r) => r.readyMs));
    console.log(`  ${(mode === 'inline' ? 'on the page thread (baseline)' : 'in a worker').padEnd(30)} ${name.padEnd(22)} ready ${ready.toFixed(0).padStart(4)} ms ` +
      `(${(ready / median(base.map((r) => r.readyMs))).toFixed(2)}× the baseline), main thread blocked ${median(rows.map((r) => r.blockedMs)).toFixed(0)} ms ` +
      `(longest task ${median(rows.map((r) => r.longestMs)).toFixed(0)} ms), navigation ${median(rows.map((r) => r.navigationMs)).toFixed(0)} ms, ` +
      `${rows[0].module} module, its memory ${median(rows.map((r) => r.moduleMB)).toFixed(0)} MB`);
  }
}
