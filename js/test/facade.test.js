// Clients we did not write against the facade (`a2aport gateway --upstream`: the Go test agent behind an
// a2aport facade): @a2a-js/sdk 1.3.0's client over A2A 1.0 and 0.3.14's over A2A 0.3, streaming
// chunks and a plain answer; and a2aport itself through the gateway to a 0.3 agent.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { ClientFactory } from '@a2a-js/sdk/client';
import { A2AClient } from '@a2a-js/sdk-0.3/client';

import { createA2ABackendAdapter } from '../src/index.js';
import { buildBinary, repoRoot, startAgent, withTimeout } from './agent.js';
import { sdkAnswer } from '../bench/sdkanswer.js';

let agent;
const gateways = [];
before(async () => { agent = await startAgent(); });
after(async () => {
  for (const g of gateways) g.kill('SIGTERM');
  await agent?.stop();
});

/** Starts the gateway in front of the upstream card and resolves with its card URL. */
async function gateway(upstream) {
  const bin = await buildBinary('./cmd/a2aport', join(repoRoot, 'bin', 'a2aport'));
  const child = spawn(bin, ['gateway', '--upstream', upstream, '--listen', '127.0.0.1:0', '--lifetime', '10m'], { stdio: ['ignore', 'pipe', 'inherit'] });
  gateways.push(child);
  const card = new Promise((resolve, reject) => {
    let buf = '';
    child.stdout.setEncoding('utf8').on('data', (s) => {
      buf += s;
      const m = buf.match(/card: (\S+)/);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`the gateway exited with ${code}`)));
  });
  return withTimeout(card, 60_000, 'the gateway did not start');
}

it('@a2a-js/sdk 1.3.0 client, A2A 1.0: a streamed answer through the facade', async () => {
  const card = await gateway(agent.cards['v1-jsonrpc-stream']);
  const client = await new ClientFactory().createFromUrl(card, '');
  assert.equal(await sdkAnswer(client, 'chunks 3 from the js sdk'), 'part-1 part-2 part-3 ');
});

it('@a2a-js/sdk 0.3.14 client, A2A 0.3: an answer through the facade to a 1.0 agent', async () => {
  const card = await gateway(agent.cards['v1-jsonrpc-stream']);
  const client = await A2AClient.fromCardUrl(card);
  const res = await client.sendMessage({ message: { kind: 'message', role: 'user', messageId: randomUUID(), parts: [{ kind: 'text', text: 'complete from 0.3' }] } });
  assert.equal(res.error, undefined, JSON.stringify(res.error));
  const task = res.result;
  assert.equal(task.kind, 'task');
  assert.equal(task.status.state, 'completed', JSON.stringify(task.status));
  assert.match(JSON.stringify(task.artifacts), /echo: complete from 0.3/);
});

it('a2aport, A2A 1.0, through the gateway to a 0.3 agent', async () => {
  const card = await gateway(agent.cards['v03-jsonrpc-stream']);
  const port = createA2ABackendAdapter({ agentCardUrl: card, protocolVersion: '1.0' });
  try {
    await port.start();
    assert.equal(port.describe().protocolVersion, '1.0');
    assert.match((await port.submit({ id: 'g1', ownerId: 'o', instruction: 'complete across versions' })).content, /echo: complete across versions/);
  } finally {
    await port.close();
  }
});
