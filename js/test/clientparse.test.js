// What real agents send, as tests/clientparse_test.go checks it natively and under wazero: an
// agent's error keeps its code and words whatever its data holds, a 1.0 task with a file part
// written the 0.3 way is read whole, a card that names HTTP+JSON "REST" is read as HTTP+JSON
// with a note, and the draft conformance specification's card tests (CLIENT-AUTH-001,
// CLIENT-CAP-001) hold with its own payloads.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';

import { createA2ABackendAdapter } from '../src/index.js';
import { newWork, recordingFetch, settled, startAgent, withTimeout } from './agent.js';

const BOUND_MS = 20_000;

let agent;
let server;
let base;
const data = {
  object: '{"taskId":"t-1","reason":"gone"}',
  string: '"no such task"',
  array: '[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","domain":"a2a-protocol.org"}]',
};
before(async () => {
  agent = await startAgent();
  const restCard = (await (await fetch(agent.cards['v1-rest-poll'])).text()).replaceAll('"HTTP+JSON"', '"REST"');
  server = createServer((req, res) => {
    const [, name, ...rest] = req.url.split('/');
    res.setHeader('Content-Type', 'application/json');
    if (name === 'rest') {
      res.end(restCard);
    } else if (name === 'file03' && rest[0] === 'rpc') {
      res.end(`{"jsonrpc":"2.0","id":null,"result":{"task":{"id":"t-1","contextId":"c-1","status":{"state":"TASK_STATE_COMPLETED"},
        "artifacts":[{"artifactId":"a","parts":[{"text":"the report"},{"kind":"file","file":{"uri":"https://files.example/r.pdf","mimeType":"application/pdf","name":"r.pdf"}}]}]}}}`);
    } else if (rest.join('/') === '.well-known/agent-card.json') {
      res.end(JSON.stringify({ name: 'x', description: 'x', version: '1', capabilities: {}, defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'], skills: [],
        supportedInterfaces: [{ url: `${base}/${name}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }] }));
    } else {
      res.end(`{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"Task not found","data":${data[name]}}}`);
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${server.address().port}`;
});
after(async () => {
  await new Promise((resolve) => server.close(resolve));
  await agent?.stop();
});

async function withPort(options, run) {
  const port = createA2ABackendAdapter(options);
  try {
    await run(port);
  } finally {
    await withTimeout(port.close(), 10_000, 'close() did not settle');
  }
}

describe('errors whatever their data', { concurrency: true }, () => {
  for (const name of Object.keys(data)) {
    it(name, () => withPort({ agentCardUrl: `${base}/${name}/.well-known/agent-card.json`, recoveryAttempts: -1 }, async (port) => {
      const { err } = await settled(port.submit(newWork('alice', 'anything')), BOUND_MS);
      assert.ok(err, 'the Work failed');
      assert.equal(err.code, 'A2A_PROTOCOL_ERROR', err.message);
      assert.match(err.message, /Task not found/);
    }));
  }
});

it('a 1.0 task with a file part written the 0.3 way', () => withPort({ agentCardUrl: `${base}/file03/.well-known/agent-card.json` }, async (port) => {
  const { out, err } = await settled(port.submit(newWork('alice', 'report please')), BOUND_MS);
  assert.ifError(err);
  const parts = out.artifacts.flatMap((a) => a.parts);
  assert.ok(parts.some((p) => p.type === 'url' && p.url === 'https://files.example/r.pdf' && p.mediaType === 'application/pdf'), JSON.stringify(parts));
  assert.ok(parts.some((p) => p.type === 'text' && p.text.includes('the report')), JSON.stringify(parts));
}));

it('a binding named REST', () => withPort({ agentCardUrl: `${base}/rest`, allowedOrigins: [new URL(agent.cards['v1-rest-poll']).origin] }, async (port) => {
  const { out, err } = await settled(port.submit(newWork('alice', 'complete by a binding named REST')), BOUND_MS);
  assert.ifError(err);
  assert.match(out.content, /echo: complete by a binding named REST/);
  const d = port.describe();
  assert.equal(d.transport, 'HTTP+JSON');
  assert.ok(d.cardNotes?.some((n) => n.includes('binding "REST" as HTTP+JSON')), JSON.stringify(d.cardNotes));
}));

// ACTS's payloads (tests/acts/client-parsing.acts.yaml), their interface URL pointed at the Go test
// agent's 1.0 HTTP+JSON streaming endpoint; the card and the extended card are answered by the
// fetch the port is given, which records every request.
const actsCards = {
  public: { name: 'Example Agent', version: '1.0.0', capabilities: { streaming: false, extendedAgentCard: true } },
  extended: { name: 'Example Agent', version: '1.0.0', capabilities: { streaming: true, extendedAgentCard: true }, skills: [{ id: 'extended-skill', name: 'Extended Skill' }] },
  gated: { name: 'Capability Gated Agent', version: '1.0.0', capabilities: { streaming: false, pushNotifications: false } },
};

function actsFetch(card, extended) {
  const iface = agent.cards['v1-rest-stream'].replace('/.well-known/agent-card.json', '');
  const withIface = (c) => JSON.stringify({ ...c, supportedInterfaces: [{ url: iface, protocolBinding: 'REST', protocolVersion: '1.0' }] });
  const json = (body) => new Response(body, { headers: { 'content-type': 'application/json' } });
  return recordingFetch(async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    if (url === 'http://acts.test/.well-known/agent-card.json') return json(withIface(card));
    if (extended && url === `${iface}/extendedAgentCard`) return json(withIface(extended));
    return fetch(input, init);
  });
}

it('ACTS CLIENT-AUTH-001: the extended card replaces the public one, and the Work streams as it allows', async () => {
  const { fetchImpl, requests } = actsFetch(actsCards.public, actsCards.extended);
  await withPort({ agentCardUrl: 'http://acts.test/', fetchImpl, token: 'acts-token', allowedOrigins: [new URL(agent.cards['v1-rest-stream']).origin] }, async (port) => {
    await port.start();
    const d = port.describe();
    assert.ok(d.extendedCard && d.capabilities.streaming && d.transport === 'HTTP+JSON', JSON.stringify(d));
    const { out, err } = await settled(port.submit(newWork('alice', 'chunks 3 over the extended card')), BOUND_MS);
    assert.ifError(err);
    assert.match(out.text, /part-3/);
    assert.ok(requests.some((r) => r.a2aMethod === 'SendStreamingMessage'), 'the Work did not stream');
  });
});

it('ACTS CLIENT-CAP-001: no stream and no push is asked of a card that offers neither', async () => {
  const { fetchImpl, requests } = actsFetch(actsCards.gated);
  await withPort({ agentCardUrl: 'http://acts.test/', fetchImpl, pollIntervalMs: 20, pushWebhookUrl: 'https://hooks.example/a2a-push',
    allowedOrigins: [new URL(agent.cards['v1-rest-stream']).origin] }, async (port) => {
    const { out, err } = await settled(port.submit(newWork('alice', 'chunks 2 on a gated card')), BOUND_MS);
    assert.ifError(err);
    assert.match(out.text, /part-2/);
    assert.equal(port.describe().capabilities.streaming, false);
    assert.ok(requests.some((r) => r.a2aMethod === 'SendMessage'), 'the Work was not sent');
    const asked = requests.filter((r) => r.a2aMethod === 'SendStreamingMessage' || r.a2aMethod === 'SubscribeToTask' || r.body?.includes('hooks.example'));
    assert.deepEqual(asked.map((r) => r.url), [], 'asked for what the card does not offer');
  });
});
