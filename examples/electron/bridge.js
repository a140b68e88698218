// The main-process half: the a2aport adapter lives here, in Node, where no CORS applies and
// credentials never reach the renderer. The renderer asks over IPC (one channel per method) and
// gets each Work's events on one channel. Electron's IPC keeps only an Error's message, so answers
// travel as {value} or {error: {code, message, status, retryable}} and the renderer rebuilds them.

/** IPC channels: `a2a:<method>` for calls, EVENT_CHANNEL for events. */
export const EVENT_CHANNEL = 'a2a:event';

/**
 * Serves one BackendPort to renderers.
 * @param {object} p
 * @param {(options: object) => import('a2aport').BackendPort} p.createAdapter createA2ABackendAdapter
 * @param {object} p.options the adapter's options (agentCardUrl, credentials, ...), main-process only
 * @param {(channel: string, fn: (...args: any[]) => any) => void} p.handle ipcMain.handle, bound
 * @param {(channel: string, payload: any) => void} p.send sends to the renderer (webContents.send)
 */
export function createBridge({ createAdapter, options, handle, send }) {
  const backend = createAdapter(options);
  const running = new Map(); // work id → AbortController of its submit

  const answer = (fn) => async (...args) => {
    try {
      return { value: await fn(...args) };
    } catch (err) {
      return { error: { code: err?.code ?? 'INTERNAL', message: String(err?.message ?? err), status: err?.status, retryable: err?.retryable ?? false } };
    }
  };
  handle('a2a:describe', answer(() => backend.describe()));
  handle('a2a:start', answer(() => backend.start()));
  handle('a2a:submit', answer(async (work) => {
    const controller = new AbortController();
    running.set(work?.id, controller);
    try {
      return await backend.submit(work, { signal: controller.signal, onEvent: (ev) => send(EVENT_CHANNEL, ev) });
    } finally {
      if (running.get(work?.id) === controller) running.delete(work?.id);
    }
  }));
  handle('a2a:respondInput', answer((workId, inputRequestId, response, ownerId) =>
    backend.respondInput(workId, inputRequestId, response, { ownerId })));
  handle('a2a:cancel', answer((workId, ownerId) => backend.cancel(workId, { ownerId })));
  handle('a2a:status', answer((workId, ownerId) => backend.status(workId, { ownerId })));

  return {
    backend,
    /** Ends every running Work and the adapter (on app quit). */
    async close() {
      for (const controller of running.values()) controller.abort();
      await backend.close();
    },
  };
}
