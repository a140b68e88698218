// The main-process half under Node (no Electron binary can be had on this machine): createBridge
// with the real a2aport adapter against the Go test agent, driven as ipcMain would drive it: one
// handler per channel, events sent back. Electron's own IPC is replaced by a Map of handlers, so
// what is checked is everything but Electron's transport of the arguments.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { createA2ABackendAdapter } from 'a2aport';

import { EVENT_CHANNEL, createBridge } from '../bridge.js';
import { startAgent } from '../../../js/test/agent.js';

const SECRET = 'electron-main-5ecret';
let agent;
let bridge;
const handlers = new Map();
const sent = [];
const invoke = (channel, ...args) => handlers.get(channel)(...args);

before(async () => {
  agent = await startAgent();
  bridge = createBridge({
    createAdapter: createA2ABackendAdapter,
    options: { agentCardUrl: agent.cards['v1-jsonrpc-stream'], token: SECRET },
    handle: (channel, fn) => handlers.set(channel, fn),
    send: (channel, payload) => sent.push({ channel, payload }),
  });
});
after(async () => {
  await bridge?.close();
  await agent?.stop();
});

const eventsOf = (id) => sent.filter((s) => s.channel === EVENT_CHANNEL && s.payload.workId === id).map((s) => s.payload);

it('describes the agent and completes a streamed Work, its events sent to the renderer', async () => {
  assert.deepEqual(await invoke('a2a:start'), { value: { ok: true, started: true } });
  const { value: d } = await invoke('a2a:describe');
  assert.equal(d.agentName, 'a2aport test agent');
  const { value: out } = await invoke('a2a:submit', { id: 'e1', ownerId: 'o', instruction: 'chunks 3 from electron' });
  assert.match(out.content, /part-1 part-2 part-3/);
  const events = eventsOf('e1');
  assert.ok(events.filter((e) => e.type === 'backend.artifact').length >= 3, JSON.stringify(events.map((e) => e.type)));
  assert.equal(events.at(-1).state, 'completed');
});

it('answers an input request through a2a:respondInput', async () => {
  const done = invoke('a2a:submit', { id: 'e2', ownerId: 'o', instruction: 'input please' });
  let asked;
  for (let i = 0; i < 200 && !asked; i++) {
    asked = eventsOf('e2').find((e) => e.type === 'backend.input.requested');
    if (!asked) await new Promise((r) => setTimeout(r, 10));
  }
  assert.ok(asked, 'no input request reached the renderer');
  assert.deepEqual(await invoke('a2a:respondInput', 'e2', asked.input.inputRequestId, { text: 'Ada' }, 'o'), { value: undefined });
  const { value, error } = await done;
  assert.ifError(error);
  assert.match(value.content, /Hello, Ada!/);
});

it('errors cross as {error} with their code; a cancel from the renderer ends the Work', async () => {
  const failed = await invoke('a2a:submit', { id: 'e3', ownerId: 'o', instruction: 'fail now' });
  assert.equal(failed.error?.code, 'A2A_TASK_FAILED');
  assert.equal(failed.error.retryable, false);
  const held = invoke('a2a:submit', { id: 'e4', ownerId: 'o', instruction: 'hold on' });
  for (let i = 0; i < 200 && !eventsOf('e4').some((e) => e.state === 'working'); i++) await new Promise((r) => setTimeout(r, 10));
  assert.equal((await invoke('a2a:cancel', 'e4', 'o')).value.state, 'cancelled');
  assert.equal((await held).error?.code, 'WORK_CANCELLED');
  const bad = await invoke('a2a:submit', { id: '', ownerId: 'o', instruction: 'x' });
  assert.equal(bad.error?.code, 'INVALID_WORK');
});

it('the credentials stay in the main process', () => {
  assert.ok(!JSON.stringify(sent).includes(SECRET));
});
