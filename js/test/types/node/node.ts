// Type-checked by `tsc -p test/types/node` (make test.js): a Node-only consumer (no DOM library,
// @types/node, no skipLibCheck) compiles against index.d.ts, and a card typed by @a2a-js/sdk fits
// agentCard as it is.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { A2APortError, createA2ABackendAdapter } from 'a2aport';
import type { BackendEvent, Outcome } from 'a2aport';
import type { AgentCard as SDKAgentCard } from '@a2a-js/sdk';

declare const sdkCard: SDKAgentCard;

async function main(): Promise<void> {
  const backend = createA2ABackendAdapter({
    agentCard: sdkCard,
    wasm: await readFile('node_modules/a2aport/a2aport.wasm'),
    fetchImpl: fetch,
  });
  const events: BackendEvent[] = [];
  try {
    const out: Outcome = await backend.submit({ id: 'w1', ownerId: 'o', instruction: 'hi' }, { onEvent: (ev) => events.push(ev), signal: AbortSignal.timeout(10_000) });
    console.log(out.text, events.length);
  } catch (err) {
    if (err instanceof A2APortError) console.log(err.code, err.cause);
  } finally {
    await backend.close();
  }
}
void main;

// A Node service whose Works wait for the agent's pushes: the webhook is its own server's.
const pushed = createA2ABackendAdapter({ agentCardUrl: 'https://agent.example/', pushWebhookUrl: 'https://me.example/a2a-push' });
createServer((req, res) => {
  if (req.url === '/a2a-push') void pushed.handlePush(req, res);
}).listen(8080);
async function fetchStyle(request: Request): Promise<Response> {
  return pushed.receivePush(request);
}
void fetchStyle;
