import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import type { Page } from 'puppeteer-core';
import { faceFromCamera, passOtp } from './consumer-apps.js';
import { cameraFrom, cspViolations, microphoneFrom, openBrowser, press, untilStep } from '../e2e/demo-browser.js';
// @ts-expect-error: a plain ES module of the tests, without types
import { startHost } from '../../consumers/host.mjs';

const root = (path: string) => fileURLToPath(new URL(`../../../${path}`, import.meta.url));
const stepOf = (page: Page, tag: string) => page.evaluate((t) => document.querySelector<any>(t).step as string, tag);

describe('a plain HTML page with the CDN file in one script tag, under a strict CSP', () => {
  let host: { url: string; emulatorOrigin: string; close(): Promise<void> };
  let browser: { page: Page; close(): Promise<void> };
  before(async () => {
    host = await startHost({ root: root('test/consumers/cdn-page'), cdn: root('dist/cdn') });
    browser = await openBrowser(host.url, [...cameraFrom('obama_1'), ...microphoneFrom('spk1688_M_1_48k')]);
  });
  after(async () => {
    await browser?.close();
    await host?.close();
  });

  it('runs the OTP flow against the handler and the emulator', async () => {
    const { page } = browser;
    await passOtp(page, host.emulatorOrigin, '50 765 4321');
    assert.match(await page.$eval('#receipt', (p) => p.textContent ?? ''), /^[\w-]+\.[\w-]+\.[\w-]+$/);
  });

  it('registers a face from the camera', async () => {
    await faceFromCamera(browser.page);
  });

  it('registers a voice, the recorder worklet loaded from beside the CDN file', async () => {
    const { page } = browser;
    await press(page, 'voice-verify', 'submit');
    await untilStep(page, 'voice-verify', 'ready');
    await press(page, 'voice-verify', 'record');
    await untilStep(page, 'voice-verify', 'review');
    await press(page, 'voice-verify', 'submit');
    await untilStep(page, 'voice-verify', 'success');
    assert.equal(await stepOf(page, 'voice-verify'), 'success');
  });

  it('caused no Content-Security-Policy violation', async () => {
    assert.deepEqual(await cspViolations(browser.page), []);
  });
});
