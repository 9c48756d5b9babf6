import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('../../../', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { exports: Record<string, unknown>; sideEffects: string[] };
// Modules only: not the manifest, nor the type-only framework declarations (./types/*).
const entries = Object.keys(pkg.exports)
  .filter((key) => !key.endsWith('.json') && !key.includes('*'))
  .map((key) => `verify-widgets${key.slice(1)}`);

/** Runs a module snippet in a plain Node process: no DOM, no test framework, the built package. */
function nodeRun(source: string): string {
  return execFileSync(process.execPath, ['--input-type=module', '-e', source], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

describe('the package', () => {
  for (const entry of entries) {
    it(`${entry} imports in Node without a DOM (server-side rendering)`, () => {
      const out = nodeRun(`await import(${JSON.stringify(entry)}); console.log(typeof document, typeof window)`);
      assert.equal(out.trim(), 'undefined undefined');
    });
  }

  it('importing the classes registers nothing; importing an entry point registers it, and again does not throw', () => {
    const out = nodeRun(`
      const { OtpVerify } = await import('verify-widgets');
      const before = globalThis.customElements?.get('otp-verify');
      await import('verify-widgets/otp-verify');
      const after = globalThis.customElements.get('otp-verify');
      // A second copy of the registration module, as a page that loads the library twice runs.
      const { pathToFileURL } = await import('node:url');
      await import(pathToFileURL('dist/otp-verify/define.js').href + '?again');
      console.log(JSON.stringify([before === undefined, after === OtpVerify]));`);
    assert.equal(out.trim(), '[true,true]');
  });

  it('marks the React entries as client components, one per widget besides the index', () => {
    for (const entry of ['react', 'react/otp-verify', 'react/face-verify', 'react/voice-verify']) {
      const file = (pkg.exports as Record<string, { default: string }>)[`./${entry}`]!.default;
      assert.match(readFileSync(new URL(file, root), 'utf8'), /^'use client';\n/, file);
    }
  });

  it('the widgets need no helper library: no tslib import and no decorator helper in their modules', () => {
    const modules = readdirSync(new URL('dist/', root), { recursive: true, encoding: 'utf8' }).filter((file) => /^(internal|otp-verify|face-verify|voice-verify|locales|core|events|translations)\/.*\.js$/.test(file));
    assert.ok(modules.length > 20, `${modules.length} widget modules`);
    for (const file of modules) assert.doesNotMatch(readFileSync(new URL(`dist/${file}`, root), 'utf8'), /tslib|__decorate/, file);
  });

  it('sideEffects names only the registration modules', () => {
    // The elements' and the languages' registrations, and the CDN files.
    assert.deepEqual(pkg.sideEffects, ['./dist/*/define.js', './dist/locales/*.js', './dist/cdn/*.js']);
  });

  it('runs nothing when installed: the packed package.json has no install-time script', () => {
    const folder = mkdtempSync(join(tmpdir(), 'pack-'));
    const tarball = execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', folder], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim().split('\n').at(-1)!;
    const packed = JSON.parse(execFileSync('tar', ['-xzOf', join(folder, tarball), 'package/package.json'], { encoding: 'utf8' })) as { scripts?: Record<string, string> };
    // npm runs these on install (prepare for git installs too); npm 11 warns of each one a package ships.
    const atInstall = Object.keys(packed.scripts ?? {}).filter((name) => ['preinstall', 'install', 'postinstall', 'prepare'].includes(name));
    assert.deepEqual(atInstall, []);
  });

  it('npm pack holds what users need, and no tests, fixtures or demo', () => {
    const [{ files }] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as [{ files: { path: string }[] }];
    const paths = files.map((f) => f.path);
    for (const needed of ['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts', 'dist/otp-verify/define.js', 'dist/voice-verify/recorder.worklet.js', 'dist/cdn/verify-widgets.js', 'dist/cdn/recorder.worklet.js', 'dist/server/index.js', 'dist/emulator/cli.js', 'dist/custom-elements.json']) {
      assert.ok(paths.includes(needed), `${needed} is in the tarball`);
    }
    const unwanted = paths.filter((p) => /^(test|demo|src|\.ci|\.scratch)\/|fixtures|\.test\.|tsconfig|rollup\.config|web-test-runner/.test(p));
    assert.deepEqual(unwanted, []);
  });
});
