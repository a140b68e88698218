// The contract checks of a2aport/conformance against createA2ABackendAdapter, on a streaming
// 1.0 agent and on a polling 0.3 agent (as tests/conformance_test.go does for the Go ports),
// with the module on this thread and in a worker (the `worker` option).
//
// The standalone test agent has no HTTP endpoint telling when a task started, so a held Work
// counts as started once the adapter reports it working (a backend.activity event with state
// "working" for that Work).
import { after, before, describe, it } from 'node:test';

import { createA2ABackendAdapter } from '../src/index.js';
import { verifyBackendAdapterConformance } from '../src/conformance.js';
import { startAgent } from './agent.js';

let agent;
before(async () => { agent = await startAgent(); });
after(async () => { await agent?.stop(); });

let seq = 0;

for (const [variant, worker] of [['v1-jsonrpc-stream', false], ['v03-rest-poll', false], ['v1-jsonrpc-stream', true], ['v03-rest-poll', true]]) {
  describe(`${variant}${worker ? ' in a worker' : ''}`, () => {
    verifyBackendAdapterConformance({
      test: it,
      createFixture({ hold }) {
        const records = new Map(); // a workStore shared with the reopened backend
        const workStore = { get: (id) => records.get(id), set: (r) => { records.set(r.workId, r); }, delete: (id) => { records.delete(id); } };
        const options = { agentCardUrl: agent.cards[variant], pollIntervalMs: 10, workStore, worker };
        const backend = createA2ABackendAdapter(options);
        const kind = hold ? 'hold conformance' : 'complete conformance';
        // Unique instructions keep every held execution at the agent apart.
        const nextWork = () => {
          const n = ++seq;
          return { id: `conformance-${process.pid}-${n}`, ownerId: 'conformance-owner', instruction: `${kind} ${variant} ${process.pid} ${n}` };
        };
        const work = nextWork();
        let started;
        if (hold) {
          started = new Promise((resolve) => {
            const unsubscribe = backend.subscribe((e) => {
              if (e.type === 'backend.activity' && e.state === 'working' && e.workId === work.id) {
                unsubscribe();
                resolve();
              }
            });
          });
        }
        return { backend, work, nextWork, started, reopen: () => createA2ABackendAdapter(options) };
      },
    });
  });
}
