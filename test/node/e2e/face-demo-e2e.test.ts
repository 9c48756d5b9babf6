import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import { cameraFrom, cspViolations, hostChecksReceipt, openBrowser, openInDemo, press, startDemo, startInDemo, submitAndAwaitOutcome, untilStep, type Demo } from './demo-browser.js';
import { FIXTURES } from '../helpers.js';

const widget = 'face-verify';

/**
 * The demo's pages use the model face detector, whose library causes one known violation: long.js,
 * inside TensorFlow.js, tries to compile a tiny WebAssembly module, catches the refusal and goes
 * on in JavaScript. A page using that detector may allow it with `script-src 'wasm-unsafe-eval'`.
 */
const violations = async (page: Page) => (await cspViolations(page)).filter((violation) => violation !== 'script-src wasm-eval');

/** Signs in as the demo user, picks the mode, starts the camera, and uses the photo it takes by itself. */
async function takeAndSend(page: Page, mode: 'enroll' | 'verify'): Promise<string> {
  await startInDemo(page, 'face', mode);
  await untilStep(page, widget, 'review');
  return submitAndAwaitOutcome(page, widget);
}

describe('<face-verify> end to end through the demo, cameras fed by the fixtures', () => {
  let demo: Demo;
  // A handler that takes a photo: the demo without its face models (LIVENESS=0).
  before(async () => (demo = await startDemo({ LIVENESS: '0' }, cameraFrom('obama_1'))));
  after(() => demo.close());
  // The demo sends a strict CSP (default-src 'self'; script-src 'self'; style-src 'self').
  afterEach(async () => assert.deepEqual(await violations(demo.page), []));

  it('enrol with obama_1, then verify with obama_1: a match, and a receipt the host accepts', async () => {
    assert.equal(await takeAndSend(demo.page, 'enroll'), 'enrolled');
    const outcome = await takeAndSend(demo.page, 'verify');
    assert.match(outcome, /^success:/);
    const checked = await hostChecksReceipt(demo, outcome.slice('success:'.length), 'face');
    assert.deepEqual([checked.accepted, checked.claims?.sub, checked.claims?.mth], [true, 'omar', 'face']);
  });

  it('then verify with an uploaded photo of the same person taken elsewhere (obama_2.jpg): a match', async () => {
    const other = await openBrowser(demo.url, cameraFrom('noface_coffee'));
    try {
      const { page } = other;
      await openInDemo(page, 'face', 'verify');
      const input = await page.waitForFunction((w) => document.querySelector<any>(w).shadowRoot.querySelector('input[type="file"]'), {}, widget);
      await (input.asElement() as import('puppeteer-core').ElementHandle<HTMLInputElement>).uploadFile(`${FIXTURES}faces/obama_2.jpg`);
      await untilStep(page, widget, 'review');
      const outcome = await submitAndAwaitOutcome(page, widget);
      assert.match(outcome, /^success:/);
      assert.deepEqual((await hostChecksReceipt(demo, outcome.slice('success:'.length), 'face')).accepted, true);
      assert.deepEqual(await violations(page), []);
    } finally {
      await other.close();
    }
  });

  it('then verify with biden_1, from another camera: no match', async () => {
    const other = await openBrowser(demo.url, cameraFrom('biden_1'));
    try {
      assert.equal(await takeAndSend(other.page, 'verify'), 'failure:no_match');
      assert.deepEqual(await violations(other.page), []);
    } finally {
      await other.close();
    }
  });

  it('noface_coffee: the gate says no face was found, and takes no photo', async () => {
    const other = await openBrowser(demo.url, cameraFrom('noface_coffee'));
    try {
      const { page } = other;
      // Signed in as omar, registered by the first test: a guest is now told to sign in first.
      await startInDemo(page, 'face', 'verify', 'omar');
      // The detector loads with the first frame; then its answer holds, frame after frame.
      const said = (w: string) => ({ step: document.querySelector<any>(w).step, said: document.querySelector<any>(w).shadowRoot.querySelector('[part~="feedback"]')?.textContent });
      await page.waitForFunction((w) => document.querySelector<any>(w).shadowRoot.querySelector('[part~="feedback"]')?.textContent.startsWith('No face'), { timeout: 30_000 }, widget);
      // From here, count the frames the detector is given and every step the widget enters (as
      // text: the test's compiler would name the functions with a helper the page does not have).
      await page.evaluate(`{
        const element = document.querySelector(${JSON.stringify(widget)});
        const detector = element.detector;
        const held = (window.held = { frames: 0, steps: [] });
        element.detector = { detect(image) { held.frames++; return detector.detect(image); } };
        element.addEventListener('verify-step-change', (event) => held.steps.push(event.detail.step));
      }`);
      await page.waitForFunction(() => (window as any).held.frames >= 8, { timeout: 30_000 });
      const after = await page.evaluate(said, widget);
      assert.deepEqual({ ...after, steps: await page.evaluate(() => (window as any).held.steps) }, { step: 'preview', said: 'No face found: look at the camera.', steps: [] });
      // The model detector (TensorFlow.js inside) ran under the strict CSP too.
      assert.deepEqual(await violations(page), []);
    } finally {
      await other.close();
    }
  });
});

describe('the demo\'s face and voice widgets offer their other way', () => {
  let demo: Demo;
  before(async () => (demo = await startDemo({ LIVENESS: '0' })));
  after(() => demo.close());

  for (const kind of ['face', 'voice'] as const) {
    it(`<${kind}-verify>: "Verify another way" puts a code widget in its place, focused`, async () => {
      // Signed in or not, registered or not: the way is offered at the widget's first step and after any refusal.
      await demo.page.waitForFunction((k) => document.querySelector<any>(`${k}-verify`)?.shadowRoot?.querySelector('[part~="other-way"]'), {}, kind);
      await press(demo.page, `${kind}-verify`, 'other-way');
      await demo.page.waitForFunction((k) => document.querySelector(`[data-widget="${k}-verify"] otp-verify`), {}, kind);
      assert.equal(await demo.page.evaluate((k) => document.activeElement === document.querySelector(`[data-widget="${k}-verify"] otp-verify`), kind), true);
      assert.deepEqual(await violations(demo.page), []);
    });
  }
});
