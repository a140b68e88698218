// The one error type of the port, shared by every failure the adapter reports.

/** An error of the BackendPort: `code` says what happened (the codes of the Go package). */
export class A2APortError extends Error {
  constructor(code, message, { status, retryable = false, cause } = {}) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'A2APortError';
    this.code = code;
    if (status) this.status = status;
    this.retryable = retryable;
  }
}

/** Rebuilds the module's wire error {code, message, status, retryable}. */
export function fromWire(e) {
  return new A2APortError(e.code, `a2aport: ${e.message}`, { status: e.status, retryable: e.retryable === true });
}
