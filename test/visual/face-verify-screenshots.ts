// Saves a screenshot of every <face-verify> step, in English and Arabic, light and dark, to
// test/screenshots/face-verify/ (not committed). Drives the real demo with Chromium's camera fed by
// the obama_1 fixture. What the gate sees is set by a stand-in detector, so each of its messages
// can be shown; steps that wait on an answer hold it, and camera failures stub getUserMedia.
// Usage: npm run screenshots
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { HTTPRequest, ResponseForRequest } from 'puppeteer-core';
import { cameraFrom, startDemo } from '../node/demo-browser.js';

const out = fileURLToPath(new URL('../screenshots/face-verify/', import.meta.url));
await mkdir(out, { recursive: true });
const demo = await startDemo({}, cameraFrom('obama_1'));
const { page } = demo;
await page.setViewport({ width: 560, height: 900, deviceScaleFactor: 1 });
await page.setRequestInterception(true);
type Rule = (url: string) => 'hold' | Partial<ResponseForRequest> | undefined;
let rule: Rule = () => undefined;
const held: HTTPRequest[] = [];
page.on('request', (request: HTTPRequest) => {
  const action = rule(request.url());
  if (action === 'hold') return void held.push(request);
  if (action) return request.respond(action);
  request.continue();
});

const W = `document.querySelector('face-verify')`;
const untilStep = (step: string) => page.waitForFunction((w, s) => eval(w)?.step === s, { timeout: 15_000 }, W, step);
const click = (part: string) => page.evaluate((w, p) => eval(w).shadowRoot.querySelector(`[part~="${p}"]`).click(), W, part);
const settle = (ms = 300) => new Promise((done) => setTimeout(done, ms));

/** The faces a stand-in detector reports, in the 0-1 frame coordinates of the measured copy. */
type Faces = [number, number, number, number][];

async function fresh(lang: string, mode: 'verify' | 'enroll', faces: Faces = [[0.3, 0.2, 0.4, 0.55]]) {
  rule = () => undefined;
  for (const request of held.splice(0)) await request.abort().catch(() => {});
  await page.goto(demo.url, { waitUntil: 'load' });
  await page.select('#user', 'omar');
  // A string, not a function: tsx would add helpers the page does not have.
  await page.evaluate(`{
    const slot = ${W}.parentElement;
    Object.assign(slot, { lang: '${lang}', dir: '${lang === 'ar' ? 'rtl' : 'ltr'}' });
    slot.innerHTML = '<face-verify endpoint="/api/verify" mode="${mode}" manual></face-verify>';
    ${W}.detector = {
      detect: async (c) => ${JSON.stringify(faces)}.map(([x, y, w, h]) => ({ x: x * c.width, y: y * c.height, width: w * c.width, height: h * c.height })),
    };
  }`);
  await page.waitForFunction((w) => eval(w)?.shadowRoot?.querySelector('[part~="submit"]'), {}, W);
}

async function toPreview(lang: string, faces?: Faces) {
  await fresh(lang, 'verify', faces);
  await click('submit');
  await untilStep('preview');
  await page.waitForFunction((w) => eval(w).shadowRoot.querySelector('video')?.videoWidth > 0, {}, W);
  await settle(800);
}

async function toReview(lang: string, mode: 'verify' | 'enroll' = 'verify') {
  await fresh(lang, mode);
  await click('submit');
  await untilStep('preview');
  await page.waitForFunction((w) => eval(w).shadowRoot.querySelector('video')?.videoWidth > 0, {}, W);
  await click('shutter');
  await untilStep('review');
}

/** getUserMedia rejects with this DOMException name in the page from now on. */
async function cameraFails(lang: string, name: string) {
  await fresh(lang, 'verify');
  await page.evaluate((n) => {
    navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException('stubbed', n));
  }, name);
  await click('submit');
  await untilStep('failure');
}

const STEPS: Record<string, (lang: string) => Promise<void>> = {
  priming: (lang) => fresh(lang, 'verify'),
  'priming-enroll': (lang) => fresh(lang, 'enroll'),
  permission: async (lang) => {
    await fresh(lang, 'verify');
    await page.evaluate(() => (navigator.mediaDevices.getUserMedia = () => new Promise(() => {})));
    await click('submit');
    await untilStep('permission');
  },
  'preview-good': (lang) => toPreview(lang),
  'preview-no-face': (lang) => toPreview(lang, []),
  'preview-two-faces': (lang) => toPreview(lang, [[0.05, 0.2, 0.3, 0.4], [0.6, 0.2, 0.3, 0.4]]),
  'preview-off-centre': (lang) => toPreview(lang, [[0.0, 0.0, 0.3, 0.45]]),
  review: (lang) => toReview(lang),
  uploading: async (lang) => {
    await toReview(lang);
    rule = (url) => (url.endsWith('/verify-by-face') ? 'hold' : undefined);
    await click('submit');
    await untilStep('uploading');
  },
  'success-enrolled': async (lang) => {
    await toReview(lang, 'enroll');
    await click('submit');
    await untilStep('success');
  },
  'success-verified': async (lang) => {
    await toReview(lang);
    await click('submit');
    await untilStep('success');
  },
  'failure-no-match': async (lang) => {
    await toReview(lang);
    const body = JSON.stringify({ error: { code: 'no_match', message: 'The face did not match.', attemptsLeft: 2 } });
    rule = (url) => (url.endsWith('/verify-by-face') ? { status: 422, contentType: 'application/json', body } : undefined);
    await click('submit');
    await untilStep('failure');
  },
  'failure-denied': (lang) => cameraFails(lang, 'NotAllowedError'),
  'failure-no-camera': (lang) => cameraFails(lang, 'NotFoundError'),
  'failure-busy': (lang) => cameraFails(lang, 'NotReadableError'),
};

try {
  for (const scheme of ['light', 'dark']) {
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
    for (const lang of ['en', 'ar']) {
      for (const [step, drive] of Object.entries(STEPS)) {
        await drive(lang);
        await settle();
        const file = `${out}${lang}-${scheme}-${step}.png`;
        await (await page.$('face-verify'))!.screenshot({ path: file as `${string}.png` });
        console.log(file);
      }
    }
  }
} finally {
  await demo.close();
}
