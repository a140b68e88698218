// Compiles each module once per page or process and instantiates one instance per adapter.

import { compileResponse, compileURL } from './platform.js';
import { createWasi } from './wasi.js';

const defaultModules = {
  full: new URL('../a2aport.wasm', import.meta.url),
  legacyFree: new URL('../a2aport-1.0.wasm', import.meta.url),
};

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

/** Returns the compiled module for the adapter's options. */
export function loadModule({ wasm, legacyCompat }, fetchImpl) {
  if (wasm instanceof WebAssembly.Module) return Promise.resolve(wasm);
  if (wasm === undefined || typeof wasm === 'string' || wasm instanceof URL) {
    const url = String(wasm ?? (legacyCompat === false ? defaultModules.legacyFree : defaultModules.full));
    return compileOnce(url, () => compileURL(url, fetchImpl));
  }
  if (typeof Response !== 'undefined' && wasm instanceof Response) {
    return compileOnce(wasm, () => compileResponse(wasm));
  }
  return compileOnce(wasm, () => WebAssembly.compile(wasm)); // ArrayBuffer or Uint8Array
}

/** Instantiates the module and runs its reactor start function. */
export async function instantiate(module) {
  const wasi = createWasi();
  const instance = await WebAssembly.instantiate(module, wasi.imports);
  wasi.bind(instance);
  instance.exports._initialize();
  return { exports: instance.exports, wasi };
}
