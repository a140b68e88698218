// The declarations as TypeScript users meet them, under --strict and without skipLibCheck: a
// page (DOM library), a Node-only program (@types/node, no DOM: no WebAssembly namespace), and
// mistakes, which must be reported in words that say what was meant.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const js = fileURLToPath(new URL('..', import.meta.url));

function tsc(project) {
  const r = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', project], { cwd: js, encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

test('a page written as the README shows compiles under --strict (test/types/usage.ts)', () => {
  const r = tsc('test/types');
  assert.equal(r.status, 0, r.out);
});

test('a Node-only consumer compiles: no DOM library, @types/node, a card typed by @a2a-js/sdk', () => {
  const r = tsc('test/types/node');
  assert.equal(r.status, 0, r.out);
});

test('a wrong credential is reported by the forms a credential takes, not as never', () => {
  const r = tsc('test/types/wrong');
  assert.notEqual(r.status, 0, 'test/types/wrong compiled');
  const errors = r.out.split('\n').filter((l) => l.includes('error TS'));
  assert.equal(errors.length, 3, r.out);
  assert.ok(!r.out.includes("'never'"), r.out);
  assert.match(errors[0], /'number' is not assignable to type 'Credential'/);
  assert.match(errors[1], /'token' does not exist in type 'BasicCredential \| ClientCredentials \| TransportCredential'/);
  assert.match(errors[2], /'user' does not exist in type 'BasicCredential/);
});
