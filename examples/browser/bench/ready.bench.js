// Time to ready in a real Chromium page, on a page of the demo server's origin that runs no
// adapter of its own, against the demo agent's 1.0 card: a2aport (import the package, create an
// adapter, start it) with the module on the page's thread and in a worker (`worker: true`, the
// default), and the baseline, @a2a-js/sdk 1.3.0's client (import it and jose unbundled from the
// same origin, create a client from the card URL: what start does). Cold (a fresh browser
// profile: nothing cached) and warm (the same profile again: the browser's HTTP and compiled-code
// caches). Also how long the page's main thread was blocked meanwhile (long tasks: > 50 ms each),
// the page's navigation time and the module's memory. Run with `make bench` or
// `node bench/ready.bench.js [runs]`; prints numbers, asserts nothing. Needs /usr/bin/chromium
// (or CHROMIUM_PATH), the modules in bin/ and js/node_modules.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
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
// The demo serves a package's src/ below /a2aport/src/: a2aport's, and beside it the baseline,
// the SDK's client bundle with its one bare import (jose) pointed at jose's browser build.
const pkg = join(tmp, 'package');
const modules = join(repo, 'js', 'node_modules');
mkdirSync(join(pkg, 'src', 'baseline'), { recursive: true });
for (const entry of readdirSync(join(repo, 'js', 'src'))) symlinkSync(join(repo, 'js', 'src', entry), join(pkg, 'src', entry));
const sdkClient = readFileSync(join(modules, '@a2a-js', 'sdk', 'dist', 'client', 'index.js'), 'utf8');
if (!sdkClient.includes('from "jose"')) throw new Error('the SDK client no longer imports jose as expected');
writeFileSync(join(pkg, 'src', 'baseline', 'sdk-client.js'), sdkClient.replaceAll('from "jose"', 'from "./jose/index.js"'));
symlinkSync(join(modules, 'jose', 'dist', 'webapi'), join(pkg, 'src', 'baseline', 'jose'));
const server = spawn(binary, ['-addr', '127.0.0.1:0', '-lifetime', '10m', '-js-dir', pkg, '-wasm-dir', join(repo, 'bin')],
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

/** One page load and one start of mode's client in the profile at dir; the page's own timings. */
async function measure(dir, mode) {
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
    const { readyMs, module, moduleMB, blockedMs, longestMs } = await page.evaluate(async ({ card, mode }) => {
      const long = [];
      const observer = new PerformanceObserver((list) => long.push(...list.getEntries()));
      observer.observe({ type: 'longtask' });
      const t0 = performance.now();
      let ready;
      let stats = { module: '-', memoryBytes: 0 };
      if (mode === 'sdk') {
        const { ClientFactory } = await import('/a2aport/src/baseline/sdk-client.js');
        await new ClientFactory().createFromUrl(card, '');
        ready = performance.now() - t0;
      } else {
        const pkg = await import('/a2aport/src/index.js');
        const port = pkg.createA2ABackendAdapter({ agentCardUrl: card, worker: mode === 'worker' });
        await port.start();
        ready = performance.now() - t0;
        stats = port[Symbol.for('a2aport.stats')];
        await port.close();
      }
      await new Promise((r) => setTimeout(r, 100)); // the observer reports a task once it ended
      observer.disconnect();
      const during = long.filter((e) => e.startTime >= t0 && e.startTime <= t0 + ready);
      return {
        readyMs: ready, module: stats.module, moduleMB: stats.memoryBytes / 2 ** 20,
        blockedMs: during.reduce((sum, e) => sum + e.duration, 0), longestMs: Math.max(0, ...during.map((e) => e.duration)),
      };
    }, { card: `${baseURL}/.well-known/agent-card.json`, mode });
    return { navigationMs, readyMs, module, moduleMB, blockedMs, longestMs };
  } finally {
    await context.close();
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const modes = { sdk: '@a2a-js/sdk client (baseline)', inline: 'a2aport, on the page thread', worker: 'a2aport, in a worker' };
const results = Object.fromEntries(Object.keys(modes).map((m) => [m, { cold: [], warm: [] }]));
try {
  for (let i = 0; i < runs; i++) {
    for (const mode of Object.keys(modes)) {
      const dir = join(tmp, `profile-${mode}-${i}`);
      results[mode].cold.push(await measure(dir, mode));
      results[mode].warm.push(await measure(dir, mode));
      rmSync(dir, { recursive: true, force: true });
    }
  }
} finally {
  server.kill('SIGTERM');
  rmSync(tmp, { recursive: true, force: true });
}
const version = spawnSync(chromiumPath, ['--version'], { encoding: 'utf8' }).stdout.trim();
console.log(`time to ready in a Chromium page (${version}; median of ${runs}; against the demo agent's 1.0 card)`);
for (const [mode, label] of Object.entries(modes)) {
  for (const [name, key] of [['cold (fresh profile)', 'cold'], ['warm (same profile)', 'warm']]) {
    const rows = results[mode][key];
    const ready = median(rows.map((r) => r.readyMs));
    const module = mode === 'sdk' ? '' : `, ${rows[0].module} module, its memory ${median(rows.map((r) => r.moduleMB)).toFixed(0)} MB`;
    console.log(`  ${label.padEnd(32)} ${name.padEnd(22)} ready ${ready.toFixed(0).padStart(4)} ms ` +
      `(${(ready / median(results.sdk[key].map((r) => r.readyMs))).toFixed(2)}× the baseline), main thread blocked ${median(rows.map((r) => r.blockedMs)).toFixed(0)} ms ` +
      `(longest task ${median(rows.map((r) => r.longestMs)).toFixed(0)} ms), navigation ${median(rows.map((r) => r.navigationMs)).toFixed(0)} ms${module}`);
  }
}
