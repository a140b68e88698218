// The one error type of the port, shared by every failure the adapter reports.

/** An error of the BackendPort: `code` says what happened (the codes of the Go package). */
export class A2APortError extends Error {
  constructor(code, message, { status, retryable = false, cause, agentText } = {}) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'A2APortError';
    this.code = code;
    if (status) this.status = status;
    this.retryable = retryable;
    if (agentText) this.agentText = agentText;
  }
}

/**
 * Rebuilds the module's wire error {code, message, status, retryable, agentText, cause}. The
 * cause is the runtime's failure under a failed fetch, as the host reported it to the module
 * (its message and, in Node, its code: ECONNREFUSED, ENOTFOUND).
 */
export function fromWire(e) {
  let cause;
  if (e.cause) {
    cause = new Error(e.cause.message);
    if (e.cause.code) cause.code = e.cause.code;
  }
  return new A2APortError(e.code, `a2aport: ${e.message}`, { status: e.status, retryable: e.retryable === true, agentText: e.agentText, cause });
}
