// What real agents send, as tests/clientparse_test.go checks it natively and under wazero: an
// agent's error keeps its code and words whatever its data holds, a 1.0 task with a file part
// written the 0.3 way is read whole, a card that names HTTP+JSON "REST" is read as HTTP+JSON
// with a note, and the draft conformance specification's card tests (CLIENT-AUTH-001,
// CLIENT-CAP-001) hold with its own payloads.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
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

// ACTS's client parsing tests (CLIENT-PARSE-001 to 006), their answers in tests/testdata as the Go
// tests read them: an agent of the test's own answers each as the test writes it (a send_message
// test's answer to SendMessage; a get_task test's to GetTask, after its task, working).
describe('ACTS client parsing answers', () => {
  const answers = Object.fromEntries(Object.entries(JSON.parse(readFileSync(new URL('../../tests/testdata/acts-client-parsing.json', import.meta.url), 'utf8')))
    .filter(([id]) => id.startsWith('CLIENT-')));
  let acts;
  let actsBase;
  before(async () => {
    const taskOf = ({ answer }) => answer.result ? [answer.result.id, answer.result.contextId] : [answer.error.data.taskId, 'ctx'];
    acts = createServer(async (req, res) => {
      res.setHeader('Content-Type', 'application/json');
      if (req.url.endsWith('agent-card.json')) {
        res.end(JSON.stringify({ name: 'acts', description: 'ACTS client parsing', version: '1', capabilities: {}, defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'], skills: [],
          supportedInterfaces: [{ url: `${actsBase}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }] }));
        return;
      }
      let body = '';
      for await (const chunk of req) body += chunk;
      const call = JSON.parse(body);
      let test = call.params?.message?.parts?.[0]?.text;
      if (call.method === 'GetTask') test = Object.keys(answers).find((id) => taskOf(answers[id])[0] === call.params.id);
      const a = answers[test];
      if (!a) res.end(JSON.stringify({ jsonrpc: '2.0', id: call.id, error: { code: -32601, message: 'no such ACTS test' } }));
      else if (a.operation === 'send_message' || call.method === 'GetTask') res.end(JSON.stringify(a.answer));
      else {
        const [id, contextId] = taskOf(a);
        res.end(JSON.stringify({ jsonrpc: '2.0', id: call.id, result: { task: { id, contextId, status: { state: 'TASK_STATE_WORKING' } } } }));
      }
    });
    await new Promise((resolve) => acts.listen(0, '127.0.0.1', resolve));
    actsBase = `http://127.0.0.1:${acts.address().port}`;
  });
  after(() => new Promise((resolve) => acts.close(resolve)));
  const submitTest = (port, test, onEvent) => settled(port.submit(newWork('alice', test), { onEvent }), BOUND_MS);
  const options = () => ({ agentCardUrl: `${actsBase}/.well-known/agent-card.json`, pollIntervalMs: 10, recoveryAttempts: -1 });

  it('has the six answers', () => assert.deepEqual(Object.keys(answers).sort(), ['001', '002', '003', '004', '005', '006'].map((n) => `CLIENT-PARSE-${n}`)));
  it('CLIENT-PARSE-001: a completed task and its artifact', () => withPort(options(), async (port) => {
    const { out, err } = await submitTest(port, 'CLIENT-PARSE-001');
    assert.ifError(err);
    assert.equal(out.text, 'hello world');
    assert.equal(out.artifacts.length, 1);
  }));
  it('CLIENT-PARSE-002: a message, no task', () => withPort(options(), async (port) => {
    const { out, err } = await submitTest(port, 'CLIENT-PARSE-002');
    assert.ifError(err);
    assert.ok(out.messageReply);
    assert.equal(out.content, 'I can help with that');
  }));
  it('CLIENT-PARSE-003: a task read by GetTask, history and all', () => withPort(options(), async (port) => {
    const { out, err } = await submitTest(port, 'CLIENT-PARSE-003');
    assert.ifError(err);
    assert.equal(out.text, 'result text');
    assert.deepEqual(out.artifacts.map((a) => a.parts[0].type), ['text', 'data']);
  }));
  it('CLIENT-PARSE-004: an error, its code and words', () => withPort(options(), async (port) => {
    const { err } = await submitTest(port, 'CLIENT-PARSE-004');
    assert.equal(err?.code, 'A2A_PROTOCOL_ERROR', err?.message);
    assert.match(err.message, /not found/);
  }));
  it('CLIENT-PARSE-005: a question', () => withPort(options(), async (port) => {
    const asked = [];
    const w = newWork('alice', 'CLIENT-PARSE-005');
    const done = settled(port.submit(w, { onEvent: (e) => { if (e.type === 'backend.input.requested') asked.push(e.input.prompt); } }), BOUND_MS);
    await withTimeout((async () => { while (asked.length === 0) await new Promise((r) => setTimeout(r, 10)); })(), BOUND_MS, 'no question');
    assert.deepEqual(asked, ['Please provide more details']);
    await port.cancel(w.id, { ownerId: 'alice' });
    await done;
  }));
  it('CLIENT-PARSE-006: four artifacts of four kinds', () => withPort(options(), async (port) => {
    const { out, err } = await submitTest(port, 'CLIENT-PARSE-006');
    assert.ifError(err);
    const parts = Object.fromEntries(out.artifacts.map((a) => [a.id, a.parts[0]]));
    assert.equal(parts['art-text'].text, 'Plain text result');
    assert.equal(parts['art-data'].type, 'data');
    assert.equal(parts['art-file'].type, 'raw');
    assert.equal(new TextDecoder().decode(parts['art-file'].raw), '%PDF-1.4');
    assert.equal(parts['art-url'].url, 'https://example.com/report.pdf');
    assert.equal(parts['art-url'].filename, 'report.pdf');
  }));
});
