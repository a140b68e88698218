// a2aport/1.0: the BackendPort with the A2A 1.0-only module alone, for a bundle that leaves the
// full module (A2A 0.3, card signatures) out. An agent that speaks only 0.3 fails with
// A2A_LEGACY_BUILD_REQUIRED, saying to import 'a2aport'.

import { Backend } from './backend.js';
import { A2APortError } from './errors.js';
import { modules } from './modules-1.0.js';
import { validateOptions } from './options.js';

export { A2APortError };

/** Creates a BackendPort that speaks A2A 1.0 only. Invalid options throw a TypeError naming the option. */
export function createA2ABackendAdapter(options) {
  return new Backend(validateOptions({ ...options, legacyCompat: false }), modules);
}
