// a2aport/1.0 — DEPRECATED: import 'a2aport' and give `legacyCompat: false` instead.
//
// This entry once loaded a smaller module that spoke A2A 1.0 only, so that a bundle could leave
// the full one (A2A 0.3, card signatures) out. a2aport now speaks 0.3 with its own small code
// inside one module, a2aport.wasm, so there is nothing left to leave out: this entry is an alias
// of the main one, on the same module, kept so that existing imports keep working. It forces
// `legacyCompat: false`, as it always behaved: an agent that speaks only A2A 0.3 has no
// compatible interface (A2A_NO_COMPATIBLE_TRANSPORT). verifyCard works here as in 'a2aport'.

import { Backend } from './backend.js';
import { A2APortError } from './errors.js';
import { validateOptions } from './options.js';

export { A2APortError };

/**
 * Creates a BackendPort that speaks A2A 1.0 only (`legacyCompat: false`, whatever the options
 * say). Deprecated: the same as 'a2aport' with `legacyCompat: false`. Invalid options throw a
 * TypeError naming the option.
 */
export function createA2ABackendAdapter(options) {
  return new Backend(validateOptions({ ...options, legacyCompat: false }));
}
