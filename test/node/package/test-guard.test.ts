/** The guard `npm test` runs against tests that cannot fail (test/build/test-guard.mjs), on samples of each fault. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
// @ts-expect-error: a plain script of the build, without types
import { assertingHelpers, problemsIn } from '../../build/test-guard.mjs';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** The guard's findings for a sample file, with its helpers known. */
function problems(text: string): string[] {
  const source = ts.createSourceFile('sample.test.ts', text, ts.ScriptTarget.Latest, true);
  return problemsIn(join(root, 'test/sample.test.ts'), text, assertingHelpers([source])).map((p: string) => p.replace(/^test\/sample\.test\.ts:/, ''));
}

describe('the test guard', () => {
  it('refuses a test with no assertion, and accepts one that asserts itself or through a helper', () => {
    assert.deepEqual(problems(`it('does a thing', async () => { await run(); });`), ["1: the test 'does a thing' asserts nothing (no assert, expect, throw or asserting helper)"]);
    assert.deepEqual(problems(`it('empty', () => {});`).length, 1);
    assert.deepEqual(problems(`it('checks', () => { assert.equal(1 + 1, 2); });`), []);
    assert.deepEqual(problems(`it('checks', () => expect(run()).to.equal(2));`), []);
    assert.deepEqual(problems(`async function settle() { throw new Error('no'); }\nconst check = () => settle();\nit('through two helpers', () => check());`), []);
    assert.deepEqual(problems(`it('skipped where it cannot run', function () { this.skip(); });`), []);
  });

  it('refuses assert.ok of a literal or of a browser handle, directly or through a helper', () => {
    assert.deepEqual(problems(`it('a', () => { assert.ok(true); });`), ['1: a truthiness check of a literal, always true']);
    assert.deepEqual(problems(`it('b', async () => { assert.ok(await page.evaluateHandle(() => null)); });`), ['1: a truthiness check of a browser handle, truthy even around null']);
    assert.deepEqual(problems(`const live = (page) => page.evaluateHandle(() => document.body);\nit('c', async () => { assert.ok(await live(page)); });`), ['2: a truthiness check of a browser handle, truthy even around null']);
    assert.deepEqual(problems(`it('d', async () => { expect(await page.$('x')).to.exist; });`).length, 1);
    // A DOM helper named $ answers an element or null: checking it is a real check.
    assert.deepEqual(problems(`it('e', () => { expect($(element, 'x')).to.exist; });`), []);
  });

  it('refuses a sleep followed only by negative checks, unless a comment says why', () => {
    const sleepThen = (checks: string, comment = '') => problems(`it('f', async () => {\n  ${comment}\n  await new Promise((done) => setTimeout(done, 100));\n  ${checks}\n});`);
    assert.deepEqual(sleepThen(`assert.equal(sent, 0);`), ['3: a sleep followed only by negative checks: wait for a state, or say why with "guard-allow: sleep-then-negative:"']);
    assert.equal(sleepThen(`expect(calls).to.deep.equal([]);\nexpect(box.hidden).to.be.false;`).length, 1);
    assert.equal(sleepThen(`assert.doesNotMatch(log, /error/);`).length, 1);
    assert.equal(sleepThen(`expect(after.nodes).to.be.at.most(100);`).length, 1);
    assert.deepEqual(sleepThen(`assert.equal(sent, 1);`), []);
    assert.deepEqual(sleepThen(`assert.equal(sent, 0);`, '// guard-allow: sleep-then-negative: the timer is the point'), []);
    assert.equal(problems(`it('g', async () => {\n  await sleep(500);\n  assert.deepEqual(errors, []);\n});`).length, 1);
    assert.equal(problems(`it('h', async () => {\n  await page.evaluate(() => new Promise((done) => setTimeout(done, 500)));\n  assert.deepEqual(errors, []);\n});`).length, 1);
  });

  it('fails the command on a deliberately empty test, and passes on the tree as it is', () => {
    const dir = mkdtempSync(join(root, 'test/guard-sample-'));
    try {
      writeFileSync(join(dir, 'empty.test.ts'), `import { it } from 'node:test';\nit('proves nothing', () => {});\n`);
      const run = spawnSync(process.execPath, ['test/build/test-guard.mjs', join(dir, 'empty.test.ts').slice(root.length)], { cwd: root, encoding: 'utf8' });
      assert.equal(run.status, 1);
      assert.match(run.stderr, /empty\.test\.ts:2: the test 'proves nothing' asserts nothing/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    assert.match(execFileSync(process.execPath, ['test/build/test-guard.mjs'], { cwd: root, encoding: 'utf8' }), /test guard: \d+ files read, 0 problems/);
  });
});
