// Test helpers: the Go test agent as a child process (internal/testkit/agent, command a2aport-testagent),
// a fetch that records what the adapter sends, and small bounded-wait utilities.
//
//   const agent = await startAgent();          // in before(); agent.stop() in after()
//   agent.cards['v1-jsonrpc-stream']           // Agent Card URL of one of the 8 variants
//
// The agent listens on 127.0.0.1 only, exits on its own after -lifetime (a forgotten process
// cannot linger) and is killed when the test process exits.
import { spawn, execFile } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { createA2ABackendAdapter } from '../src/index.js';

/** The repository root (js/test/../..). */
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
/** The package folder, js/. */
export const packageDir = fileURLToPath(new URL('../', import.meta.url));

const agentBinary = join(repoRoot, 'bin', 'a2aport-testagent');

/** The eight variants: {1.0, 0.3} × {JSON-RPC, HTTP+JSON} × {streaming, polling}. */
export const variants = [];
for (const version of ['v1', 'v03']) {
  for (const binding of ['jsonrpc', 'rest']) {
    for (const mode of ['stream', 'poll']) {
      variants.push({ name: `${version}-${binding}-${mode}`, version: version === 'v1' ? '1.0' : '0.3', binding, streaming: mode === 'stream' });
    }
  }
}

/** Bounds for the helpers: building the agent from a cold Go cache, and its start. */
const BUILD_TIMEOUT_MS = 5 * 60_000;
const START_TIMEOUT_MS = 30_000;

/** Builds bin/a2aport-testagent unless it exists; concurrent test files never see a half-written binary. */
export function buildAgent() {
  return buildBinary('./internal/testkit/agent/cmd/a2aport-testagent', agentBinary);
}

/** Builds the Go command pkg into binary unless it exists (make build.js builds them afresh). */
export async function buildBinary(pkg, binary) {
  if (existsSync(binary)) return binary;
  mkdirSync(dirname(binary), { recursive: true });
  const out = `${binary}.tmp-${process.pid}`;
  try {
    await new Promise((resolve, reject) => {
      execFile('go', ['build', '-o', out, pkg], { cwd: repoRoot, timeout: BUILD_TIMEOUT_MS, killSignal: 'SIGKILL' },
        (err, _stdout, stderr) => (err ? reject(new Error(`go build of ${pkg} failed: ${err.message}\n${stderr}`)) : resolve()));
    });
    renameSync(out, binary);
  } finally {
    rmSync(out, { force: true });
  }
  return binary;
}

/**
 * Starts the test agent and resolves once it announced itself:
 * {url, cards: {<variant>: cardUrl}, special: {<name>: cardUrl}, secrets: {<what>: value}, stop()}.
 */
export async function startAgent({ lifetime = '10m' } = {}) {
  const bin = await buildAgent();
  const child = spawn(bin, ['-addr', '127.0.0.1:0', '-lifetime', lifetime], { stdio: ['ignore', 'pipe', 'pipe'] });
  const kill = () => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL'); };
  process.once('exit', kill);
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (s) => { stderr += s; });

  const announcement = new Promise((resolve, reject) => {
    let buf = '';
    child.stdout.setEncoding('utf8').on('data', (s) => {
      buf += s;
      const nl = buf.indexOf('\n');
      if (nl >= 0) {
        try {
          resolve(JSON.parse(buf.slice(0, nl)));
        } catch (err) {
          reject(new Error(`test agent announced ${JSON.stringify(buf.slice(0, nl))}: ${err.message}`));
        }
      }
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => reject(new Error(`test agent exited (${code ?? signal}) before announcing itself: ${stderr}`)));
  });
  let a;
  try {
    a = await withTimeout(announcement, START_TIMEOUT_MS, 'the test agent did not announce itself');
  } catch (err) {
    kill();
    throw err;
  }
  child.stdout.resume(); // nothing more is expected; never let a full pipe block it

  const exited = new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', resolve);
  });
  return {
    url: a.url,
    cards: a.cards,
    special: a.special,
    secrets: a.secrets,
    /** Stops the agent: SIGTERM, then SIGKILL if it has not exited within 5 s. */
    async stop() {
      process.removeListener('exit', kill);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(kill, 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

// ---------------------------------------------------------------------------------------------

const jsonrpcMethods = {
  'message/send': 'SendMessage', 'message/stream': 'SendStreamingMessage', 'tasks/get': 'GetTask',
  'tasks/cancel': 'CancelTask', 'tasks/resubscribe': 'SubscribeToTask',
};

/** The A2A method of a request, named as in A2A 1.0 (like the agent's own log), or ''. */
export function a2aMethodOf(url, method, body) {
  const path = new URL(url).pathname;
  if (/\/jsonrpc\//.test(path) || (typeof body === 'string' && body.startsWith('{"') && body.includes('"jsonrpc"'))) {
    try {
      const m = JSON.parse(body).method;
      return jsonrpcMethods[m] ?? m ?? '';
    } catch {
      return '';
    }
  }
  if (path.endsWith('/message:send') && method === 'POST') return 'SendMessage';
  if (path.endsWith('/message:stream') && method === 'POST') return 'SendStreamingMessage';
  if (/\/tasks\/[^/]+:cancel$/.test(path) && method === 'POST') return 'CancelTask';
  if (/\/tasks\/[^/]+:subscribe$/.test(path)) return 'SubscribeToTask';
  if (/\/tasks\/[^/:]+$/.test(path) && method === 'GET') return 'GetTask';
  return '';
}

function bodyText(body) {
  if (typeof body === 'string') return body;
  if (body instanceof ArrayBuffer) return new TextDecoder().decode(body);
  if (ArrayBuffer.isView(body)) return new TextDecoder().decode(new Uint8Array(body.buffer, body.byteOffset, body.byteLength));
  return undefined;
}

/**
 * A fetch that records every request it is given and passes it to the global fetch.
 * Each record: {url, method, headers (a Headers), body (text when readable), a2aMethod,
 * status, error (when the fetch failed), responseText (a Promise of the answer's text, for
 * CancelTask requests only)}.
 */
export function recordingFetch(base = globalThis.fetch) {
  const requests = [];
  const fetchImpl = async (input, init = {}) => {
    const req = input instanceof Request ? input : undefined;
    const url = req ? req.url : String(input);
    const method = (init.method ?? req?.method ?? 'GET').toUpperCase();
    const headers = new Headers(req?.headers);
    new Headers(init.headers).forEach((v, k) => headers.set(k, v));
    const body = bodyText(init.body);
    const record = { url, method, headers, body, a2aMethod: a2aMethodOf(url, method, body), status: undefined };
    requests.push(record);
    let res;
    try {
      res = await base(input, init);
    } catch (err) {
      record.error = err; // with err.cause.code: ECONNREFUSED when it never left
      throw err;
    }
    record.status = res.status;
    if (record.a2aMethod !== 'CancelTask') return res;
    // A cancel's answer is one small JSON document: read it here and hand the adapter a copy,
    // since the adapter may abort the request once it has what it needs.
    const bytes = await res.arrayBuffer();
    record.responseText = Promise.resolve(new TextDecoder().decode(bytes));
    return new Response(bytes, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
  return { fetchImpl, requests };
}

/**
 * Whether a CancelTask for the remote task went out and the agent confirmed it (a 2xx answer
 * naming a cancelled task) — what the Go tests read from the agent's own log (Server.Cancelled).
 */
export async function remoteCancelConfirmed(requests) {
  for (const r of requests) {
    if (r.a2aMethod !== 'CancelTask' || r.status < 200 || r.status > 299) continue;
    const text = await r.responseText;
    if (/"error"\s*:/.test(text)) continue;
    if (/CANCELED|"canceled"|"cancelled"/i.test(text)) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------

/** Rejects with what if promise does not settle within ms. */
export function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} (within ${ms} ms)`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Settles a submit as {out} or {err}, bounded. */
export function settled(promise, ms = 20_000, what = 'submit did not settle') {
  return withTimeout(Promise.resolve(promise).then((out) => ({ out }), (err) => ({ err })), ms, what);
}

/**
 * Collects one Work's events; waitFor resolves the first event from index `from` on that
 * matches, within the bound (rejecting when it passes, or when `signal` aborts).
 */
export class Recorder {
  constructor() {
    this.events = [];
    this.waiters = new Set();
    this.listen = (e) => {
      this.events.push(e);
      for (const w of [...this.waiters]) w();
    };
  }

  waitFor(match, { from = 0, ms = 20_000, signal } = {}) {
    return new Promise((resolve, reject) => {
      const check = () => {
        for (let i = from; i < this.events.length; i++) {
          if (match(this.events[i])) {
            done();
            resolve({ event: this.events[i], index: i });
            return true;
          }
        }
        return false;
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no matching event within ${ms} ms; got ${JSON.stringify(this.events.map((e) => [e.type, e.state]))}`));
      }, ms);
      const stop = () => {
        done();
        reject(signal.reason);
      };
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(check);
        signal?.removeEventListener('abort', stop);
      };
      if (check()) return;
      this.waiters.add(check);
      if (signal?.aborted) stop();
      else signal?.addEventListener('abort', stop, { once: true });
    });
  }
}

let seq = 0;
/** A Work with a unique id. */
export function newWork(ownerId, instruction) {
  return { id: `work-${process.pid}-${++seq}`, ownerId, instruction };
}

/** Creates a port (polling every 10 ms unless options say otherwise), runs fn with it, and closes it (bounded). */
export async function withPort(options, fn) {
  const port = createA2ABackendAdapter({ pollIntervalMs: 10, ...options });
  try {
    return await fn(port);
  } finally {
    await withTimeout(port.close(), 10_000, 'close() did not settle');
  }
}
