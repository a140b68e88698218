// The demo page in a real Chromium, against the demo server and its embedded agent: connect,
// stream a report, answer a question, cancel, attach files, the 0.3 and HTTP+JSON endpoints,
// conversation continuity and typed errors. Screenshots go to test/screenshots/.
//
// Needs Go, a Chromium at /usr/bin/chromium (Debian: apt-get install -y chromium; or set
// CHROMIUM_PATH) and the modules in bin/ (`make build.wasm`; built here when missing).
// A2APORT_JS_DIR and A2APORT_WASM_DIR point the server at another package or module build.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = fileURLToPath(new URL('.', import.meta.url));
const repo = resolve(here, '../../..');
const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const jsDir = resolve(process.env.A2APORT_JS_DIR || join(repo, 'js'));
const wasmDir = resolve(process.env.A2APORT_WASM_DIR || join(repo, 'bin'));
const screenshots = join(here, 'screenshots');
const TIMEOUT = 60_000;

let tmp;
let server;
let baseURL;
let context;
let noCors; // {server, url, target}: the demo agent behind an origin that allows no other
const RELAY_MARK = 'a2aport-relayed-script-ran'; // what the no-CORS agent's page writes, should its script run here

/**
 * The demo agent as an agent that does not allow other origins: a loopback proxy to it (its
 * target, once known) that drops every CORS header, refuses preflights and names itself in the
 * card's interfaces.
 */
async function startNoCorsAgent() {
  const agent = { target: '', url: '' };
  const hopByHop = ['host', 'origin', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'expect'];
  agent.server = createServer((req, res) => (async () => {
    if (req.method === 'OPTIONS') return res.writeHead(405).end();
    if (req.url === '/hostile.html') { // a page of the agent's, which the relay must never serve as the demo's
      return res.writeHead(200, { 'content-type': 'text/html' }).end(`<script>localStorage.setItem('${RELAY_MARK}', 'relayed')</script>`);
    }
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !hopByHop.includes(k)));
    const upstream = await fetch(agent.target + req.url, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
    const out = {};
    upstream.headers.forEach((v, k) => { if (!k.startsWith('access-control-') && !hopByHop.includes(k) && k !== 'content-encoding') out[k] = v; });
    res.writeHead(upstream.status, out);
    if (req.url.endsWith('agent-card.json')) return res.end((await upstream.text()).replaceAll(agent.target, agent.url));
    for await (const c of upstream.body) res.write(c);
    res.end();
  })().catch(() => res.destroy())); // a failed relay shows as a failed request in the test
  await new Promise((ok) => agent.server.listen(0, '127.0.0.1', ok));
  agent.url = `http://127.0.0.1:${agent.server.address().port}`;
  return agent;
}
const pageErrors = [];

/** A loopback port nothing listens on. */
async function closedPort() {
  const s = createServer();
  await new Promise((ok) => s.listen(0, '127.0.0.1', ok));
  const { port } = s.address();
  await new Promise((ok) => s.close(ok));
  return port;
}

/** Starts the demo server binary and resolves with the URL it prints first. */
function startServer(binary, extraArgs = []) {
  const child = spawn(binary, ['-addr', '127.0.0.1:0', '-lifetime', '15m', '-js-dir', jsDir, '-wasm-dir', wasmDir, ...extraArgs], {
    cwd: repo, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  return new Promise((resolveURL, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the demo server printed no URL in 30 s; stderr: ${stderr}`)), 30_000);
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/open (http:\/\/127\.0\.0\.1:\d+)\//);
      if (m) {
        clearTimeout(timer);
        resolveURL({ child, url: m[1] });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the demo server exited with ${code}: ${stderr}`));
    });
  });
}

before(async () => {
  assert.ok(existsSync(chromiumPath), `no Chromium at ${chromiumPath}: apt-get install -y chromium, or set CHROMIUM_PATH`);
  if (!existsSync(join(wasmDir, 'a2aport.wasm'))) {
    const make = spawnSync('make', ['build.wasm'], { cwd: repo, stdio: 'inherit' });
    assert.equal(make.status, 0, 'make build.wasm failed');
  }
  tmp = mkdtempSync(join(tmpdir(), 'a2aport-browser-'));
  const binary = join(tmp, 'a2aport-demo');
  const build = spawnSync('go', ['build', '-o', binary, './examples/browser'], { cwd: repo, stdio: 'inherit' });
  assert.equal(build.status, 0, 'go build ./examples/browser failed');
  noCors = await startNoCorsAgent();
  ({ child: server, url: baseURL } = await startServer(binary, ['-relay', noCors.url]));
  noCors.target = baseURL;

  context = await chromium.launchPersistentContext(join(tmp, 'profile'), {
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
    viewport: { width: 1280, height: 800 },
    acceptDownloads: true,
  });
  mkdirSync(screenshots, { recursive: true });
});

after(async () => {
  await context?.close();
  await new Promise((ok) => (noCors ? noCors.server.close(ok) : ok()));
  server?.kill('SIGTERM');
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** A fresh page on the demo; errors of the page and the console are collected. */
async function openPage() {
  const page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    // A refused agent card (the error test) logs its 404, a cross-origin agent without CORS its
    // blocked requests; that is the browser, not the page.
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource') && !m.text().includes('blocked by CORS policy')) {
      pageErrors.push(`console: ${m.text()}`);
    }
  });
  // A new tab starts without the Works other tests left recorded; a reload of it keeps its own
  // (sessionStorage lives as long as the tab).
  await page.addInitScript(() => {
    if (!sessionStorage.getItem('a2aport-test-tab')) {
      localStorage.clear();
      sessionStorage.setItem('a2aport-test-tab', '1');
    }
  });
  await page.goto(`${baseURL}/`);
  return page;
}

/** The connection status once the page's connect settled. */
async function connectionSettled(page) {
  await page.locator('#connection-status[data-kind="ok"], #connection-status[data-kind="error"]').waitFor({ state: 'attached', timeout: TIMEOUT });
  return page.locator('#connection-status').textContent();
}

/**
 * Connects to the demo agent through a preset button; with no preset and no settings, the
 * connection the page made to its own agent on load (1.0 JSON-RPC) is the one.
 */
async function connect(page, preset, { continuity = false, owner } = {}) {
  const status = await connectionSettled(page);
  if (!preset && !continuity && !owner) {
    assert.equal(status, 'Connected', `connect on load failed: ${await page.locator('#connect-error').textContent()}`);
    return;
  }
  if (!(await page.locator('#agent-panel').evaluate((d) => d.open))) await page.locator('#agent-panel summary').click();
  if (preset) await page.getByRole('button', { name: preset, exact: true }).click();
  if (continuity) await page.getByLabel('Conversation continuity').check();
  if (owner) await page.getByLabel('Owner id').fill(owner);
  await page.getByRole('button', { name: /^(Connect|Reconnect)$/ }).click();
  await page.locator('#connection-status[data-kind="ok"], #connection-status[data-kind="error"]').waitFor({ state: 'attached', timeout: TIMEOUT });
  const error = await page.locator('#connect-error').textContent();
  assert.equal(await page.locator('#connection-status').textContent(), 'Connected', `connect failed: ${error}`);
}

/** Sends an instruction and returns the new Work's card. */
async function send(page, instruction) {
  const before = await page.locator('.work').count();
  await page.getByLabel('Instruction').fill(instruction);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.locator('.work').nth(before).waitFor();
  const id = await page.locator('.work').nth(before).getAttribute('data-work-id');
  return page.locator(`.work[data-work-id="${id}"]`);
}

async function waitState(work, state) {
  const id = await work.getAttribute('data-work-id');
  await work.page().locator(`.work[data-work-id="${id}"][data-state="${state}"]`).waitFor({ timeout: TIMEOUT });
}

/** Records each update of every artifact as the page renders it, with the Work's state then. */
async function recordArtifactUpdates(page) {
  await page.evaluate(() => {
    window.artifactUpdates = [];
    new MutationObserver((records) => {
      for (const r of records) {
        const el = r.target;
        if (r.attributeName !== 'data-updates') continue;
        window.artifactUpdates.push({
          id: el.dataset.artifactId, n: Number(el.dataset.updates), text: el.querySelector('.markdown')?.textContent ?? '',
          state: el.closest('.work').dataset.state,
        });
      }
    }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-updates'] });
  });
}

describe('the demo page in Chromium', { timeout: 5 * TIMEOUT }, () => {
  test('connects to its own agent on load and shows what describe() says', async () => {
    const page = await openPage();
    assert.equal(await page.getByLabel('Agent card URL').inputValue(), `${baseURL}/.well-known/agent-card.json`);
    // No click: the page connects to the agent that serves it.
    assert.equal(await connectionSettled(page), 'Connected', await page.locator('#connect-error').textContent());
    assert.equal(await page.getByRole('button', { name: /^(Connect|Reconnect)$/ }).textContent(), 'Reconnect');
    assert.equal(await page.locator('#agent-name').textContent(), 'a2aport demo agent');
    assert.equal(await page.locator('#agent-version').textContent(), '1.0.0');
    assert.equal(await page.locator('#agent-transport').textContent(), 'JSONRPC');
    assert.equal(await page.locator('#agent-protocol').textContent(), 'A2A 1.0');
    assert.match(await page.locator('#agent-capabilities li.on').allTextContents().then((t) => t.join(' ')), /streaming.*inputRequests/);
    assert.match(await page.locator('#agent-output-modes').textContent(), /text\/markdown/);
    await page.close();
  });

  test('streams a report: chunks arrive in order while the Work runs', async () => {
    const page = await openPage();
    await connect(page);
    await recordArtifactUpdates(page);
    const work = await send(page, 'Write a short report on ocean currents');
    await waitState(work, 'completed');
    const updates = await page.evaluate(() => window.artifactUpdates);
    assert.deepEqual(updates.map((u) => u.n), [1, 2, 3, 4], 'one update per streamed chunk');
    for (let i = 1; i < updates.length; i++) {
      assert.ok(updates[i].text.startsWith(updates[i - 1].text), `update ${i + 1} extends update ${i}`);
    }
    assert.ok(updates.slice(0, 3).every((u) => u.state === 'working'), 'chunks render while the Work is working');
    const headings = await work.locator('.artifact .markdown h3, .artifact .markdown h4').allTextContents();
    assert.deepEqual(headings, ['Brief: Ocean currents', 'Summary', 'Key points', 'Open questions', 'Next steps']);
    assert.equal(await work.locator('.artifact .markdown strong').first().textContent(), 'ocean currents');
    const log = await work.locator('.events .text').allTextContents();
    const progress = log.filter((t) => t.startsWith('Writing section'));
    assert.deepEqual(progress, ['Writing section 1 of 4: Summary', 'Writing section 2 of 4: Key points',
      'Writing section 3 of 4: Open questions', 'Writing section 4 of 4: Next steps']);
    assert.match(log.at(-1), /^Report ready: 4 sections, \d+ words\.$/, 'the outcome leads with the final status');
    assert.equal(await work.locator('.events .badge[data-state="completed"]').count(), 1, 'one completed row');
    assert.match(await work.locator('.outcome pre').textContent(), /^Report ready: .*\n\n# Brief: Ocean currents/s);
    assert.equal(await work.locator('.badge').first().textContent(), 'completed');
    assert.ok(await work.locator('.cancel').isHidden(), 'no cancel button once done');
    await page.close();
  });

  test('answers the agent’s question (respondInput)', async () => {
    const page = await openPage();
    await connect(page);
    const work = await send(page, 'Please compare these');
    await waitState(work, 'input_required');
    const answer = work.getByLabel('Your answer');
    assert.match(await answer.getAttribute('aria-describedby').then((id) => page.locator(`[id="${id}"]`).textContent()),
      /^Which two things should I compare\?/, 'the answer field is described by the question');
    assert.ok(await answer.evaluate((el) => el === document.activeElement), 'the answer field has the focus');
    assert.equal(await work.locator('.badge').first().textContent(), 'input required');
    await answer.fill('tea and coffee');
    await work.getByRole('button', { name: 'Answer' }).click();
    await waitState(work, 'completed');
    assert.ok(await work.locator('.question').isHidden());
    assert.equal(await work.locator('.artifact .markdown h3').textContent(), 'Tea vs coffee');
    assert.match(await work.locator('.artifact .markdown pre').textContent(), /criterion\s+tea\s+coffee/);
    const log = await work.locator('.events .text').allTextContents();
    assert.deepEqual(log.slice(0, 3), ['Reading your request', 'Which two things should I compare? Name them like “tea and coffee” or “Go vs Rust”.',
      'tea and coffee'], 'the question, then the answer');
    await page.close();
  });

  test('cancels a slow task', async () => {
    const page = await openPage();
    await connect(page);
    const work = await send(page, 'Write a long report about the history of the web');
    await work.locator('.artifact[data-updates="1"]').waitFor({ timeout: TIMEOUT });
    assert.equal(await work.getAttribute('data-state'), 'working');
    await work.getByRole('button', { name: /^Cancel/ }).click();
    await waitState(work, 'cancelled');
    assert.equal(await work.locator('.error .code').textContent(), 'WORK_CANCELLED');
    assert.ok(await work.locator('.cancel').isHidden());
    assert.ok(Number(await work.locator('.artifact').getAttribute('data-updates')) < 8, 'the report stopped early');
    await work.screenshot({ path: join(screenshots, 'work-cancelled.png') });
    await page.close();
  });

  test('attaches files and sees them described', async () => {
    const page = await openPage();
    await connect(page);
    const png = await page.evaluate(() => {
      const canvas = document.createElement('canvas');
      canvas.width = 200;
      canvas.height = 100;
      const g = canvas.getContext('2d');
      g.fillStyle = '#2f5bd3';
      g.fillRect(0, 0, 200, 100);
      g.fillStyle = '#f5b700';
      g.fillRect(50, 25, 100, 50);
      return canvas.toDataURL('image/png').split(',')[1];
    });
    await page.locator('#files').setInputFiles([
      { name: 'chart.png', mimeType: 'image/png', buffer: Buffer.from(png, 'base64') },
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Quarterly notes\nline two\n') },
    ]);
    assert.deepEqual(await page.locator('#attachments .file-chip span').allTextContents(),
      [`chart.png · ${Buffer.from(png, 'base64').length} B`, 'notes.txt · 25 B']);
    const work = await send(page, 'What are these files?');
    assert.equal(await page.locator('#attachments .file-chip').count(), 0, 'attachments are cleared once sent');
    await waitState(work, 'completed');
    const review = await work.locator('.artifact[data-artifact-id="attachments"] .markdown').textContent();
    assert.match(review, /1\. chart\.png/);
    assert.match(review, /A PNG image, 200 × 100 pixels\. A thumbnail is attached\./);
    assert.match(review, /2\. notes\.txt/);
    assert.match(review, /A text file of 2 lines; it begins “Quarterly notes”\./);
    const thumb = work.locator('.artifact[data-artifact-id="image-1"] img');
    await thumb.waitFor();
    assert.equal(await thumb.evaluate((img) => img.complete && img.naturalWidth), 160);
    assert.match(await thumb.getAttribute('src'), /^blob:/);
    assert.ok(await work.getByRole('link', { name: /Download chart-thumbnail\.png/ }).isVisible());
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      work.getByRole('link', { name: /Download attachments\.csv/ }).click(),
    ]);
    assert.equal(download.suggestedFilename(), 'attachments.csv');
    const csv = readFileSync(await download.path(), 'utf8');
    assert.match(csv, /^name,type,bytes,kind,note\nchart\.png,image\/png,\d+,image,/);
    assert.match(await work.locator('.events .text').last().textContent(), /Reviewed 2 attachments: 1 image, 1 text file\./);
    await thumb.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(screenshots, 'files-1280x800.png') });
    await page.close();
  });

  test('switches to the A2A 0.3 endpoint and completes a task', async () => {
    const page = await openPage();
    await connect(page);
    await connect(page, '0.3 JSON-RPC');
    assert.equal(await page.getByLabel('Agent card URL').inputValue(), `${baseURL}/v03/.well-known/agent-card.json`);
    assert.equal(await page.locator('#agent-protocol').textContent(), 'A2A 0.3');
    assert.equal(await page.locator('#agent-transport').textContent(), 'JSONRPC');
    const work = await send(page, 'Compare trains and planes');
    await waitState(work, 'completed');
    assert.equal(await work.locator('.artifact .markdown h3').textContent(), 'Trains vs planes');
    await page.close();
  });

  test('uses the HTTP+JSON endpoint with a bearer token', async () => {
    const page = await openPage();
    const token = 'demo-token-3f9a1c';
    await page.getByLabel(/^Bearer token/).fill(token);
    await connect(page, '1.0 HTTP+JSON');
    assert.equal(await page.locator('#agent-transport').textContent(), 'HTTP+JSON');
    const work = await send(page, 'Write a short report on bridges');
    await waitState(work, 'completed');
    assert.equal(await work.locator('.artifact .markdown h3').textContent(), 'Brief: Bridges');
    assert.match(await work.locator('.artifact .markdown').textContent(), /The request carried a bearer token/);
    assert.ok(!(await page.locator('body').innerText()).includes(token), 'the token shows nowhere on the page');
    await page.close();
  });

  test('continues a conversation with reuseContext', async () => {
    const page = await openPage();
    await connect(page, undefined, { continuity: true, owner: 'ann' });
    const first = await send(page, 'Write a report on glaciers');
    await waitState(first, 'completed');
    const second = await send(page, 'more');
    await waitState(second, 'completed');
    assert.equal(await second.locator('.artifact .markdown h3').textContent(), 'More on glaciers');
    const stored = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('a2aport-demo:context:')));
    assert.equal(stored.length, 1, 'the context id is kept in localStorage');
    await page.close();
  });

  test('shows typed errors with their code', async () => {
    const page = await openPage();
    await connect(page);
    const work = await send(page, 'Please fail this task');
    await waitState(work, 'failed');
    assert.equal(await work.locator('.error .code').textContent(), 'A2A_TASK_FAILED');
    assert.match(await work.locator('.error .message').textContent(), /asked me to fail/);
    assert.equal(await work.locator('.badge').first().textContent(), 'failed');

    await page.getByLabel('Agent card URL').fill(`${baseURL}/missing/.well-known/agent-card.json`);
    await page.getByRole('button', { name: 'Reconnect' }).click();
    await page.locator('#connection-status[data-kind="error"]').waitFor({ timeout: TIMEOUT });
    assert.match(await page.locator('#connect-error .code').textContent(), /^A2A_/);
    assert.match(await page.locator('#connect-error').textContent(), /404/);
    assert.ok(await page.getByRole('button', { name: 'Send', exact: true }).isDisabled());
    await page.screenshot({ path: join(screenshots, 'errors-1280x800.png') });
    await page.close();
  });

  test('resumes a running report after a page reload', async () => {
    const page = await openPage();
    await connect(page);
    const instruction = 'Write a long report about the history of the web';
    const work = await send(page, instruction);
    const id = await work.getAttribute('data-work-id');
    await work.locator('.artifact').first().waitFor({ timeout: TIMEOUT }); // the report has begun
    await page.reload();
    // The page connects again on its own and picks the Work up where the agent is.
    const resumed = page.locator(`.work[data-work-id="${id}"]`);
    await resumed.waitFor({ timeout: TIMEOUT });
    assert.equal(await resumed.locator('.instruction').textContent(), instruction);
    assert.equal(await resumed.locator('.events .badge[data-state="resumed"]').count(), 1, 'the Work says it was resumed');
    await waitState(resumed, 'completed');
    const headings = await resumed.locator('.artifact .markdown h3, .artifact .markdown h4').allTextContents();
    assert.ok(headings.length >= 4 && headings[0].startsWith('Brief:'), `the whole report after the reload: ${headings}`);
    assert.equal(await resumed.locator('.events .badge[data-state="completed"]').count(), 1, 'one completed row');
    const left = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('a2aport-demo:work:')));
    assert.deepEqual(left, [], 'the record of the ended Work is gone');
    await resumed.locator('.events').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(screenshots, 'resumed-after-reload.png') });
    await page.close();
  });

  test('looks clean at 1280×800 and at 400 px', async () => {
    for (const [name, viewport] of [['desktop-1280x800', { width: 1280, height: 800 }], ['narrow-400', { width: 400, height: 860 }]]) {
      const page = await openPage();
      await page.setViewportSize(viewport);
      await connect(page);
      assert.equal(await page.locator('#agent-panel').evaluate((d) => d.open), viewport.width > 860,
        'the agent panel folds away on narrow windows once connected');
      const report = await send(page, 'Compare tea and coffee');
      await waitState(report, 'completed');
      const question = await send(page, 'hello');
      await waitState(question, 'input_required');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `${name}: no horizontal scrolling (overflow ${overflow} px)`);
      await page.screenshot({ path: join(screenshots, `${name}.png`) });
      if (viewport.width <= 860) {
        await page.screenshot({ path: join(screenshots, `${name}-full.png`), fullPage: true });
      }
      await page.close();
    }
  });

  test('a cross-origin agent: blocked without CORS (with a hint), reached through the relay, and with CORS a round trip with credentials', async () => {
    const page = await openPage();
    try {
      await connectionSettled(page);
      await page.getByLabel('Agent card URL').fill(`${noCors.url}/.well-known/agent-card.json`);
      await page.getByRole('button', { name: /^(Connect|Reconnect)$/ }).click();
      assert.equal(await connectionSettled(page), 'Not connected');
      const error = await page.locator('#connect-error').textContent();
      assert.match(error, /^A2A_NETWORK_ERROR /, error);
      assert.match(error, /CORS/, `no CORS hint in ${error}`);
      // The same agent through this server's relay (started with -relay for its origin).
      await page.getByLabel(/^Through this server's relay/).check();
      await page.getByRole('button', { name: /^(Connect|Reconnect)$/ }).click();
      assert.equal(await connectionSettled(page), 'Connected', await page.locator('#connect-error').textContent());
      const work = await send(page, 'Write a short report on relays');
      await waitState(work, 'completed');
      assert.equal(await work.locator('.artifact .markdown h3').textContent(), 'Brief: Relays');
    } finally {
      await page.close();
    }
    // The page served as localhost calls the demo agent on 127.0.0.1, which allows CORS: the
    // preflight lets the bearer token through and the Work completes.
    const crossPage = await context.newPage();
    await crossPage.goto(baseURL.replace('127.0.0.1', 'localhost') + '/');
    try {
      await connectionSettled(crossPage);
      await crossPage.getByLabel('Agent card URL').fill(`${baseURL}/.well-known/agent-card.json`);
      await crossPage.getByLabel('Bearer token').fill('t0ken-across-origins');
      await crossPage.getByRole('button', { name: /^(Connect|Reconnect)$/ }).click();
      assert.equal(await connectionSettled(crossPage), 'Connected', await crossPage.locator('#connect-error').textContent());
      const work = await send(crossPage, 'Compare tea and coffee');
      await waitState(work, 'completed');
    } finally {
      await crossPage.close();
    }
  });

  test('a message CORS refuses is reported as not sent, and a fetch that shows no server fails at once (the package in a page)', async () => {
    // The card, as the agent without CORS serves it; given in memory, the first request the page
    // makes to that origin is the message itself, whose preflight the agent refuses.
    const card = await (await fetch(`${noCors.url}/.well-known/agent-card.json`)).json();
    const page = await openPage();
    try {
      const got = await page.evaluate(async ({ card, deadURL }) => {
        const { createA2ABackendAdapter } = await import('/a2aport/src/index.js');
        const result = async (options, work) => {
          const port = createA2ABackendAdapter({ ...options, worker: false });
          const started = performance.now();
          try {
            await port.submit({ id: 'w1', ownerId: 'o', instruction: work });
            return { ok: true };
          } catch (e) {
            return { code: e.code, message: e.message, retryable: e.retryable, cause: e.cause?.message, ms: performance.now() - started };
          } finally {
            await port.close();
          }
        };
        return {
          blocked: await result({ agentCard: card }, 'Write a report'),
          dead: await result({ agentCardUrl: deadURL }, 'Write a report'),
        };
      }, { card, deadURL: `http://127.0.0.1:${await closedPort()}/.well-known/agent-card.json` });
      assert.equal(got.blocked.code, 'A2A_NETWORK_ERROR', JSON.stringify(got.blocked)); // not A2A_OUTCOME_UNKNOWN: nothing left
      assert.equal(got.blocked.retryable, false, 'CORS would refuse it again');
      assert.match(got.blocked.message, /refused it for CORS.*no message was sent/, got.blocked.message);
      assert.ok(got.blocked.cause, 'the browser error is the cause');
      // Nothing listens there: the card request fails once, at once, as in Node.
      assert.equal(got.dead.code, 'A2A_NETWORK_ERROR', JSON.stringify(got.dead));
      assert.ok(got.dead.ms < 2000, `the card request took ${got.dead.ms} ms: retried with backoff`);
    } finally {
      await page.close();
    }
  });

  test('a page cannot take pushes: pushWebhookUrl is refused when the backend is made', async () => {
    const page = await openPage();
    try {
      const got = await page.evaluate(async () => {
        const { createA2ABackendAdapter } = await import('/a2aport/src/index.js');
        try {
          createA2ABackendAdapter({ agentCardUrl: 'https://agent.example/', pushWebhookUrl: 'https://me.example/a2a-push' });
          return { made: true };
        } catch (e) {
          return { name: e.name, message: e.message };
        }
      });
      assert.equal(got.name, 'TypeError', JSON.stringify(got));
      assert.match(got.message, /pushWebhookUrl needs a server .* a page has none/);
    } finally {
      await page.close();
    }
  });

  test('an @a2a-js/sdk agent on another origin that declares security: bearer, API key, OAuth2 client credentials, from nothing but the card and the secret', async () => {
    // The JS package's own SDK agent (js/test/sdkagent.mjs, CORS allowed); its dev dependencies
    // are installed by make test.
    const { startSdkAgent } = await import(join(jsDir, 'test', 'sdkagent.mjs'));
    const sdkAgent = await startSdkAgent();
    const page = await openPage();
    try {
      await connectionSettled(page);
      const secured = Object.keys(sdkAgent.credentials);
      assert.equal(secured.length, 9); // bearer, API keys, OAuth2 (1.0 and 0.3), and the extended-card variants
      const results = await page.evaluate(async ({ cards, credentials, names }) => {
        const { createA2ABackendAdapter } = await import('/a2aport/src/index.js');
        const out = {};
        for (const name of names) {
          const run = async (creds) => {
            const port = createA2ABackendAdapter({ agentCardUrl: cards[name], credentials: creds });
            try {
              await port.start();
              const content = (await port.submit({ id: `${name}-${Boolean(creds)}`, ownerId: 'alice', instruction: 'complete from chromium' })).content;
              return { content, inUse: port.describe().security?.inUse };
            } catch (e) {
              return { code: e.code, status: e.status };
            } finally {
              await port.close();
            }
          };
          out[name] = { withSecret: await run(credentials[name]), without: await run(undefined) };
        }
        return out;
      }, { cards: sdkAgent.cards, credentials: sdkAgent.credentials, names: secured });
      for (const name of secured) {
        const r = results[name];
        assert.deepEqual(r.withSecret, { content: 'done\n\necho: complete from chromium', inUse: Object.keys(sdkAgent.credentials[name]) }, name);
        assert.deepEqual(r.without, { code: 'A2A_AUTH_REQUIRED', status: 401 }, name);
      }
    } finally {
      await page.close();
      await sdkAgent.stop();
    }
  });

  test('an agent\'s HTML and SVG never run as the demo\'s origin: downloads are octet-stream, the relay serves no page', async () => {
    const { startSdkAgent, HOSTILE_MARK } = await import(join(jsDir, 'test', 'sdkagent.mjs'));
    const sdkAgent = await startSdkAgent();
    const page = await openPage();
    try {
      await connectionSettled(page);
      await page.getByLabel('Agent card URL').fill(sdkAgent.cards['v1-jsonrpc-stream']);
      await page.getByRole('button', { name: /^(Connect|Reconnect)$/ }).click();
      assert.equal(await connectionSettled(page), 'Connected', await page.locator('#connect-error').textContent());
      await page.evaluate(() => {
        window.cspViolations = [];
        document.addEventListener('securitypolicyviolation', (e) => window.cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
      });
      // Markdown with markup in it is shown as text: nothing runs, nothing even tries (no CSP report).
      const echoed = await send(page, `complete <img src=x onerror="localStorage.setItem('${HOSTILE_MARK}', 'img')"> <script>localStorage.setItem('${HOSTILE_MARK}', 'script')</script> [x](javascript:alert(1))`);
      await waitState(echoed, 'completed');
      assert.match(await echoed.locator('.artifact .markdown').textContent(), /<img src=x onerror=/);
      assert.equal(await echoed.locator('.artifact .markdown img, .artifact .markdown script, .artifact a[href^="javascript:"]').count(), 0);
      const work = await send(page, 'files');
      await waitState(work, 'completed');
      const links = work.locator('.artifact a.download');
      assert.equal(await links.count(), 2);
      assert.equal(await work.locator('.artifact img').count(), 0, 'an SVG was shown inline');
      const types = await links.evaluateAll((as) => Promise.all(as.map(async (a) => (await (await fetch(a.href)).blob()).type)));
      assert.deepEqual(types, ['application/octet-stream', 'application/octet-stream']);
      // Opened as pages (a middle click, a new tab), they are downloads, not documents of this origin.
      for (const href of await links.evaluateAll((as) => as.map((a) => a.href))) {
        const tab = await context.newPage();
        await tab.goto(href).catch(() => {}); // a download aborts the navigation
        await tab.waitForTimeout(200); // a script, had one run, has run by now
        await tab.close();
      }
      // The relay: a navigation through it is refused; a fetch of a page through it brings none.
      const relayTo = `${baseURL}/relay?to=${encodeURIComponent(`${noCors.url}/hostile.html`)}`;
      const relayed = await page.evaluate(async (url) => {
        const r = await fetch(url);
        return { status: r.status, type: r.headers.get('content-type'), csp: r.headers.get('content-security-policy'), body: await r.text() };
      }, relayTo);
      assert.equal(relayed.csp, 'sandbox');
      assert.match(relayed.type, /^text\/plain/);
      assert.doesNotMatch(relayed.body, /<script/);
      const tab = await context.newPage();
      const nav = await tab.goto(relayTo);
      assert.equal(nav.status(), 403);
      await tab.goto(`${baseURL}/`);
      const marks = await tab.evaluate((keys) => keys.map((k) => localStorage.getItem(k)), [HOSTILE_MARK, RELAY_MARK]);
      await tab.close();
      assert.deepEqual(marks, [null, null], 'an agent\'s script ran on the demo\'s origin');
      assert.deepEqual(await page.evaluate(() => window.cspViolations), []);
    } finally {
      await page.close();
      await sdkAgent.stop();
    }
  });

  test('a card on another origin that redirects: no header of the caller follows, the error says so', async () => {
    // An agent that allows CORS, whose card URL redirects to a third origin; that origin records
    // every request. With an API key in `headers`, the browser is told not to follow (manual): the
    // third origin hears nothing, and the typed error says a redirect was refused.
    const reached = [];
    const third = createServer((req, res) => { reached.push(req.headers); res.writeHead(404).end(); });
    await new Promise((ok) => third.listen(0, '127.0.0.1', ok));
    const thirdURL = `http://127.0.0.1:${third.address().port}`;
    const redirecting = createServer((req, res) => {
      res.setHeader('access-control-allow-origin', '*');
      res.setHeader('access-control-allow-headers', req.headers['access-control-request-headers'] ?? '*');
      if (req.method === 'OPTIONS') return res.writeHead(204).end();
      res.writeHead(302, { location: `${thirdURL}/.well-known/agent-card.json` }).end();
    });
    await new Promise((ok) => redirecting.listen(0, '127.0.0.1', ok));
    const card = `http://127.0.0.1:${redirecting.address().port}/.well-known/agent-card.json`;
    const page = await openPage();
    try {
      await connectionSettled(page);
      const got = await page.evaluate(async (agentCardUrl) => {
        const { createA2ABackendAdapter } = await import('/a2aport/src/index.js');
        const port = createA2ABackendAdapter({ agentCardUrl, headers: { 'X-Api-Key': 'browser-5ecret-key' } });
        try {
          await port.start();
          return { started: true };
        } catch (e) {
          return { code: e.code, message: e.message };
        } finally {
          await port.close();
        }
      }, card);
      assert.equal(got.code, 'A2A_DISCOVERY_FAILED', JSON.stringify(got));
      assert.match(got.message, /redirect/);
      assert.ok(!got.message.includes('5ecret'));
      assert.deepEqual(reached, [], 'the third origin received a request');
    } finally {
      await page.close();
      redirecting.close();
      third.close();
    }
  });

  test('a page whose CSP forbids workers: the default runs the module on the page, an explicit worker fails', async () => {
    // Not openPage: the browser logs each refused worker, which is this test's point.
    const page = await context.newPage();
    await page.route(`${baseURL}/csp-no-workers.html`, (route) => route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><meta http-equiv="Content-Security-Policy" content="worker-src 'none'"><title>no workers</title>`,
    }));
    try {
      await page.goto(`${baseURL}/csp-no-workers.html`);
      const got = await page.evaluate(async (card) => {
        const { createA2ABackendAdapter } = await import('/a2aport/src/index.js');
        const byDefault = createA2ABackendAdapter({ agentCardUrl: card });
        const health = await byDefault.start();
        const worker = byDefault[Symbol.for('a2aport.stats')].worker;
        await byDefault.close();
        const asked = createA2ABackendAdapter({ agentCardUrl: card, worker: true });
        const refused = await asked.start().then(() => 'started', (e) => `${e.code}: ${e.message}`);
        await asked.close();
        return { ok: health.ok, worker, refused };
      }, `${baseURL}/.well-known/agent-card.json`);
      assert.equal(got.ok, true, 'the default adapter started');
      assert.equal(got.worker, false, 'the module ran on the page');
      assert.match(got.refused, /^MODULE_UNAVAILABLE: .*worker did not start/, 'worker: true says why it did not start');
    } finally {
      await page.close();
    }
  });

  test('the page logged no errors', () => {
    assert.deepEqual(pageErrors, []);
  });
});
