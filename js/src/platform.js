// The one place where browsers and Node differ: how module bytes behind a URL are read.

import { A2APortError } from './errors.js';

/** Compiles the module at `url`: streaming over HTTP(S), from disk for file: URLs in Node. */
export async function compileURL(url, fetchImpl) {
  const u = new URL(url);
  if (u.protocol === 'file:') {
    const specifier = 'node:fs/promises'; // Node only: a bundler for the browser leaves it out, and says nothing
    const { readFile } = await import(/* @vite-ignore */ /* webpackIgnore: true */ specifier);
    return WebAssembly.compile(await readFile(u));
  }
  const response = await fetchImpl(u);
  return compileResponse(response);
}

/** Compiles a fetch Response, streaming when the server labels it application/wasm. */
export async function compileResponse(response) {
  if (!response.ok) throw moduleHTTPError(response.status);
  if (typeof WebAssembly.compileStreaming === 'function' &&
      (response.headers.get('content-type') ?? '').startsWith('application/wasm')) {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}

/** MODULE_UNAVAILABLE for a module URL that answered with status. */
export function moduleHTTPError(status) {
  return new A2APortError('MODULE_UNAVAILABLE', `a2aport: loading the module failed: HTTP ${status}`, { status, retryable: status >= 500 });
}
