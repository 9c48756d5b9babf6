import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { installApp, npm, passOtp, visit, type App } from './consumer-apps.js';
import { cspViolations } from '../e2e/demo-browser.js';
// @ts-expect-error: a plain ES module of the tests, without types
import { startHost } from '../../consumers/host.mjs';

// Each app type-checks its use of the package in its build (vue-tsc, svelte-check, Angular's
// strict templates), then bundles it into `out`.
const apps = [
  { name: 'vite-react', framework: 'React 19 + Vite', phone: '50 222 3344', out: 'dist' },
  { name: 'vue-app', framework: 'Vue 3 + Vite', phone: '50 222 5566', out: 'dist' },
  { name: 'svelte-app', framework: 'Svelte 5 + Vite', phone: '50 222 7788', out: 'dist' },
  { name: 'angular-app', framework: 'Angular 20', phone: '50 222 9900', out: 'dist/app/browser' },
];

for (const { name, framework, phone, out } of apps) {
  describe(`${framework}: an app with the package installed from its tarball`, () => {
    let app: App;
    let host: { url: string; emulatorOrigin: string; close(): Promise<void> };

    before(() => {
      app = installApp(name);
      npm(app.dir, 'run', 'build');
    });
    after(async () => {
      await host?.close();
      app?.remove();
    });

    it(`builds, and runs the OTP flow under a strict CSP, the receipt ${name === 'vite-react' ? 'reaching the app' : 'checked by the server'}`, async () => {
      host = await startHost({ root: join(app.dir, out) });
      const { page, errors, close } = await visit(host.url);
      try {
        await passOtp(page, host.emulatorOrigin, phone);
        if (name === 'vite-react') {
          await page.waitForFunction(() => document.getElementById('receipt')?.textContent, { timeout: 15_000 });
          assert.match(await page.$eval('#receipt', (p) => p.textContent ?? ''), /^[\w-]+\.[\w-]+\.[\w-]+$/);
        } else {
          // The Vue, Svelte and Angular snippets post the receipt to /api/confirm, whose answer names the user.
          await page.waitForFunction(() => document.getElementById('confirmed')?.textContent, { timeout: 15_000 });
          assert.equal(await page.$eval('#confirmed', (p) => p.textContent), 'consumer');
        }
        // The React app also shows each step its typed event handler received.
        if (name === 'vite-react') assert.equal(await page.$eval('#step', (p) => p.textContent), 'success');
        assert.deepEqual(errors, []);
        assert.deepEqual(await cspViolations(page), []);
      } finally {
        await close();
      }
    });
  });
}
