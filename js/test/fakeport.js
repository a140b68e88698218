// An in-memory BackendPort that keeps the contract of DESIGN.md §2, for testing the conformance
// suite itself (conformance-suite.test.js). It talks to no agent: a Work whose instruction starts
// with "hold" runs until cancelled, any other Work completes after a few milliseconds.
//
// `faults` switches on one contract violation each, so the tests can check that the suite
// notices it:
//   duplicateCode: string   the code a second submit of an active Work rejects with
//   remoteTaskId: boolean   events carry a remote task id instead of the Work id
//   asyncStatus: boolean    status() answers a Promise
//   listenerBreaks: boolean a throwing listener fails the Work
//   cancelLeavesSubmit: boolean  cancel() answers but the pending submit never settles

class PortError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'A2APortError';
    this.code = code;
    this.retryable = false;
  }
}

const tick = (ms = 1) => new Promise((resolve) => setTimeout(resolve, ms));

export function createFakePort(faults = {}) {
  let started = false;
  let closed = false;
  const works = new Map(); // id -> {work, state, reject, onEvent, working}
  const listeners = new Set();

  function emit(entry, event) {
    const e = { ...event, workId: faults.remoteTaskId ? `remote-${entry.work.id}` : entry.work.id, ownerId: entry.work.ownerId };
    for (const l of [entry.onEvent, ...listeners]) {
      if (typeof l !== 'function') continue;
      try {
        l(e);
      } catch (err) {
        if (faults.listenerBreaks) throw err;
      }
    }
  }

  function finish(entry) {
    works.delete(entry.work.id);
  }

  function own(id, ownerId) {
    const entry = works.get(id);
    if (entry === undefined) return undefined;
    if (entry.work.ownerId !== ownerId) throw new PortError('WORK_NOT_FOUND', `work ${JSON.stringify(id)} not found`);
    return entry;
  }

  const port = {
    describe() {
      return {
        protocol: 'a2a', label: 'fake agent', discovered: started,
        ...(started ? { transport: 'JSONRPC', protocolVersion: '1.0' } : {}),
        capabilities: { cancel: true, streaming: true, inputRequests: true, continuity: false, authorization: false },
      };
    },
    async start() {
      if (closed) throw new PortError('ADAPTER_CLOSED', 'the adapter is closed');
      await tick();
      if (closed) throw new PortError('ADAPTER_CLOSED', 'the adapter is closed');
      started = true;
      return { ok: true, started: true };
    },
    async health() {
      return { ok: started && !closed, started, closed };
    },
    async submit(work, { signal, onEvent } = {}) {
      if (closed) throw new PortError('ADAPTER_CLOSED', 'the adapter is closed');
      if (!work || !work.id || !work.ownerId || (!work.instruction && !(work.inputParts?.length > 0))) {
        throw new PortError('INVALID_WORK', 'submit requires task id, owner and input');
      }
      if (works.has(work.id)) {
        throw new PortError(faults.duplicateCode ?? 'WORK_ALREADY_ACTIVE', `work ${JSON.stringify(work.id)} is already active`);
      }
      const entry = { work, state: 'submitted', onEvent };
      works.set(work.id, entry);
      const done = new Promise((resolve, reject) => {
        entry.reject = (err) => {
          finish(entry);
          reject(err);
        };
        entry.resolve = (out) => {
          finish(entry);
          resolve(out);
        };
      });
      done.catch(() => {}); // may settle before submit returns it
      signal?.addEventListener('abort', () => {
        if (works.get(work.id) === entry) entry.reject(new PortError('WORK_CANCELLED', 'the work was cancelled'));
      }, { once: true });
      try {
        if (!started) await port.start();
        emit(entry, { type: 'backend.activity', state: 'submitted' });
        await tick();
        if (works.get(work.id) !== entry) return done;
        entry.state = 'working';
        emit(entry, { type: 'backend.activity', state: 'working', text: 'working' });
        if (work.instruction?.startsWith('hold')) return done;
        await tick();
        if (works.get(work.id) !== entry) return done;
        const artifact = { id: 'result', name: 'result', parts: [{ type: 'text', text: `echo: ${work.instruction}` }] };
        emit(entry, { type: 'backend.artifact', artifact });
        emit(entry, { type: 'backend.activity', state: 'completed', text: 'done' });
        entry.resolve({ content: `done\n\necho: ${work.instruction}`, artifacts: [artifact] });
      } catch (err) {
        entry.reject(err);
      }
      return done;
    },
    status(workId, { ownerId } = {}) {
      if (faults.asyncStatus) return Promise.resolve({ state: 'not_found' });
      if (workId === undefined || workId === '') {
        return { state: closed ? 'closed' : started ? 'ready' : 'idle', started, activeWorks: works.size };
      }
      const entry = works.get(workId);
      if (entry === undefined || entry.work.ownerId !== ownerId) return { state: 'not_found' };
      return { state: entry.state };
    },
    async cancel(workId, { ownerId } = {}) {
      const entry = own(workId, ownerId);
      if (entry === undefined) return { state: 'not_found' };
      if (faults.cancelLeavesSubmit) {
        works.delete(workId);
      } else {
        entry.reject(new PortError('WORK_CANCELLED', 'the work was cancelled'));
      }
      return { workId, state: 'cancelled' };
    },
    async respondInput(workId, inputRequestId, response, { ownerId } = {}) {
      const entry = own(workId, ownerId);
      if (entry === undefined) throw new PortError('WORK_NOT_FOUND', `work ${JSON.stringify(workId)} not found`);
      throw new PortError('INPUT_NOT_PENDING', `no input request ${JSON.stringify(inputRequestId)} is pending`);
    },
    async resume(workId) {
      throw new PortError('WORK_NOT_FOUND', `work ${JSON.stringify(workId)} is not recorded`);
    },
    async respondAuthorization() {
      throw new PortError('A2A_AUTHORIZATION_UNSUPPORTED', 'A2A has no universal approval semantics');
    },
    subscribe(listener) {
      const l = (e) => listener(e);
      listeners.add(l);
      return () => listeners.delete(l);
    },
    async close() {
      closed = true;
      for (const entry of [...works.values()]) entry.reject(new PortError('ADAPTER_CLOSED', 'the adapter is closed'));
      listeners.clear();
    },
  };
  return port;
}

/** A conformance fixture factory over createFakePort. */
export function fakeFixtures(faults = {}) {
  let n = 0;
  return ({ hold }) => {
    const backend = createFakePort(faults);
    const nextWork = () => ({ id: `fake-${++n}`, ownerId: 'owner-1', instruction: hold ? `hold ${n}` : `complete ${n}` });
    const work = nextWork();
    let started;
    if (hold) {
      started = new Promise((resolve) => {
        const unsubscribe = backend.subscribe((e) => {
          if (e.type === 'backend.activity' && e.state === 'working' && (e.workId === work.id || e.workId === `remote-${work.id}`)) {
            unsubscribe();
            resolve();
          }
        });
      });
    }
    return { backend, work, nextWork, started };
  };
}
