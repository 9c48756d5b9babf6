// Saves a screenshot of every <face-verify> step (see shoot.ts). Chromium's camera is fed by the
// obama_1 fixture; what the gate sees is set by a stand-in detector, so each of its messages can be
// shown; steps that wait on an answer hold it, and camera failures stub getUserMedia.
// Usage: npm run screenshots
import { cameraFrom, passCodeInDemo, signIn } from '../node/e2e/demo-browser.js';
import { biometricSteps, shootSteps } from './shoot.js';

// The photo path's steps (review among them): the demo without its live check.
await shootSteps('face-verify', cameraFrom('obama_1'), { LIVENESS: '0' }, (shoot) => {
  const { demo, page, press: click, untilStep } = shoot;
  const W = 'face-verify';
  const settle = (ms = 300) => new Promise((done) => setTimeout(done, ms));

  /** The faces a stand-in detector reports, in the 0-1 frame coordinates of the measured copy. */
  type Faces = [number, number, number, number][];

  async function fresh(lang: string, mode: 'verify' | 'enroll', faces: Faces = [[0.3, 0.2, 0.4, 0.55]]) {
    await page.goto(demo.url, { waitUntil: 'load' });
    await signIn(page, 'omar');
    if (mode === 'enroll') await passCodeInDemo(page);
    // A string, not a function: tsx would add helpers the page does not have.
    await page.evaluate(`{
      const slot = document.querySelector('${W}').parentElement;
      // Only a lang, as most pages have: the widget turns right to left in Arabic, Urdu and Persian.
      slot.lang = '${lang}';
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
  return {
    ...biometricSteps(shoot, 'face', { fresh, toReview }, { 'failure-denied': 'NotAllowedError', 'failure-no-camera': 'NotFoundError', 'failure-busy': 'NotReadableError' }),
    'preview-good': (lang) => toPreview(lang),
    'preview-no-face': (lang) => toPreview(lang, []),
    'preview-two-faces': (lang) => toPreview(lang, [[0.05, 0.2, 0.3, 0.4], [0.6, 0.2, 0.3, 0.4]]),
    'preview-off-centre': (lang) => toPreview(lang, [[0.0, 0.0, 0.3, 0.45]]),
    review: (lang) => toReview(lang),
  };
});
