// The renderer half in a real Chromium (no Electron binary can be had on this machine): the page of
// renderer/ served as files, window.a2aIpc provided as preload.cjs provides it, but wired with
// Playwright's bindings to the main-process half (bridge.js) running here in Node with the real
// adapter against the Go test agent. What Electron itself adds (its IPC, the preload's sandbox) is
// not exercised.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { createA2ABackendAdapter } from 'a2aport';

import { EVENT_CHANNEL, createBridge } from '../bridge.js';
import { startAgent } from '../../../js/test/agent.js';

const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const rendererDir = fileURLToPath(new URL('../renderer/', import.meta.url));
const screenshots = fileURLToPath(new URL('./screenshots/', import.meta.url));
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

let agent;
let server;
let browser;
let tmp;

before(async () => {
  assert.ok(existsSync(chromiumPath), `no Chromium at ${chromiumPath}: apt-get install -y chromium, or set CHROMIUM_PATH`);
  agent = await startAgent();
  server = createServer((req, res) => {
    const name = new URL(req.url, 'http://x').pathname.slice(1) || 'index.html';
    if (!/^[a-z0-9.-]+$/i.test(name) || !existsSync(join(rendererDir, name))) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': TYPES[extname(name)] ?? 'application/octet-stream' }).end(readFileSync(join(rendererDir, name)));
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  tmp = mkdtempSync(join(tmpdir(), 'a2aport-electron-'));
  browser = await chromium.launchPersistentContext(join(tmp, 'profile'), {
    executablePath: chromiumPath, headless: true, viewport: { width: 1000, height: 760 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
});
after(async () => {
  await browser?.close();
  await new Promise((ok) => (server ? server.close(ok) : ok()));
  await agent?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** A renderer page whose window.a2aIpc reaches a fresh main-process bridge. */
async function openRenderer() {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  let bridge;
  await page.exposeFunction('__a2aInvoke', (channel, args) => bridge.handlers.get(channel)(...args));
  await page.addInitScript(() => {
    const listeners = new Set();
    window.__a2aEvent = (ev) => listeners.forEach((fn) => fn(ev));
    // The same surface preload.cjs exposes.
    window.a2aIpc = {
      invoke: (method, ...args) => window.__a2aInvoke(`a2a:${method}`, args),
      onEvent: (fn) => { listeners.add(fn); return () => listeners.delete(fn); },
    };
  });
  const handlers = new Map();
  bridge = createBridge({
    createAdapter: createA2ABackendAdapter,
    options: { agentCardUrl: agent.cards['v1-jsonrpc-stream'] },
    handle: (channel, fn) => handlers.set(channel, fn),
    send: (channel, payload) => { if (channel === EVENT_CHANNEL) page.evaluate((ev) => window.__a2aEvent(ev), payload).catch(() => {}); },
  });
  bridge.handlers = handlers;
  await page.goto(`http://127.0.0.1:${server.address().port}/index.html`);
  await page.waitForFunction(() => document.body.dataset.ready !== undefined);
  return { page, errors, close: async () => { await page.close(); await bridge.close(); } };
}

async function send(page, instruction) {
  await page.getByLabel('Instruction').fill(instruction);
  await page.getByRole('button', { name: 'Send' }).click();
  return page.locator('li.work').filter({ hasText: instruction }).first();
}

it('connects through the main process, streams a Work, answers a question, shows a typed error', async () => {
  const { page, errors, close } = await openRenderer();
  try {
    assert.match(await page.locator('#agent').textContent(), /a2aport test agent · A2A 1.0 over JSONRPC · streaming/);
    const streamed = await send(page, 'chunks 3 in electron');
    await streamed.locator('.state.completed').waitFor({ timeout: 20_000 });
    assert.match(await streamed.locator('.answer').textContent(), /^part-1 part-2 part-3\s*$/);
    assert.match(await streamed.locator('.events').textContent(), /backend\.artifact/);

    const asking = await send(page, 'input from the renderer');
    const box = asking.getByLabel('Answer: What is your name?');
    await box.waitFor({ timeout: 20_000 });
    await box.fill('Grace');
    await asking.getByRole('button', { name: 'Answer' }).click();
    await asking.locator('.state.completed').waitFor({ timeout: 20_000 });
    assert.match(await asking.locator('.answer').textContent(), /Hello, Grace!/);

    const failing = await send(page, 'fail in electron');
    await failing.locator('p.error').waitFor({ timeout: 20_000 });
    assert.match(await failing.locator('p.error').textContent(), /^A2A_TASK_FAILED: /);
    await page.screenshot({ path: join(screenshots, 'renderer.png') });
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

it('cancels a running Work from the renderer', async () => {
  const { page, close } = await openRenderer();
  try {
    const held = await send(page, 'hold in electron');
    await held.locator('.state.working').waitFor({ timeout: 20_000 });
    await held.getByRole('button', { name: 'Cancel' }).click();
    await held.locator('p.error').waitFor({ timeout: 20_000 });
    assert.match(await held.locator('p.error').textContent(), /^WORK_CANCELLED: /);
  } finally {
    await close();
  }
});
