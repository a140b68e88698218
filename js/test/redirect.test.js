// No credential follows a redirect to another origin (fetch would take the `headers` option along;
// only Authorization is dropped): a card URL redirected there fails discovery naming where it
// pointed, a task request redirected there is A2A_HTTP_ERROR with the redirect's status (the
// agent ran nothing), the other origin hears nothing; a redirect within the origin is followed.
// As natively and in the module (tests/redirect_test.go).
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';

import { createA2ABackendAdapter } from '../src/index.js';

const servers = [];
after(() => { for (const s of servers) s.close(); });

async function listen(handler) {
  const srv = createServer(handler);
  servers.push(srv);
  await new Promise((r) => srv.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${srv.address().port}`;
}

let agent;
let elsewhere;
const reached = [];
before(async () => {
  elsewhere = await listen((req, res) => { reached.push(req.headers); res.statusCode = 404; res.end(); });
  agent = await listen((req, res) => {
    const to = (status, location) => { res.statusCode = status; res.setHeader('location', location); res.end(); };
    switch (req.url) {
      case '/.well-known/agent-card.json':
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ name: 'redirecting', version: '1', capabilities: {}, defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'], skills: [],
          supportedInterfaces: [{ url: `${agent}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }] }));
        return;
      case '/moved-here': return to(302, '/.well-known/agent-card.json');
      case '/moved-away': return to(302, `${elsewhere}/.well-known/agent-card.json`);
      case '/a2a': req.resume(); return to(307, `${elsewhere}/a2a`);
      default: res.statusCode = 404; res.end();
    }
  });
});

const creds = { token: 'redirect-5ecret-token', headers: { 'x-api-key': 'redirect-5ecret-key' } };

it('a card URL redirected to another origin fails discovery, naming where', async () => {
  const port = createA2ABackendAdapter({ agentCardUrl: `${agent}/moved-away`, ...creds });
  try {
    const err = await port.start().then(() => assert.fail('start() succeeded'), (e) => e);
    assert.equal(err.code, 'A2A_DISCOVERY_FAILED', err.message);
    assert.equal(err.status, 302);
    assert.ok(err.message.includes(elsewhere), err.message);
  } finally {
    await port.close();
  }
  assert.deepEqual(reached, [], 'a request reached the other origin');
});

it('a task request redirected away is A2A_HTTP_ERROR 307, never of unknown fate', async () => {
  const port = createA2ABackendAdapter({ agentCardUrl: `${agent}/moved-here`, ...creds });
  try {
    await port.start();
    const err = await port.submit({ id: 'r1', ownerId: 'alice', instruction: 'complete redirected' }).then(() => assert.fail('submit succeeded'), (e) => e);
    assert.deepEqual({ code: err.code, status: err.status, retryable: err.retryable }, { code: 'A2A_HTTP_ERROR', status: 307, retryable: false }, err.message);
    assert.match(err.message, /nothing was sent there/);
    assert.ok(!err.message.includes('5ecret'));
  } finally {
    await port.close();
  }
  assert.deepEqual(reached, [], 'a request reached the other origin');
});
