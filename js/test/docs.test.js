// Every JavaScript block of the README files and docs/ that is a program (it imports from
// 'a2aport') compiles as TypeScript under --strict, against the package's own declarations, as a
// user who copies it gets it: in a page (DOM) or in Node. Go's blocks are tests/docs' to build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const js = fileURLToPath(new URL('..', import.meta.url));
const repo = join(js, '..');

function programs() {
  const files = ['README.md', 'js/README.md', ...readdirSync(join(repo, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  const out = [];
  for (const file of files) {
    const text = readFileSync(join(repo, file), 'utf8');
    let n = 0;
    for (const m of text.matchAll(/```(?:js|ts)\n([\s\S]*?)```/g)) {
      n++;
      if (/from 'a2aport(\/[\w.]+)?'/.test(m[1])) out.push({ name: `${file.replaceAll('/', '_')}-${n}`, code: m[1] });
    }
  }
  return out;
}

test('the JS programs of the README files and docs/ compile under --strict', () => {
  const found = programs();
  assert.ok(found.length >= 3, `found ${found.length} programs, want the two READMEs' and docs/js.md's at least`);
  const dir = mkdtempSync(join(js, 'test', 'types', 'docs-'));
  try {
    for (const p of found) writeFileSync(join(dir, `${p.name}.ts`), `export {};\n${p.code}`);
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      extends: '../tsconfig.json',
      compilerOptions: { types: ['node'] }, // a README program may run in Node (process.env) or a page (DOM)
      files: found.map((p) => `${p.name}.ts`),
    }));
    const r = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', dir], { cwd: js, encoding: 'utf8' });
    assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
