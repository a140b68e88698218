// The published package, as a user gets it: `npm pack` js/ into a temp folder, install the
// tarball into a fresh project (offline: the package has no dependencies), and in a child node
// process import 'a2aport' and 'a2aport/conformance' and run a Work against the test agent.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { packageDir, startAgent } from './agent.js';

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const STEP_TIMEOUT_MS = 120_000;

let agent;
let tmp;
before(async () => {
  agent = await startAgent();
  tmp = mkdtempSync(join(tmpdir(), 'a2aport-pack-'));
});
after(async () => {
  await agent?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** Runs a command, bounded; resolves {stdout, stderr} or rejects with both in the message. */
function run(cmd, args, options) {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { timeout: STEP_TIMEOUT_MS, killSignal: 'SIGKILL', maxBuffer: 16 << 20, shell: process.platform === 'win32', ...options },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`${cmd} ${args.join(' ')}: ${err.message}\n${stdout}\n${stderr}`));
        else resolve({ stdout, stderr });
      });
  });
}

// The program a user would write, run from the fresh project.
const program = `
import { createA2ABackendAdapter, A2APortError } from 'a2aport';
import { verifyBackendAdapterConformance } from 'a2aport/conformance';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const port = createA2ABackendAdapter({ agentCardUrl: process.env.CARD_URL, pollIntervalMs: 10 });
const events = [];
try {
  const out = await port.submit({ id: 'packed-1', ownerId: 'alice', instruction: 'complete from the tarball' },
    { onEvent: (e) => events.push(e.type) });
  let invalid;
  try { createA2ABackendAdapter({}); } catch (err) { invalid = err.name; }
  console.log(JSON.stringify({
    content: out.content,
    events: events.length,
    transport: port.describe().transport,
    errorClass: typeof A2APortError,
    conformance: typeof verifyBackendAdapterConformance,
    invalid,
    wasm: existsSync(fileURLToPath(import.meta.resolve('a2aport/a2aport.wasm'))),
    v1: typeof (await import('a2aport/1.0')).createA2ABackendAdapter, // the deprecated alias still resolves
    exported: Object.keys(JSON.parse(readFileSync(fileURLToPath(import.meta.resolve('a2aport/package.json')), 'utf8')).exports),
  }));
} finally {
  await port.close();
}
`;

test('npm pack, install the tarball offline into a fresh project, import it and run a Work', { timeout: 5 * STEP_TIMEOUT_MS }, async () => {
  assert.ok(existsSync(join(packageDir, 'a2aport.wasm')), 'js/a2aport.wasm is missing: run make build.js first');

  const { stdout } = await run(NPM, ['pack', '--json', '--pack-destination', tmp], { cwd: packageDir });
  const [info] = JSON.parse(stdout);
  const files = info.files.map((f) => f.path).sort();
  for (const f of ['package.json', 'index.d.ts', 'conformance.d.ts', 'a2aport.wasm', 'src/index.js', 'src/v1.js', 'src/conformance.js', 'src/conformance/helpers.js']) {
    assert.ok(files.includes(f), `the tarball lacks ${f}: ${JSON.stringify(files)}`);
  }
  assert.deepEqual(files.filter((f) => f.endsWith('.wasm')), ['a2aport.wasm'], 'one module in the tarball');
  const stray = files.filter((f) => f.startsWith('test/') || f.startsWith('node_modules/'));
  assert.deepEqual(stray, [], 'files that do not belong in the tarball');
  const pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  assert.deepEqual(Object.keys(pkg.dependencies ?? {}), [], 'the package has no runtime dependencies');

  const project = join(tmp, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'a2aport-pack-check', private: true, type: 'module' }));
  await run(NPM, ['install', '--offline', '--no-audit', '--no-fund', join(tmp, info.filename)], { cwd: project });
  writeFileSync(join(project, 'check.mjs'), program);

  const { stdout: out } = await run(process.execPath, ['check.mjs'], { cwd: project, env: { ...process.env, CARD_URL: agent.cards['v1-jsonrpc-stream'] } });
  const { events, ...result } = JSON.parse(out.trim().split('\n').at(-1));
  assert.ok(events > 0, 'the Work produced events');
  assert.deepEqual(result, {
    content: 'done\n\necho: complete from the tarball',
    transport: 'JSONRPC',
    errorClass: 'function',
    conformance: 'function',
    invalid: 'TypeError',
    wasm: true,
    v1: 'function',
    exported: ['.', './1.0', './conformance', './a2aport.wasm', './package.json'],
  });

  // The README's example as a newcomer copies it into this project: it runs against an agent (its
  // URL the only change), and compiles with tsc --strict against the installed declarations.
  const readme = readFileSync(join(packageDir, 'README.md'), 'utf8').match(/```js\n([\s\S]*?)```/)[1];
  assert.match(readme, /'https:\/\/agent\.example\/'/, 'the README example names its agent so');
  writeFileSync(join(project, 'readme.mjs'), readme.replace("'https://agent.example/'", 'process.env.CARD_URL'));
  const { stdout: said } = await run(process.execPath, ['readme.mjs'], { cwd: project, env: { ...process.env, CARD_URL: agent.cards['v1-jsonrpc-stream'] } });
  assert.equal(said.trim(), 'echo: Summarize the report');
  writeFileSync(join(project, 'readme.ts'), `export {};\n${readme}`);
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', lib: ['es2022', 'dom'],
      types: ['node'], typeRoots: [join(packageDir, 'node_modules', '@types')], skipLibCheck: false },
    files: ['readme.ts'],
  }));
  await run(process.execPath, [join(packageDir, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project], { cwd: project });
});
