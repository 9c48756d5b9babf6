import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { installApp, npm, type App } from './consumer-apps.js';

describe('the types and editor data a project gets from the installed tarball', () => {
  let app: App;
  let installed: string;
  const read = (path: string) => JSON.parse(readFileSync(join(installed, path), 'utf8'));

  before(() => {
    app = installApp('types-app');
    installed = join(app.dir, 'node_modules/verify-widgets');
  });
  after(() => app?.remove());

  it('compile, with skipLibCheck off, in React 19 and Preact JSX and on a server without ioredis; wrong props and event details are errors', () => {
    // The app's @ts-expect-error lines fail the build if the element types stop refusing them.
    npm(app.dir, 'run', 'build');
    assert.equal(existsSync(join(app.dir, 'node_modules/ioredis')), false);
  });

  it('install only what the widgets need: the server\'s and emulator\'s libraries are inside their builds', () => {
    // uqr draws the phone link's QR code, in a chunk the widgets fetch when they show it.
    assert.deepEqual(Object.keys(read('package.json').dependencies).sort(), ['@lit/react', 'lit', 'uqr']);
    for (const library of ['jose', 'libphonenumber-js', 'altcha-lib', 'pngjs', 'jpeg-js', 'ssim.js', 'fft.js']) {
      assert.equal(existsSync(join(app.dir, 'node_modules', library)), false, `${library} is not installed`);
      const licences = ['server', 'emulator'].map((audience) => readFileSync(join(installed, `dist/${audience}/THIRD-PARTY-LICENSES.txt`), 'utf8')).join('\n');
      assert.match(licences, new RegExp(`^Name: ${library.replace('.', '\\.')}$`, 'm'));
    }
  });

  it('point package.json at a manifest whose modules are shipped files', () => {
    const pkg = read('package.json');
    const manifest = read(pkg.customElements);
    const paths = manifest.modules.flatMap((m: { path: string; exports?: { declaration: { module?: string } }[] }) => [m.path, ...(m.exports ?? []).map((e) => e.declaration.module).filter((p): p is string => !!p && !p.startsWith('./'))]);
    assert.ok(paths.length > 10);
    for (const path of paths) assert.ok(existsSync(join(installed, path)), `${path} is in the package`);
  });

  it('give VS Code and JetBrains editors the three elements with their attributes', () => {
    const vscode = read('dist/types/vscode.html-custom-data.json');
    assert.deepEqual(vscode.tags.map((t: { name: string }) => t.name).sort(), ['face-verify', 'otp-verify', 'voice-verify']);
    assert.ok(vscode.tags.find((t: { name: string }) => t.name === 'otp-verify').attributes.some((a: { name: string }) => a.name === 'request-timeout'));
    const webTypes = read(read('package.json')['web-types']);
    assert.deepEqual(webTypes.contributions.html.elements.map((e: { name: string }) => e.name).sort(), ['face-verify', 'otp-verify', 'voice-verify']);
  });
});
