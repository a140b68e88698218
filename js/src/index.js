// a2aport: a protocol-neutral BackendPort for browsers, Electron and Node, backed by an A2A client
// compiled to WebAssembly. This entry may load both modules: the 1.0-only one first, the full one
// when an agent needs A2A 0.3 ('a2aport/1.0' leaves the full one out of a bundle).

import { Backend } from './backend.js';
import { A2APortError } from './errors.js';
import { modules } from './modules.js';
import { validateOptions } from './options.js';

export { A2APortError };

/** Creates a BackendPort. Invalid options throw a TypeError naming the option. */
export function createA2ABackendAdapter(options) {
  return new Backend(validateOptions(options), modules);
}
