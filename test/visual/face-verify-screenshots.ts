// Saves a screenshot of every <face-verify> step (see shoot.ts). Chromium's camera is fed by the
// obama_1 fixture; what the gate sees is set by a stand-in detector, so each of its messages can be
// shown; steps that wait on an answer hold it, and camera failures stub getUserMedia.
// Usage: npm run screenshots
import { cameraFrom } from '../node/demo-browser.js';
import { shootSteps } from './shoot.js';

await shootSteps('face-verify', cameraFrom('obama_1'), {}, ({ demo, page, intercept }) => {
  const W = 'face-verify';
  const untilStep = (step: string) => page.waitForFunction((w, s) => document.querySelector<any>(w)?.step === s, { timeout: 15_000 }, W, step);
  const click = (part: string) => page.evaluate((w, p) => document.querySelector<any>(w).shadowRoot.querySelector(`[part~="${p}"]`).click(), W, part);
  const settle = (ms = 300) => new Promise((done) => setTimeout(done, ms));

  /** The faces a stand-in detector reports, in the 0-1 frame coordinates of the measured copy. */
  type Faces = [number, number, number, number][];

  async function fresh(lang: string, mode: 'verify' | 'enroll', faces: Faces = [[0.3, 0.2, 0.4, 0.55]]) {
    await page.goto(demo.url, { waitUntil: 'load' });
    await page.select('#user', 'omar');
    // A string, not a function: tsx would add helpers the page does not have.
    await page.evaluate(`{
      const slot = document.querySelector('${W}').parentElement;
      Object.assign(slot, { lang: '${lang}', dir: '${lang === 'ar' ? 'rtl' : 'ltr'}' });
      slot.innerHTML = '<face-verify endpoint="/api/verify" mode="${mode}" manual></face-verify>';
      document.querySelector('${W}').detector = {
        detect: async (c) => ${JSON.stringify(faces)}.map(([x, y, w, h]) => ({ x: x * c.width, y: y * c.height, width: w * c.width, height: h * c.height })),
      };
    }`);
    await page.waitForFunction((w) => document.querySelector<any>(w)?.shadowRoot?.querySelector('[part~="submit"]'), {}, W);
  }

  async function toPreview(lang: string, faces?: Faces) {
    await fresh(lang, 'verify', faces);
    await click('submit');
    await untilStep('preview');
    await page.waitForFunction((w) => document.querySelector<any>(w).shadowRoot.querySelector('video')?.videoWidth > 0, {}, W);
    await settle(800);
  }

  async function toReview(lang: string, mode: 'verify' | 'enroll' = 'verify') {
    await fresh(lang, mode);
    await click('submit');
    await untilStep('preview');
    await page.waitForFunction((w) => document.querySelector<any>(w).shadowRoot.querySelector('video')?.videoWidth > 0, {}, W);
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

  return {
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
      intercept((url) => (url.endsWith('/verify-by-face') ? 'hold' : undefined));
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
      intercept((url) => (url.endsWith('/verify-by-face') ? { status: 422, contentType: 'application/json', body } : undefined));
      await click('submit');
      await untilStep('failure');
    },
    'failure-denied': (lang) => cameraFails(lang, 'NotAllowedError'),
    'failure-no-camera': (lang) => cameraFails(lang, 'NotFoundError'),
    'failure-busy': (lang) => cameraFails(lang, 'NotReadableError'),
  };
});
