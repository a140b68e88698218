// a2aport: a protocol-neutral BackendPort for browsers, Electron and Node, backed by an A2A client
// compiled to WebAssembly. One module, a2aport.wasm, speaks A2A 1.0 and 0.3 and verifies signed
// Agent Cards.

import { Backend } from './backend.js';
import { A2APortError } from './errors.js';
import { validateOptions } from './options.js';

export { A2APortError };

/** Creates a BackendPort. Invalid options throw a TypeError naming the option. */
export function createA2ABackendAdapter(options) {
  return new Backend(validateOptions(options));
}
