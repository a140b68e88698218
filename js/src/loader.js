// Compiles each module once per page or process and instantiates one instance per adapter.

import { compileResponse, compileURL } from './platform.js';

export { instantiate } from './instance.js';

/** Compiled modules by source: a URL string, or the object the caller passed. */
const compiled = new Map();

function compileOnce(key, compile) {
  let p = compiled.get(key);
  if (!p) {
    p = compile();
    compiled.set(key, p);
    p.catch(() => compiled.delete(key)); // a failed load may be retried
  }
  return p;
}

/** The URL the module is loaded from (the adapter's options name it); null when `wasm` is not one. */
export function moduleURL({ wasm }) {
  if (typeof wasm === 'string' || wasm instanceof URL) return String(wasm);
  return null;
}

/**
 * Returns the compiled module for the adapter's options. `bytes`, when given, are what the URL
 * serves, already read (by the thread that has the caller's fetchImpl).
 */
export function loadModule(options, fetchImpl, bytes) {
  const { wasm } = options;
  if (wasm instanceof WebAssembly.Module) return Promise.resolve(wasm);
  const url = moduleURL(options);
  if (url !== null) return compileOnce(url, () => (bytes ? WebAssembly.compile(bytes) : compileURL(url, fetchImpl)));
  if (typeof Response !== 'undefined' && wasm instanceof Response) {
    return compileOnce(wasm, () => compileResponse(wasm));
  }
  return compileOnce(wasm, () => WebAssembly.compile(wasm)); // ArrayBuffer or Uint8Array
}
