// What a JS developer reads when something is wrong: errors in words of requests and of Node, not
// of Go (no `Get "url":`), with the runtime's own error as the cause; the same retries whatever
// fetch says; a base URL taken for the card URL; an invalid Work naming the missing field; a
// question nobody answers settling at inputTimeoutMs; the agent's own words beside a2aport's.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';

import { newWork, Recorder, settled, startAgent, withPort, withTimeout } from './agent.js';

let agent;
before(async () => { agent = await startAgent(); });
after(async () => { await agent?.stop(); });

const startError = (port) => withTimeout(port.start().then(() => null, (e) => e), 20_000, 'start() did not settle');

/** A fetchImpl that counts the requests it passes on. */
function counting(base = globalThis.fetch) {
  const counted = { calls: 0 };
  counted.fetchImpl = (...args) => { counted.calls++; return base(...args); };
  return counted;
}

/** A loopback port nothing listens on (fetch refuses some ports itself, such as 9, without connecting). */
async function closedPort() {
  const s = createServer();
  await new Promise((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address();
  await new Promise((resolve) => s.close(resolve));
  return port;
}

test('a refused port says so, with Node\'s error as the cause, after one request', async () => {
  const f = counting();
  const url = `http://127.0.0.1:${await closedPort()}/.well-known/agent-card.json`;
  await withPort({ agentCardUrl: url, fetchImpl: f.fetchImpl }, async (port) => {
    const err = await startError(port);
    assert.equal(err?.code, 'A2A_NETWORK_ERROR', String(err));
    assert.equal(err.message.split(': the connection was refused')[0], `a2aport: Agent Card request failed (GET ${url})`, err.message);
    assert.doesNotMatch(err.message, /Get "/, 'Go wording');
    assert.equal(err.cause?.code, 'ECONNREFUSED');
    assert.match(err.cause.message, /ECONNREFUSED/);
    assert.equal(f.calls, 1);
  });
});

test('a host name that does not resolve says so, unlike a refused port', async () => {
  await withPort({ agentCardUrl: 'http://no-such-host.invalid/.well-known/agent-card.json' }, async (port) => {
    const err = await startError(port);
    assert.equal(err?.code, 'A2A_NETWORK_ERROR', String(err));
    assert.match(err.message, /the host name (does not resolve|could not be resolved)/);
    assert.ok(['ENOTFOUND', 'EAI_AGAIN'].includes(err.cause?.code), `cause ${err.cause?.code}`);
  });
});

test('a fetch that throws without saying why fails the card request once, as Node\'s refused port does and a browser\'s "Failed to fetch"', async () => {
  let calls = 0;
  const fetchImpl = async () => { calls++; throw new TypeError('Failed to fetch'); };
  await withPort({ agentCardUrl: 'http://agent.test/.well-known/agent-card.json', fetchImpl }, async (port) => {
    const started = Date.now();
    const err = await startError(port);
    assert.equal(err?.code, 'A2A_NETWORK_ERROR', String(err));
    assert.equal(calls, 1, 'card requests');
    assert.ok(Date.now() - started < 1000, `took ${Date.now() - started} ms`);
    assert.equal(err.cause?.message, 'Failed to fetch');
  });
});

test('the agent\'s base URL means its card at the well-known path; a URL that is no card says what to add', async () => {
  const card = await (await fetch(agent.cards['v1-jsonrpc-stream'])).text();
  const asked = [];
  const site = createServer((req, res) => {
    asked.push(req.url);
    if (req.url === '/.well-known/agent-card.json') res.writeHead(200, { 'Content-Type': 'application/json' }).end(card);
    else res.writeHead(404, { 'Content-Type': 'text/plain' }).end('404 page not found');
  });
  await new Promise((resolve) => site.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${site.address().port}`;
  try {
    await withPort({ agentCardUrl: `${base}/`, allowedOrigins: [new URL(agent.cards['v1-jsonrpc-stream']).origin] }, async (port) => {
      const r = await settled(port.submit(newWork('alice', 'complete from the base URL')));
      assert.ifError(r.err);
      assert.equal(port.describe().agentCardUrl, `${base}/.well-known/agent-card.json`);
      assert.deepEqual(asked, ['/.well-known/agent-card.json']);
    });
    await withPort({ agentCardUrl: `${base}/agents/echo` }, async (port) => {
      const err = await startError(port);
      assert.equal(err?.status, 404, String(err));
      assert.ok(err.message.includes(`${base}/agents/echo/.well-known/agent-card.json`), err.message);
    });
  } finally {
    await new Promise((resolve) => site.close(resolve));
  }
});

test('an invalid Work names what it lacks', async () => {
  await withPort({ agentCardUrl: agent.cards['v1-jsonrpc-stream'] }, async (port) => {
    for (const [work, want] of [
      [{ ownerId: 'o', instruction: 'x' }, /has no id$/],
      [{ id: 'w', instruction: 'x' }, /work "w" has no ownerId$/],
      [{ id: 'w', ownerId: 'o', instruction: ' ' }, /work "w" has no input \(an instruction, inputParts or input\)$/],
    ]) {
      const { err } = await settled(port.submit(work));
      assert.equal(err?.code, 'INVALID_WORK', JSON.stringify(work));
      assert.match(err.message, want);
    }
  });
});

test('a question nobody answers settles at inputTimeoutMs, its task cancelled at the agent', async () => {
  await withPort({ agentCardUrl: agent.cards['v1-jsonrpc-stream'], inputTimeoutMs: 300 }, async (port) => {
    const rec = new Recorder();
    const started = Date.now();
    const { err } = await settled(port.submit(newWork('alice', 'input nobody answers'), { onEvent: rec.listen })); // no answer given
    assert.equal(err?.code, 'INPUT_UNANSWERED', String(err));
    assert.ok(Date.now() - started >= 300, 'settled before inputTimeoutMs');
    assert.deepEqual(rec.events.map((e) => e.type).filter((t) => t.startsWith('backend.input')), ['backend.input.requested']);
    assert.deepEqual([rec.events.at(-1).type, rec.events.at(-1).state], ['backend.activity', 'cancelled']);
  });
});

test('the agent\'s own words on its failure come as agentText and as the last activity', async () => {
  await withPort({ agentCardUrl: agent.cards['v03-rest-poll'] }, async (port) => {
    const rec = new Recorder();
    const { err } = await settled(port.submit(newWork('alice', 'fail now'), { onEvent: rec.listen }));
    assert.equal(err?.code, 'A2A_TASK_FAILED');
    assert.equal(err.agentText, 'the agent failed on purpose');
    assert.equal(err.message, 'a2aport: the agent failed the task: the agent failed on purpose');
    assert.equal(rec.events.at(-1).text, 'the agent failed on purpose');
  });
});
