// Type-checked by `tsc -p test/types` (make test.js): the declarations in index.d.ts and
// conformance.d.ts must accept what the README shows and refuse what the runtime refuses.
import { A2APortError, createA2ABackendAdapter } from 'a2aport';
import type { A2APortErrorCode, AgentCard, ArtifactDelta, BackendEvent, BackendPort, ContextStore, Description, Outcome, WorkRecord, WorkStore } from 'a2aport';
import { verifyBackendAdapterConformance } from 'a2aport/conformance';

const store: ContextStore = {
  get: async (owner) => localStorage.getItem(owner),
  set: (owner, id) => localStorage.setItem(owner, id),
  delete: (owner) => localStorage.removeItem(owner),
};

const works: WorkStore = {
  get: (id) => JSON.parse(localStorage.getItem(`work:${id}`) ?? 'null') as WorkRecord | null,
  set: (record) => localStorage.setItem(`work:${record.workId}`, JSON.stringify(record)),
  delete: (id) => localStorage.removeItem(`work:${id}`),
};

const backend: BackendPort = createA2ABackendAdapter({
  agentCardUrl: 'https://agent.example/.well-known/agent-card.json',
  headers: async ({ url, method }) => ({ 'X-Trace': `${method} ${url}` }),
  fetchImpl: fetch,
  legacyCompat: false,
  reuseContext: true,
  contextStore: store,
  workStore: works,
  recoveryAttempts: 4,
  streamIdleTimeoutMs: 60_000,
  allowedOrigins: ['https://api.agent.example'],
  maxArtifactBytes: 64 << 20,
  wasm: new URL('./a2aport.wasm', import.meta.url),
});

const secured: BackendPort = createA2ABackendAdapter({
  agentCardUrl: 'https://agent.example/.well-known/agent-card.json',
  credentials: { bearer: 'token', basic: { username: 'u', password: 'p' }, oauth: { clientId: 'id', clientSecret: 's', scopes: ['a'] }, tls: {} },
  tokenProvider: async (scheme) => `token for ${scheme}`,
});
const inUse: string[] | undefined = secured.describe().security?.inUse;
const verified = createA2ABackendAdapter({ agentCardUrl: 'https://a.example/c.json', verifyCard: 'required', cardKeys: { keys: [] }, cardKeysFromJku: true });
const keyId: string | undefined = verified.describe().cardSignature?.keyId;
void keyId;
// @ts-expect-error: verifyCard takes one of three modes
createA2ABackendAdapter({ agentCardUrl: 'https://a.example/c.json', verifyCard: 'always' });
void inUse;
// @ts-expect-error: a credential is a string or an object of one form
createA2ABackendAdapter({ agentCardUrl: 'https://a.example/c.json', credentials: { bearer: 42 } });

let answer = '';
const onEvent = (ev: BackendEvent): void => {
  // A union by type: after the check, the artifact is there (no `&& ev.artifact`).
  if (ev.type === 'backend.artifact') {
    const delta: ArtifactDelta | undefined = ev.delta;
    answer = delta?.text !== undefined ? answer + delta.text : ev.artifact.parts.map((p) => p.text ?? '').join('');
  }
  if (ev.type === 'backend.input.requested') {
    void backend.respondInput(ev.workId, ev.input.inputRequestId, { text: 'yes' }, { ownerId: ev.ownerId });
  }
  if (ev.type === 'backend.activity') {
    const state: string = ev.state;
    void state;
    // @ts-expect-error: an activity has no artifact
    void ev.artifact;
  }
};

// The codes are a union: a misspelt one does not compile.
function isCancelled(e: A2APortError): boolean {
  const code: A2APortErrorCode = e.code;
  // @ts-expect-error: the code is WORK_CANCELLED
  if (code === 'WORK_CANCELED') return true;
  return code === 'WORK_CANCELLED' && (e.agentText ?? '') !== 'x';
}
void isCancelled;

// A typed in-memory card; the one @a2a-js/sdk builds fits as it is.
const card: AgentCard = {
  name: 'Echo', version: '1.0.0',
  supportedInterfaces: [{ url: 'https://agent.example/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
  securityRequirements: [{ schemes: { bearer: { list: [] } } }],
};
createA2ABackendAdapter({ agentCard: card });
// @ts-expect-error: a card needs its interfaces
createA2ABackendAdapter({ agentCard: { name: 'no interfaces' } });
// @ts-expect-error: gRPC is A2A's, not a2aport's
createA2ABackendAdapter({ agentCardUrl: 'https://a.example/c.json', protocolBinding: 'GRPC' });
// @ts-expect-error: Go's option name; JS's has its unit
createA2ABackendAdapter({ agentCardUrl: 'https://a.example/c.json', timeout: 100 });
createA2ABackendAdapter({ agentCardUrl: 'https://a.example/', inputTimeoutMs: 60_000 });

async function run(): Promise<string> {
  const d: Description = backend.describe();
  const notes: string[] = d.cardNotes ?? [];
  const controller = new AbortController();
  try {
    const out: Outcome = await backend.submit({ id: 'w1', ownerId: 'alice', instruction: 'Summarize' }, { signal: controller.signal, onEvent });
    return `${notes.length} ${out.text} ${out.content} ${answer}`;
  } catch (err) {
    if (err instanceof A2APortError && err.code === 'WORK_CANCELLED') return 'cancelled';
    throw err;
  } finally {
    await backend.close();
  }
}
void run;

verifyBackendAdapterConformance({
  createFixture: ({ hold }) => ({ backend, work: { id: hold ? 'h' : 'w', ownerId: 'o', instruction: 'x' }, nextWork: () => ({ id: 'n', ownerId: 'o', instruction: 'y' }) }),
});

// After a reload: re-attach to a Work the page had running.
void backend.resume('w1', { ownerId: 'alice', onEvent });
// @ts-expect-error: resume needs the owner
void backend.resume('w1');
// @ts-expect-error: submit needs a Work
void backend.submit({});
// @ts-expect-error: legacyCompat is a boolean
createA2ABackendAdapter({ agentCardUrl: 'https://a.example/c.json', legacyCompat: 'no' });
