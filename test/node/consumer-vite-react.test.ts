import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'puppeteer-core';
import { cspViolations, openBrowser } from './demo-browser.js';
// @ts-expect-error: a plain ES module of the tests, without types
import { startHost } from '../consumers/host.mjs';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const npm = (cwd: string, ...args: string[]) => execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

describe('a Vite + React app, with the package installed from its tarball', () => {
  let work: string;
  let host: { url: string; emulatorUrl: string; close(): Promise<void> };
  let browser: { page: Page; close(): Promise<void> };

  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'vite-react-'));
    // What a user gets: the tarball (built by `npm test` before these tests), installed like any package.
    const tarball = npm(repo, 'pack', '--ignore-scripts', '--pack-destination', work).trim().split('\n').at(-1)!;
    const app = join(work, 'app');
    cpSync(fileURLToPath(new URL('../consumers/vite-react/', import.meta.url)), app, { recursive: true });
    npm(app, 'install', join(work, tarball));
    npm(app, 'run', 'build');
    host = await startHost({ root: join(app, 'dist') });
    browser = await openBrowser(host.url);
  });
  after(async () => {
    await browser?.close();
    await host?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('runs the OTP flow through the React component, its typed events reaching React state', async () => {
    const { page } = browser;
    await page.waitForFunction(() => document.querySelector<any>('otp-verify')?.shadowRoot?.querySelector('#phone'));
    const phone = await page.evaluateHandle(() => document.querySelector<any>('otp-verify').shadowRoot.querySelector('#phone'));
    await (phone as any).type('50 222 3344');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.getElementById('step')?.textContent === 'code', { timeout: 15_000 });
    const { messages } = (await (await fetch(`${host.emulatorUrl}/__emulator/messages?to=%2B966502223344`)).json()) as { messages: { code: string }[] };
    await page.keyboard.type(messages[0]!.code, { delay: 20 });
    await page.waitForFunction(() => document.getElementById('receipt')?.textContent, { timeout: 15_000 });
    assert.match(await page.$eval('#receipt', (p) => p.textContent ?? ''), /^[\w-]+\.[\w-]+\.[\w-]+$/);
    assert.equal(await page.$eval('#step', (p) => p.textContent), 'success');
    assert.deepEqual(await cspViolations(page), []);
  });
});
