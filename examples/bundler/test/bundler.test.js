// The packed a2aport package under a bundler: `npm pack` js/, install the tarball into a throwaway
// copy of this app, `vite build` it, serve dist/ and run the page in a real Chromium against the test
// agent. Proves that the package's `new URL('../a2aport.wasm', import.meta.url)` makes the bundler
// emit its one module as an asset, and that the built app loads it from there and completes a Work
// with an A2A 1.0 agent and with a 0.3 one on that module.
//
// Needs Go, npm, a Chromium at /usr/bin/chromium (Debian: apt-get install -y chromium; or set
// CHROMIUM_PATH), `npm ci` in examples/bundler (vite, playwright-core) and the module in js/
// (`make build.js`; run here when missing). A2APORT_JS_DIR packs another copy of the package.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync, createReadStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = fileURLToPath(new URL('.', import.meta.url));
const example = resolve(here, '..');
const repo = resolve(example, '../..');
const jsDir = resolve(process.env.A2APORT_JS_DIR || join(repo, 'js'));
const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const viteBin = join(example, 'node_modules', 'vite', 'bin', 'vite.js');
const agentBin = join(repo, 'bin', 'a2aport-testagent');
const TIMEOUT = 60_000;

let tmp;
let app; // the throwaway project: this app plus the installed tarball
let dist;
let dist10; // the app built on the deprecated 'a2aport/1.0' entry
let buildLog; // what vite build printed (warnings only)
let server;
let baseURL;
const served = []; // paths the static server answered, in order
let agent;
let cards;
let context;

/** Runs a command to completion (bounded) and fails with its output when it does not succeed. */
function run(cmd, args, { cwd, timeout = 5 * TIMEOUT } = {}) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout, maxBuffer: 64 << 20 });
  assert.equal(r.status, 0, `${cmd} ${args.join(' ')} (in ${cwd}) failed: ${r.error ?? ''}\n${r.stdout}\n${r.stderr}`);
  return r;
}

const sha256 = (path) => createHash('sha256').update(readFileSync(path)).digest('hex');

const types = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm', '.json': 'application/json', '.svg': 'image/svg+xml',
};

/** Serves `root` on a loopback port: GET/HEAD only, no directory listings, nothing outside root. */
function serve(root) {
  const srv = createServer((req, res) => {
    let path;
    try {
      path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    } catch {
      path = '';
    }
    served.push(path);
    const file = normalize(join(root, path.endsWith('/') ? `${path}index.html` : path));
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !path || !file.startsWith(root + sep) ||
        !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, {
      'content-type': types[extname(file)] ?? 'application/octet-stream',
      'content-length': statSync(file).size,
      'cache-control': 'no-store',
    });
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).pipe(res);
  });
  return new Promise((ok, fail) => {
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => ok(srv));
  });
}

/** Starts the test agent and resolves with it and the JSON line it prints once listening. */
function startAgent() {
  const child = spawn(agentBin, ['-addr', '127.0.0.1:0', '-lifetime', '10m'], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  return new Promise((ok, fail) => {
    let out = '';
    const timer = setTimeout(() => { child.kill('SIGTERM'); fail(new Error(`the test agent printed nothing in 30 s; stderr: ${stderr}`)); }, 30_000);
    child.stdout.on('data', (d) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl < 0) return;
      clearTimeout(timer);
      try {
        ok({ child, announcement: JSON.parse(out.slice(0, nl)) });
      } catch (e) {
        child.kill('SIGTERM');
        fail(new Error(`the test agent's announcement ${out.slice(0, nl)}: ${e.message}`));
      }
    });
    child.on('error', (e) => { clearTimeout(timer); fail(e); });
    child.on('exit', (code) => { clearTimeout(timer); fail(new Error(`the test agent exited with ${code}: ${stderr}`)); });
  });
}

/** Stops a child process: SIGTERM, SIGKILL after 5 s; resolves once it has exited. */
function stop(child) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => { clearTimeout(timer); done(); });
    child.kill('SIGTERM');
  });
}

before(async () => {
  assert.ok(existsSync(chromiumPath), `no Chromium at ${chromiumPath}: apt-get install -y chromium, or set CHROMIUM_PATH`);
  assert.ok(existsSync(viteBin), `no vite in ${example}/node_modules: run npm ci there`);
  if (!existsSync(join(jsDir, 'a2aport.wasm'))) {
    assert.ok(!process.env.A2APORT_JS_DIR, `no module in A2APORT_JS_DIR=${jsDir}`);
    run('make', ['build.js'], { cwd: repo, timeout: 10 * TIMEOUT });
  }
  if (!existsSync(agentBin)) {
    run('go', ['build', '-o', agentBin, './internal/testkit/agent/cmd/a2aport-testagent'], { cwd: repo, timeout: 10 * TIMEOUT });
  }

  tmp = mkdtempSync(join(tmpdir(), 'a2aport-bundler-'));
  // The package exactly as published: npm pack, then install the tarball (no path link).
  const packed = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', tmp], { cwd: jsDir }).stdout);
  const tarball = join(tmp, packed[0].filename);
  const packedFiles = packed[0].files.map((f) => f.path);
  for (const f of ['a2aport.wasm', 'src/loader.js', 'src/v1.js']) {
    assert.ok(packedFiles.includes(f), `the tarball lacks ${f}: ${packedFiles.join(', ')}`);
  }
  assert.deepEqual(packedFiles.filter((f) => f.endsWith('.wasm')), ['a2aport.wasm'], 'one module in the tarball');

  app = join(tmp, 'app');
  mkdirSync(app);
  for (const f of ['index.html', 'main.js']) copyFileSync(join(example, f), join(app, f));
  writeFileSync(join(app, 'package.json'), `${JSON.stringify({ name: 'a2aport-bundled-app', private: true, type: 'module' }, null, 2)}\n`);
  run('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', tarball], { cwd: app });
  assert.ok(existsSync(join(app, 'node_modules', 'a2aport', 'a2aport.wasm')), 'the tarball installed without its module');

  const built = run(process.execPath, [viteBin, 'build', '--logLevel', 'warn'], { cwd: app });
  buildLog = `${built.stdout}${built.stderr}`.trim();
  dist = join(app, 'dist');
  // The same app on the deprecated 'a2aport/1.0' entry (an alias of 'a2aport' with legacyCompat
  // false): it still builds, on the same one module.
  const app10 = join(tmp, 'app10');
  mkdirSync(app10);
  copyFileSync(join(example, 'index.html'), join(app10, 'index.html'));
  writeFileSync(join(app10, 'main.js'), readFileSync(join(example, 'main.js'), 'utf8').replace("from 'a2aport';", "from 'a2aport/1.0';"));
  writeFileSync(join(app10, 'package.json'), readFileSync(join(app, 'package.json')));
  run('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', tarball], { cwd: app10 });
  run(process.execPath, [viteBin, 'build', '--logLevel', 'warn'], { cwd: app10 });
  dist10 = join(app10, 'dist');

  server = await serve(dist);
  baseURL = `http://127.0.0.1:${server.address().port}`;
  const started = await startAgent();
  agent = started.child;
  cards = started.announcement.cards;
  assert.ok(cards['v1-jsonrpc-stream'], `no v1-jsonrpc-stream card in ${JSON.stringify(cards)}`);

  context = await chromium.launchPersistentContext(join(tmp, 'profile'), {
    executablePath: chromiumPath,
    headless: true,
    timeout: TIMEOUT,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
});

after(async () => {
  await context?.close().catch(() => {});
  await stop(agent);
  if (server) {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  }
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('a2aport under Vite', { timeout: 10 * TIMEOUT }, () => {
  /** The .wasm assets of a build, and the one module among them (byte for byte js/a2aport.wasm). */
  const theModule = (dir) => {
    const assets = readdirSync(join(dir, 'assets'));
    const wasm = assets.filter((f) => f.endsWith('.wasm'));
    assert.equal(wasm.length, 1, `one module in dist/assets: ${assets.join(', ')}`);
    assert.match(wasm[0], /^a2aport-[\w-]+\.wasm$/);
    assert.equal(sha256(join(dir, 'assets', wasm[0])), sha256(join(jsDir, 'a2aport.wasm')), 'the asset is the packed module, byte for byte');
    const bundles = assets.filter((f) => f.endsWith('.js')).map((f) => readFileSync(join(dir, 'assets', f), 'utf8')).join('\n');
    return { asset: wasm[0], bundles };
  };

  test('vite build emits the one module as a hashed asset and references it', () => {
    // Nothing to explain to a user: the package's Node-only imports are hidden from bundlers.
    assert.equal(buildLog, '', 'vite build warned');
    const { asset, bundles } = theModule(dist);
    assert.ok(bundles.includes(asset), 'the bundle references the asset by its hashed name');
    assert.ok(!/node_modules|\.\.\/a2aport\.wasm/.test(bundles), 'the bundle keeps no path into node_modules');
  });

  test("the deprecated 'a2aport/1.0' entry bundles the same one module", () => {
    const { asset, bundles } = theModule(dist10);
    assert.equal(asset, theModule(dist).asset, 'the same asset as with \'a2aport\'');
    assert.ok(bundles.includes(asset), 'the bundle references the asset by its hashed name');
  });

  // A 1.0 agent and a 0.3 one: the one module serves both, with no other module fetched.
  for (const [variant, wantTransport] of [['v1-jsonrpc-stream', 'JSONRPC'], ['v03-rest-stream', 'HTTP+JSON']]) {
    test(`the built app completes a Work in Chromium with ${variant}, loading the module from the bundle only`, async () => {
      const page = await context.newPage();
      const problems = [];
      page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
      page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
      const requests = [];
      page.on('request', (r) => requests.push(r.url()));
      const wasmResponses = [];
      page.on('response', (r) => { if (new URL(r.url()).pathname.endsWith('.wasm')) wasmResponses.push(r); });

      const card = cards[variant];
      assert.ok(card, `no ${variant} card in ${JSON.stringify(cards)}`);
      await page.goto(`${baseURL}/?card=${encodeURIComponent(card)}&instruction=complete%20bundled`, { timeout: TIMEOUT });
      await page.locator('#out[data-state="done"], #out[data-state="error"]').waitFor({ state: 'attached', timeout: TIMEOUT });
      const out = await page.locator('#out').textContent();
      assert.equal(await page.locator('#out').getAttribute('data-state'), 'done', `the Work failed: ${out}`);
      assert.equal(out, 'done\n\necho: complete bundled');
      assert.equal(await page.locator('#transport').textContent(), wantTransport);
      // The module ran in a worker that the bundle emitted and the page loaded from dist/.
      assert.equal(await page.locator('#worker').textContent(), 'true');
      assert.ok(served.some((p) => /^\/assets\/worker-[\w-]+\.js$/.test(p)), `the worker came from the bundle: ${served.join(', ')}`);

      // The module came from dist/, once, as application/wasm; nothing else was fetched from elsewhere.
      const wasmURLs = requests.filter((u) => new URL(u).pathname.endsWith('.wasm'));
      assert.equal(wasmURLs.length, 1, `one module fetched: ${wasmURLs.join(', ')}`);
      const wasmURL = new URL(wasmURLs[0]);
      assert.equal(wasmURL.origin, baseURL, 'the module is served with the bundle');
      assert.equal(wasmURL.pathname, `/assets/${theModule(dist).asset}`, 'the one module of the bundle');
      assert.ok(existsSync(join(dist, wasmURL.pathname)), 'the fetched module is a file of dist/');
      assert.ok(served.includes(wasmURL.pathname), 'the static server answered the module request');
      assert.equal(wasmResponses.length, 1);
      assert.equal(wasmResponses[0].status(), 200);
      assert.equal(wasmResponses[0].headers()['content-type'], 'application/wasm');
      const agentOrigin = new URL(card).origin;
      const elsewhere = requests.filter((u) => ![baseURL, agentOrigin].includes(new URL(u).origin));
      assert.deepEqual(elsewhere, [], 'no request left the bundle and the agent');
      assert.ok(requests.some((u) => u === card), 'the card was fetched from the agent');
      assert.ok(!served.some((p) => p.includes('node_modules') || p.includes('/src/')), `only built files were asked for: ${served.join(', ')}`);
      assert.deepEqual(problems, [], `the page reported problems; the server was asked for ${served.join(', ')}`);
      await page.close();
    });
  }
});
