/**
 * <voice-verify> with the host hearing the digits (the demo's voiceLiveness, on by default), end to
 * end: the digits shown are the handler's, a voice (Flite's, test/node/voice/spoken.ts) reads them
 * into the page's microphone as they appear, and the person registers and verifies; the host
 * accepts the receipt. A recording of the digits of an earlier challenge is refused, with its words.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import { sayDigits } from '../voice/spoken.js';
import { cspViolations, hostChecksReceipt, press, startDemo, startInDemo, submitAndAwaitOutcome, untilStep, type Demo } from './demo-browser.js';
import { speakingMicrophone, type SpeakingMicrophone } from './speaking-microphone.js';

const widget = 'voice-verify';

/** The digits the widget shows to read, as written. */
const shownDigits = (page: Page) => page.evaluate((w) => document.querySelector<any>(w).shadowRoot.querySelector('[part~="prompt"]')?.textContent.replace(/\s/g, '') ?? '', widget) as Promise<string>;

describe('<voice-verify> reading the handler\'s digits, end to end through the demo', () => {
  let demo: Demo;
  let microphone: SpeakingMicrophone;
  /** The digits of each challenge shown, in order. */
  const shown: string[] = [];

  /** Opens the widget, waits for the handler's digits, records `say(digits)` and sends it; the outcome. */
  async function read(mode: 'enroll' | 'verify', say: (digits: string) => string): Promise<string> {
    await startInDemo(demo.page, 'voice', mode);
    await untilStep(demo.page, widget, 'ready');
    await demo.page.waitForFunction((w) => /^\d{8}$/.test(document.querySelector<any>(w).shadowRoot.querySelector('[part~="prompt"]')?.textContent.replace(/\s/g, '') ?? ''), { timeout: 10_000 }, widget);
    const digits = await shownDigits(demo.page);
    shown.push(digits);
    await press(demo.page, widget, 'record');
    await untilStep(demo.page, widget, 'recording');
    // Said once the widget says it listens, as a person reads: the recording step shows at the
    // press, before its audio worklet has loaded, and says "Listening…" only once the microphone's
    // first frames arrive (on a busy machine, CI20, digits said before then were lost).
    await demo.page.waitForFunction((w) => document.querySelector<any>(w).shadowRoot.querySelector('[part~="feedback"]')?.textContent === 'Listening…', { timeout: 10_000 }, widget);
    // At a person's pace: Flite reads eight digits in about 2.6 s, only 2.1 to 2.6 s of it speech
    // against the widget's least of 2 s, so that a moment of sound the busy machine's audio thread
    // dropped made it "Too short" (CI on e063d0f). Slowed by 1.3: 2.7 to 3.4 s of speech.
    await microphone.say(await sayDigits(say(digits), 'slt', 1.3));
    // A person's pause before pressing stop: the widget keeps every frame its worklet made before
    // the press, but sound still on its way through the audio graph is not yet a frame (pressed at
    // once, CI40 heard "Too short", before the widget waited for the worklet's frames at all).
    await new Promise((resolve) => setTimeout(resolve, 500));
    await press(demo.page, widget, 'stop');
    await untilStep(demo.page, widget, 'review');
    return submitAndAwaitOutcome(demo.page, widget);
  }

  before(async () => {
    demo = await startDemo();
    microphone = await speakingMicrophone(demo.page);
  });
  after(() => demo?.close());

  it('the digits shown are the handler\'s, new each time; read aloud, they register and verify, and the host accepts the receipt', async () => {
    assert.equal(await read('enroll', (digits) => digits), 'enrolled');
    const outcome = await read('verify', (digits) => digits);
    assert.match(outcome, /^success:/);
    const checked = await hostChecksReceipt(demo, outcome.slice('success:'.length), 'voice');
    assert.deepEqual([checked.accepted, checked.claims?.mth], [true, 'voice']);
    assert.notEqual(shown[0], shown[1]);
    assert.deepEqual((await cspViolations(demo.page)).filter((v) => v !== 'script-src wasm-eval'), []);
  });

  it('a recording of an earlier challenge\'s digits: refused, saying the digits were not heard, with the tries left', async () => {
    const earlier = shown[0]!;
    assert.equal(await read('verify', () => earlier), 'failure:liveness_failed:digits_not_heard');
    const words = await demo.page.evaluate((w) => document.querySelector<any>(w).shadowRoot.querySelector('[part~="error"]').textContent, widget);
    assert.match(words, /didn’t hear the digits.*tries? left/);
  });
});
