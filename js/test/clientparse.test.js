// What real agents send, as tests/clientparse_test.go checks it natively and under wazero: an
// agent's error keeps its code and words whatever its data holds, a 1.0 task with a file part
// written the 0.3 way is read whole, and a card that names HTTP+JSON "REST" is read as HTTP+JSON
// with a note.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';

import { createA2ABackendAdapter } from '../src/index.js';
import { newWork, settled, startAgent, withTimeout } from './agent.js';

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
