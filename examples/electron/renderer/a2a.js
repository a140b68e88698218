// The renderer's view of the backend: the BackendPort methods over window.a2aIpc (preload.cjs),
// with errors rebuilt with their code, status and retryable flag.

export class BackendError extends Error {
  constructor({ code, message, status, retryable }) {
    super(message);
    this.code = code;
    this.status = status;
    this.retryable = retryable;
  }
}

export function connectBackend(ipc = window.a2aIpc) {
  const call = async (method, ...args) => {
    const answer = await ipc.invoke(method, ...args);
    if (answer?.error) throw new BackendError(answer.error);
    return answer?.value;
  };
  return {
    describe: () => call('describe'),
    start: () => call('start'),
    submit: (work) => call('submit', work),
    respondInput: (workId, inputRequestId, response, ownerId) => call('respondInput', workId, inputRequestId, response, ownerId),
    cancel: (workId, ownerId) => call('cancel', workId, ownerId),
    status: (workId, ownerId) => call('status', workId, ownerId),
    /** Every Work's events; returns unsubscribe. */
    onEvent: (fn) => ipc.onEvent(fn),
  };
}
