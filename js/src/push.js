// The webhook side of push notifications (pushWebhookUrl): what the application's server hands
// the adapter, and what it answers. Reading a request and writing the answer is all that happens
// here; which Work a push is for, and whether it is one at all, the module decides (it knows the
// tokens it gave the agent): this package knows no A2A.

/** The largest push body read (the Go package's MaxPushBytes): an A2A 0.3 agent pushes the whole task. */
export const MAX_PUSH_BYTES = 16 << 20;

/** Headers that are the application's credentials, never the module's (DESIGN.md §4). */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie']);

/** A refusal of the webhook itself, before the module is asked: its status and words. */
export class PushAnswer {
  constructor(status, message = '') {
    this.status = status;
    this.message = message;
  }
}

/** The headers of a fetch Request, or of a Node IncomingMessage, as the module takes them. */
export function pushHeaders(headers) {
  const out = {};
  const add = (name, value) => {
    const key = name.toLowerCase();
    if (CREDENTIAL_HEADERS.has(key) || value === undefined) return;
    (out[key] ??= []).push(...(Array.isArray(value) ? value : [String(value)]));
  };
  if (typeof headers?.forEach === 'function' && typeof headers.get === 'function') headers.forEach((value, name) => add(name, value));
  else for (const [name, value] of Object.entries(headers ?? {})) add(name, value);
  return out;
}

/**
 * Reads a body (an async iterable of chunks: a Node request, a fetch body stream) up to
 * MAX_PUSH_BYTES; a longer one is a 413, and what is left of it is not read.
 */
export async function readPushBody(chunks, declaredLength) {
  if (Number(declaredLength) > MAX_PUSH_BYTES) throw new PushAnswer(413, 'the push is too large');
  const parts = [];
  let size = 0;
  for await (const chunk of chunks ?? []) {
    const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    size += bytes.byteLength;
    if (size > MAX_PUSH_BYTES) throw new PushAnswer(413, 'the push is too large');
    parts.push(bytes);
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    body.set(p, at);
    at += p.byteLength;
  }
  return body;
}
