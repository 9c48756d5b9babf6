/**
 * Continue on your phone, end to end through the demo in Chromium: a computer with no camera and no
 * microphone, and a phone (mobile emulation) whose camera the test draws (a head with real depth
 * making each movement asked) and whose microphone plays a fixture. The computer offers the phone,
 * shows the QR code and link; the phone opens the link without the computer's cookies, registers
 * and verifies the face with its live challenge and the voice; the computer gets the receipt, which
 * the host accepts once. A second phone opening the same link is refused.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import puppeteer, { KnownDevices, type Browser, type Page } from 'puppeteer-core';
import type { LivenessMove } from '../../../src/core/protocol.js';
import { createFacePool } from '../../../src/server/node/index.js';
import { render, type Rgba } from '../liveness/head.js';
import { GENUINE, landmarksOf, MOVES, photo } from '../liveness/presentations.js';
import { canvasCamera, follow } from './canvas-camera.js';
import { awaitOutcome, cspViolations, hostChecksReceipt, microphoneFrom, openInDemo, press, startDemo, untilStep, type Demo } from './demo-browser.js';

/** The phone: another browser, a Pixel's screen and touch, its own cookies (none of the computer's). */
async function openPhone(): Promise<{ browser: Browser; page: Page }> {
  const browser = await puppeteer.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', ...microphoneFrom('spk1688_M_1_48k')],
  });
  const page = await browser.newPage();
  await page.emulate(KnownDevices['Pixel 5']);
  page.on('pageerror', (error) => console.error('phone page error:', error));
  await page.evaluateOnNewDocument(() => {
    const seen: string[] = [];
    Object.assign(window, { cspViolations: seen });
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  return { browser, page };
}

const shadowText = (page: Page, tag: string) => page.evaluate((t) => document.querySelector<any>(t).shadowRoot.textContent.replace(/\s+/g, ' ').trim(), tag);

/** The computer's demo page afresh (its code widget back at the start, for the proof registering needs), signed in as omar in `mode`. */
async function openFresh(desktop: Page, kind: 'face' | 'voice', mode: 'enroll' | 'verify'): Promise<void> {
  // Navigated to, not reloaded: a reload would restore the mode buttons' last state.
  await desktop.goto(new URL('/', desktop.url()).href, { waitUntil: 'load' });
  await openInDemo(desktop, kind, mode);
}

/** On the computer: the capture fails for want of a device, the phone is offered and chosen; the link and code shown. */
async function handOff(desktop: Page, tag: string): Promise<{ link: string; code: string }> {
  await press(desktop, tag, 'submit');
  await untilStep(desktop, tag, 'failure');
  await desktop.waitForFunction((t) => document.querySelector<any>(t).shadowRoot.querySelector('[part~="phone"]'), { timeout: 5000 }, tag);
  await press(desktop, tag, 'phone');
  await untilStep(desktop, tag, 'handoff');
  await desktop.waitForFunction((t) => document.querySelector<any>(t).shadowRoot.querySelector('[part~="link"]')?.value, { timeout: 10_000 }, tag);
  return desktop.evaluate((t) => {
    const root = document.querySelector<any>(t).shadowRoot;
    return { link: root.querySelector('[part~="link"]').value, code: root.querySelector('[part~="code"]').textContent.replace(/\s/g, '') };
  }, tag);
}

/** The phone opens a link as a scanned QR code does: a page loaded afresh. */
async function openLink(page: Page, link: string, tag: string): Promise<void> {
  await page.goto('about:blank');
  await page.goto(link, { waitUntil: 'load' });
  await page.waitForFunction((t) => document.querySelector<any>(t)?.shadowRoot?.querySelector('[part~="code"]'), { timeout: 10_000 }, tag);
}

/** Waits for the computer's progress line (it asks every 2 s) to say `text`. */
const untilProgress = (desktop: Page, tag: string, text: string) =>
  desktop.waitForFunction((t, x) => document.querySelector<any>(t).shadowRoot.querySelector('[part~="feedback"]')?.textContent.includes(x), { timeout: 10_000 }, tag, text);

describe('continue on your phone, end to end (a computer without camera or microphone, a phone)', () => {
  let demo: Demo;
  let phone: { browser: Browser; page: Page };
  let poses: Record<'front' | LivenessMove, Rgba>;
  let camera: Awaited<ReturnType<typeof canvasCamera>>;
  before(async () => {
    const pool = createFacePool({ workers: 1 });
    try {
      const source = photo('obama_1');
      const landmarks = await landmarksOf(pool, source);
      const pose = (move: LivenessMove | null) => render(source, landmarks, 'head', move ? GENUINE[move] : {});
      poses = { front: pose(null), ...Object.fromEntries(MOVES.map((move) => [move, pose(move)])) } as Record<'front' | LivenessMove, Rgba>;
    } finally {
      await pool.close();
    }
    // No fake devices: this computer has no camera and no microphone.
    demo = await startDemo({ LIVENESS_LIGHT: '0', VOICE_LIVENESS: '0' });
    phone = await openPhone();
    camera = await canvasCamera(phone.page);
  });
  after(async () => {
    await phone?.browser.close();
    await demo?.close();
  });

  /** The phone opens the link and checks the code; the face registered or verified live, the computer's outcome returned. */
  async function faceOnPhone(mode: 'enroll' | 'verify'): Promise<string> {
    await openFresh(demo.page, 'face', mode);
    const { link, code } = await handOff(demo.page, 'face-verify');
    assert.match(link, /#verify-handoff=face\.[\w-]{22}$/);
    assert.doesNotMatch(link, /omar/);
    const outcome = awaitOutcome(demo.page, 'face-verify');
    await openLink(phone.page, link, 'face-verify');
    assert.match(await shadowText(phone.page, 'face-verify'), new RegExp(`${code.slice(0, 3)} ${code.slice(3)}`));
    await untilProgress(demo.page, 'face-verify', 'Phone connected');
    await camera.show(poses.front);
    await press(phone.page, 'face-verify', 'submit');
    await untilStep(phone.page, 'face-verify', 'preview');
    await phone.page.waitForFunction(() => document.querySelector<any>('face-verify').shadowRoot.querySelector('video')?.videoWidth > 0);
    const phoneDone = phone.page.waitForFunction(() => document.querySelector<any>('face-verify').step === 'success' || document.querySelector<any>('face-verify').step === 'failure', { timeout: 60_000 });
    await phone.page.evaluate(() => {
      const element = document.querySelector<any>('face-verify');
      if (element.step === 'preview') element.shadowRoot.querySelector('[part~="shutter"]').click();
    });
    const asked = await follow(phone.page, camera, poses, phoneDone);
    assert.equal(asked.length, 2, `two movements asked: ${asked}`);
    assert.match(await shadowText(phone.page, 'face-verify'), /Done\. Go back to your computer\./);
    assert.deepEqual((await cspViolations(phone.page)).filter((v) => v !== 'script-src wasm-eval'), []);
    return outcome;
  }

  it('registers the face on the phone with its live challenge, then verifies it there: the computer gets the receipt, accepted once', async () => {
    assert.equal(await faceOnPhone('enroll'), 'enrolled');
    const outcome = await faceOnPhone('verify');
    assert.match(outcome, /^success:/);
    const receipt = outcome.slice('success:'.length);
    const checked = await hostChecksReceipt(demo, receipt, 'face');
    assert.deepEqual([checked.accepted, checked.claims?.sub, checked.claims?.mth], [true, 'omar', 'face']);
    assert.deepEqual(await hostChecksReceipt(demo, receipt, 'face'), { accepted: false, reason: 'replayed' });
    assert.equal(await demo.page.evaluate(() => document.querySelector<any>('face-verify').value), receipt);
    assert.deepEqual(await cspViolations(demo.page), []);
  });

  it('a voice verified on the phone; the same link opened again, or by a second phone, is refused with a clear screen', async () => {
    for (const mode of ['enroll', 'verify'] as const) {
      await openFresh(demo.page, 'voice', mode);
      const { link } = await handOff(demo.page, 'voice-verify');
      const outcome = awaitOutcome(demo.page, 'voice-verify');
      await openLink(phone.page, link, 'voice-verify');
      await press(phone.page, 'voice-verify', 'submit');
      await untilStep(phone.page, 'voice-verify', 'ready');
      await untilProgress(demo.page, 'voice-verify', 'capturing');
      await press(phone.page, 'voice-verify', 'record');
      await phone.page.waitForFunction(() => /0:03|3 seconds/.test(document.querySelector<any>('voice-verify').shadowRoot.querySelector('[part~="countdown"]')?.textContent ?? ''), { timeout: 15_000 });
      await press(phone.page, 'voice-verify', 'stop');
      await untilStep(phone.page, 'voice-verify', 'review');
      await press(phone.page, 'voice-verify', 'submit');
      await untilStep(phone.page, 'voice-verify', 'success');
      const result = await outcome;
      if (mode === 'enroll') assert.equal(result, 'enrolled');
      else {
        assert.match(result, /^success:/);
        const checked = await hostChecksReceipt(demo, result.slice('success:'.length), 'voice');
        assert.deepEqual([checked.accepted, checked.claims?.sub, checked.claims?.mth], [true, 'omar', 'voice']);
      }
      // The link is spent: a second phone opening it is told so, and can do nothing.
      const second = await openPhone();
      try {
        await second.page.goto(link, { waitUntil: 'load' });
        await untilStep(second.page, 'voice-verify', 'failure');
        assert.match(await shadowText(second.page, 'voice-verify'), /This link has ended/);
      } finally {
        await second.browser.close();
      }
    }
  });

  it('cancel on the computer ends the phone; the computer can make a new link', async () => {
    await openFresh(demo.page, 'voice', 'verify');
    const { link } = await handOff(demo.page, 'voice-verify');
    await openLink(phone.page, link, 'voice-verify');
    await demo.page.evaluate(() => [...document.querySelector<any>('voice-verify').shadowRoot.querySelectorAll('button')].find((b: HTMLButtonElement) => b.textContent === 'Cancel').click());
    await untilStep(demo.page, 'voice-verify', 'priming');
    await untilStep(phone.page, 'voice-verify', 'failure', 10_000);
    assert.match(await shadowText(phone.page, 'voice-verify'), /This link has ended/);
    const again = await handOff(demo.page, 'voice-verify');
    assert.notEqual(again.link, link);
  });
});
