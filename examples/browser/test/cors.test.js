// A page on another origin streams through the gateway (`a2aport gateway --upstream`) in a real Chromium when
// the gateway lists its origin (-allow-origin), and is refused when it does not: the browser sends
// the preflight, the gateway answers it or not.
//
// Needs Go and a Chromium at /usr/bin/chromium (or CHROMIUM_PATH); builds the test agent and the
// gateway into a temporary folder.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const repo = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
let tmp; let agent; let gateway; let gatewayURL; let context;
const pages = []; // {server, origin}: one listed, one not

/** Starts a binary and resolves with the first stdout line that matches. */
function startPrinting(binary, args, pattern) {
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((ok, fail) => {
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => { const m = line.match(pattern); if (m) ok({ child, m }); });
    child.on('exit', (code) => fail(new Error(`${binary} exited with ${code}`)));
  });
}

/** A page origin: a server whose one page does nothing until the test runs script in it. */
async function startPage() {
  const server = createServer((_, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>page</title>'));
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return { server, origin: `http://127.0.0.1:${server.address().port}` };
}

before(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'a2aport-cors-'));
  for (const [out, pkg] of [['testagent', './internal/testkit/agent/cmd/a2aport-testagent'], ['a2aport', './cmd/a2aport']]) {
    assert.equal(spawnSync('go', ['build', '-o', join(tmp, out), pkg], { cwd: repo, stdio: 'inherit' }).status, 0, `go build ${pkg}`);
  }
  const started = await startPrinting(join(tmp, 'testagent'), ['-lifetime', '10m'], /^(\{.*\})$/);
  agent = started.child;
  const card = JSON.parse(started.m[1]).cards['v1-jsonrpc-stream'];
  pages.push(await startPage(), await startPage());
  ({ child: gateway, m: [, gatewayURL] } = await startPrinting(join(tmp, 'a2aport'),
    ['gateway', '--upstream', card, '--listen', '127.0.0.1:0', '--lifetime', '10m', '--allow-origin', pages[0].origin], /^gateway on (http\S+)$/));
  context = await chromium.launchPersistentContext(join(tmp, 'profile'), {
    executablePath: chromiumPath, headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});

after(async () => {
  await context?.close();
  gateway?.kill('SIGTERM');
  agent?.kill('SIGTERM');
  for (const p of pages) p.server.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** Streams "chunks 3" through the gateway's one endpoint from a page of origin; the page reports. */
async function streamFrom(origin) {
  const page = await context.newPage();
  await page.goto(origin);
  const result = await page.evaluate(async (endpoint) => {
    try {
      const res = await fetch(endpoint, {
        method: 'POST', credentials: 'include',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'a2a-version': '1.0' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 'page', method: 'SendStreamingMessage',
          params: { message: { messageId: `m-${Math.random()}`, role: 'ROLE_USER', parts: [{ text: 'chunks 3' }] } } }),
      });
      const reader = res.body.getReader();
      let text = '';
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
      return { status: res.status, events: text.split('\n').filter((l) => l.startsWith('data:')).length, text };
    } catch (e) {
      return { error: `${e.name}: ${e.message}` };
    }
  }, `${gatewayURL}/a2a`);
  await page.close();
  return result;
}

test('a listed origin streams through the gateway from a page', async () => {
  const r = await streamFrom(pages[0].origin);
  assert.equal(r.error, undefined, r.error);
  assert.equal(r.status, 200);
  assert.ok(r.events >= 5, `only ${r.events} events: ${r.text}`); // task, working, 3 chunks, completed
  for (const chunk of ['part-1 ', 'part-2 ', 'part-3 ']) assert.ok(r.text.includes(chunk), `missing ${chunk}: ${r.text}`);
  assert.ok(r.text.includes('TASK_STATE_COMPLETED'), r.text);
});

test('an unlisted origin is refused by the browser', async () => {
  const r = await streamFrom(pages[1].origin);
  assert.match(r.error ?? '', /TypeError/, JSON.stringify(r));
});
