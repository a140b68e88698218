// Validates createA2ABackendAdapter's options: a bad option throws a TypeError that names it.

import { credentialForm } from './credentials.js';
import { optionTable } from './optiontable.js';

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

function fail(name, what) {
  throw new TypeError(`a2aport: option ${name} ${what}`);
}

function checkCardURL(raw) {
  let u;
  try {
    u = new URL(raw);
  } catch {
    if (/^https?:\/\/$/i.test(raw)) fail('agentCardUrl', 'has no host');
    fail('agentCardUrl', 'must be an absolute http or https URL');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') fail('agentCardUrl', `must be an absolute http or https URL, got ${u.protocol}`);
  if (u.username || u.password) fail('agentCardUrl', 'must not contain userinfo; use token or headers for credentials');
}

/**
 * A push webhook must be an absolute http(s) URL without userinfo (the agent keeps it), and needs a
 * server to receive it: in a page (a browser, Electron's renderer) there is none.
 */
function checkWebhookURL(raw) {
  if (typeof raw !== 'string') fail('pushWebhookUrl', 'must be a string');
  let u;
  try {
    u = new URL(raw);
  } catch {
    fail('pushWebhookUrl', 'must be an absolute http or https URL');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') fail('pushWebhookUrl', `must be an absolute http or https URL, got ${u.protocol}`);
  if (u.username || u.password) fail('pushWebhookUrl', 'must not contain userinfo: the agent keeps the URL');
  const server = globalThis.process?.versions?.node !== undefined || globalThis.Deno !== undefined;
  if (!server || typeof document !== 'undefined') {
    fail('pushWebhookUrl', 'needs a server that receives the pushes, and a page has none: use it in Node (or Electron\'s main process), and streams in a page');
  }
}

/** Every option createA2ABackendAdapter takes, in the order of docs/options.md and index.d.ts. */
export const optionNames = Object.freeze(optionTable.map((o) => o.name));
const known = new Set(optionNames);

/**
 * The option a mistyped name most likely meant: the same name in other case (Go's AgentCardURL),
 * with its unit (Go's Timeout is timeoutMs), or one at most a few edits away.
 */
function nearestOption(name) {
  const lower = name.toLowerCase();
  let best;
  let bestDistance = Infinity;
  for (const candidate of optionNames) {
    const c = candidate.toLowerCase();
    if (c === lower || c === `${lower}ms`) return candidate;
    const d = editDistance(lower, c);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return bestDistance <= Math.max(2, Math.floor(name.length / 4)) ? best : undefined;
}

/** Levenshtein distance: edits (insert, delete, replace) that turn a into b. */
function editDistance(a, b) {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length];
}

/**
 * Checks an option of the kinds the option table knows: numbers are whole, 0 (the default, which
 * the module applies) or at least their minimum, negative only where that turns them off.
 */
function checkKind(opt, v) {
  if (v === undefined) return;
  const { name } = opt;
  switch (opt.kind) {
    case 'string':
      if (typeof v !== 'string') fail(name, 'must be a string');
      break;
    case 'strings':
      if (!Array.isArray(v) || v.some((s) => typeof s !== 'string')) fail(name, 'must be an array of strings');
      break;
    case 'boolean':
      if (typeof v !== 'boolean') fail(name, 'must be a boolean');
      break;
    case 'enum':
      if (!opt.values.includes(v)) fail(name, `must be ${opt.values.map((x) => `'${x}'`).join(' or ')}`);
      break;
    case 'duration': case 'count': case 'bytes': {
      const range = `0 (the default), ${opt.min === 1 ? 'a positive one' : `at least ${opt.min}`}${opt.off ? ', or a negative one (off)' : ''}`;
      if (typeof v !== 'number' || !Number.isInteger(v) || (v < 0 && !opt.off) || (v > 0 && v < opt.min)) {
        fail(name, `must be a whole number: ${range}`);
      }
      break;
    }
    default: // special and host options: checked one by one above
  }
}

/** Returns the options checked, with the defaults the JS side applies (fetchImpl, worker, legacyCompat). */
export function validateOptions(options) {
  if (!isObject(options)) throw new TypeError('a2aport: options must be an object');
  for (const name of Object.keys(options)) {
    if (known.has(name)) continue;
    const near = nearestOption(name);
    throw new TypeError(`a2aport: unknown option ${name}${near ? `: did you mean ${near}?` : ' (docs/options.md lists them)'}`);
  }
  const o = { ...options };
  const hasURL = o.agentCardUrl !== undefined;
  const hasCard = o.agentCard !== undefined;
  if (hasURL === hasCard) fail(hasURL ? 'agentCardUrl' : 'agentCardUrl/agentCard', hasURL ? 'and agentCard are exclusive: give one' : 'is required: give agentCardUrl or agentCard');
  if (hasURL) {
    if (typeof o.agentCardUrl !== 'string') fail('agentCardUrl', 'must be a string');
    checkCardURL(o.agentCardUrl);
  }
  if (hasCard && !isObject(o.agentCard)) fail('agentCard', 'must be an object (an A2A 1.0 Agent Card)');
  if (o.token !== undefined && typeof o.token !== 'string') fail('token', 'must be a string');
  if (o.headers !== undefined && typeof o.headers !== 'function') {
    if (!isObject(o.headers)) fail('headers', 'must be an object of strings or a function');
    for (const [k, v] of Object.entries(o.headers)) {
      if (typeof v !== 'string') fail('headers', `must map names to strings (${k} is ${typeof v})`);
    }
  }
  if (o.credentials !== undefined) {
    if (!isObject(o.credentials)) fail('credentials', 'must be an object keyed by the security scheme names of the Agent Card');
    for (const [name, value] of Object.entries(o.credentials)) {
      if (name.trim() === '') fail('credentials', 'contain an empty scheme name');
      try {
        credentialForm(value);
      } catch (e) {
        fail(`credentials["${name}"]`, e.message);
      }
    }
  }
  if (o.tokenProvider !== undefined && typeof o.tokenProvider !== 'function') fail('tokenProvider', 'must be a function (scheme) => token');
  o.fetchImpl ??= globalThis.fetch;
  if (typeof o.fetchImpl !== 'function') fail('fetchImpl', 'must be a function (default: globalThis.fetch)');
  for (const name of ['legacyCompat', 'worker']) {
    if (o[name] !== undefined && typeof o[name] !== 'boolean') fail(name, 'must be a boolean');
  }
  o.legacyCompat ??= true;
  // A page's main thread must not freeze while the module compiles and starts: there it runs in a
  // worker unless told otherwise. In Node, and inside a worker already, on the calling thread.
  o.workerAsked = o.worker === true; // a default worker that cannot start gives way to inline
  o.worker ??= typeof document !== 'undefined' && !globalThis.process?.versions?.node;
  if (o.extensions !== undefined &&
      (!Array.isArray(o.extensions) || o.extensions.some((u) => typeof u !== 'string' || u.trim() === ''))) {
    fail('extensions', 'must be an array of extension URIs');
  }
  if (o.allowedOrigins !== undefined &&
      (!Array.isArray(o.allowedOrigins) || o.allowedOrigins.some((v) => typeof v !== 'string'))) {
    fail('allowedOrigins', "must be an array of origins ('https://host[:port]') or '*'");
  }
  if (o.cardKeys !== undefined && !isObject(o.cardKeys) && !Array.isArray(o.cardKeys)) {
    fail('cardKeys', 'must be a JWK Set ({keys: [...]}), an array of JWKs or one JWK');
  }
  if (o.pushWebhookUrl !== undefined) checkWebhookURL(o.pushWebhookUrl);
  if (o.protocolBinding === 'GRPC') fail('protocolBinding', "'GRPC' is A2A's, but a2aport does not speak it (browsers cannot): give 'JSONRPC' or 'HTTP+JSON'");
  for (const opt of optionTable) checkKind(opt, o[opt.name]);
  if (o.protocolVersion === '0.3' && !o.legacyCompat) fail('protocolVersion', "'0.3' needs legacyCompat");
  if (o.contextStore !== undefined &&
      (!isObject(o.contextStore) || ['get', 'set', 'delete'].some((m) => typeof o.contextStore[m] !== 'function'))) {
    fail('contextStore', 'must have get, set and delete functions');
  }
  if (o.workStore !== undefined &&
      (!isObject(o.workStore) || ['get', 'set', 'delete'].some((m) => typeof o.workStore[m] !== 'function'))) {
    fail('workStore', 'must have get, set and delete functions');
  }
  const w = o.wasm;
  if (w !== undefined && !(typeof w === 'string' || w instanceof URL || w instanceof ArrayBuffer || ArrayBuffer.isView(w) ||
      w instanceof WebAssembly.Module || (typeof Response !== 'undefined' && w instanceof Response))) {
    fail('wasm', 'must be a URL, a Response, bytes or a WebAssembly.Module');
  }
  return o;
}
