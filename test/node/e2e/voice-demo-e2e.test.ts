import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import { cspViolations, hostChecksReceipt, microphoneFrom, openBrowser, press, startDemo, startInDemo, submitAndAwaitOutcome, untilStep, type Demo } from './demo-browser.js';

const widget = 'voice-verify';

/**
 * Signs in as the demo user, picks the mode, reads the prompt for five seconds (the fixture plays
 * into the microphone) and presses stop. Returns what the gate said, or the outcome of the upload.
 */
async function speakAndSend(page: Page, mode: 'enroll' | 'verify', user = 'omar'): Promise<string> {
  await startInDemo(page, 'voice', mode, user);
  await untilStep(page, widget, 'ready');
  await press(page, widget, 'record');
  await page.waitForFunction((w) => document.querySelector<any>(w).step === 'recording' && /0:03|3 seconds/.test(document.querySelector<any>(w).shadowRoot.querySelector('[part~="countdown"]').textContent), { timeout: 15_000 }, widget);
  await press(page, widget, 'stop');
  await untilStep(page, widget, 'review');
  const refused = await page.evaluate((w) => document.querySelector<any>(w).shadowRoot.querySelector('[part~="error"]')?.textContent ?? '', widget);
  if (refused) return `refused:${refused}`;
  return submitAndAwaitOutcome(page, widget);
}

/** Another visitor on the running demo, whose microphone plays `audio`. */
async function withMicrophone<T>(demo: Demo, audio: string, use: (page: Page) => Promise<T>): Promise<T> {
  const other = await openBrowser(demo.url, microphoneFrom(audio));
  try {
    const result = await use(other.page);
    assert.deepEqual(await cspViolations(other.page), []);
    return result;
  } finally {
    await other.close();
  }
}

describe('<voice-verify> end to end through the demo, microphones fed by the fixtures', () => {
  let demo: Demo;
  // The speakers' recordings say what they say, not digits the handler chooses: that check is voice-digits-e2e's.
  before(async () => (demo = await startDemo({ VOICE_LIVENESS: '0' }, microphoneFrom('spk1688_M_1_48k'))));
  after(() => demo.close());
  // The demo sends a strict CSP (default-src 'self'; script-src 'self'; style-src 'self').
  afterEach(async () => assert.deepEqual(await cspViolations(demo.page), []));

  it('enrol with spk1688_M_1, then verify with spk1688_M_1: a match, and a receipt the host accepts', async () => {
    assert.equal(await speakAndSend(demo.page, 'enroll'), 'enrolled');
    const outcome = await speakAndSend(demo.page, 'verify');
    assert.match(outcome, /^success:/);
    const checked = await hostChecksReceipt(demo, outcome.slice('success:'.length), 'voice');
    assert.deepEqual([checked.accepted, checked.claims?.sub, checked.claims?.mth], [true, 'omar', 'voice']);
  });

  it('then verify with another speaker (spk1998_F_1): no match', async () => {
    assert.equal(await withMicrophone(demo, 'spk1998_F_1_48k', (page) => speakAndSend(page, 'verify')), 'failure:no_match');
  });

  it('enrol spk2033_M_1 as another user, then verify reading other words (spk2033_M_2): a match', async () => {
    assert.equal(await withMicrophone(demo, 'spk2033_M_1_48k', (page) => speakAndSend(page, 'enroll', 'sara')), 'enrolled');
    const checked = await withMicrophone(demo, 'spk2033_M_2_48k', async (page) => {
      const outcome = await speakAndSend(page, 'verify', 'sara');
      assert.match(outcome, /^success:/);
      // The host checks the receipt against the session it was issued to: sara's, on this page.
      return hostChecksReceipt({ ...demo, page }, outcome.slice('success:'.length), 'voice');
    });
    assert.deepEqual([checked.accepted, checked.claims?.sub], [true, 'sara']);
  });

  it('silence_48k: the gate refuses it as no speech, before any upload', async () => {
    assert.match(await withMicrophone(demo, 'silence_48k', (page) => speakAndSend(page, 'verify')), /^refused:No speech heard/);
  });

  it('noise_ambient_48k: the gate refuses it, saying why', async () => {
    assert.match(await withMicrophone(demo, 'noise_ambient_48k', (page) => speakAndSend(page, 'verify')), /^refused:No speech heard/);
  });
});
