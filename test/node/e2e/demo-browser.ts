/** The demo (`node demo/server.mjs`, built first) in a headless Chromium, for end-to-end tests. */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

const root = fileURLToPath(new URL('../../../', import.meta.url));

export interface Demo {
  url: string;
  page: Page;
  close(): Promise<void>;
}

export async function startDemo(env: Record<string, string> = {}, chromiumArgs: string[] = []): Promise<Demo> {
  const server: ChildProcess = spawn(process.execPath, ['demo/server.mjs'], {
    cwd: root,
    env: { ...process.env, PORT: '0', EMULATOR_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  server.stdout!.on('data', (chunk) => (output += chunk));
  while (!/demo: (\S+)/.test(output)) await once(server.stdout!, 'data');
  const url = /demo: (\S+)/.exec(output)![1]!;
  const visitor = await openBrowser(url, chromiumArgs);
  return {
    url,
    page: visitor.page,
    close: async () => {
      await visitor.close();
      server.kill();
    },
  };
}

/** Another browser on a running demo: with its own camera and microphone files, for instance. */
export async function openBrowser(url: string, chromiumArgs: string[] = []): Promise<{ page: Page; close(): Promise<void> }> {
  const browser: Browser = await puppeteer.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--no-first-run', ...chromiumArgs],
  });
  const page = await browser.newPage();
  page.on('pageerror', (error) => console.error('page error:', error));
  // Every Content-Security-Policy violation is kept in window.cspViolations, for the tests to read.
  await page.evaluateOnNewDocument(() => {
    const seen: string[] = [];
    Object.assign(window, { cspViolations: seen });
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  await page.goto(url, { waitUntil: 'load' });
  return { page, close: () => browser.close() };
}

/** Chromium's fake camera fed from a fixture video. */
export function cameraFrom(video: string): string[] {
  return ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${resolve(root, '../shared/fixtures/video', `${video}.mjpeg`)}`];
}

/** Chromium's fake microphone fed from a fixture recording (looping, as a person who keeps talking). */
export function microphoneFrom(audio: string): string[] {
  return ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-audio-capture=${resolve(root, '../shared/fixtures/audio', `${audio}.wav`)}`];
}

/**
 * The code the emulator "sent" to this phone or email, read from the outbox as a person reads their
 * phone: waiting up to `waitMs` for it to arrive.
 */
export async function codeFromOutbox(demo: Pick<Demo, 'url'>, to: string, waitMs = 0): Promise<string> {
  const end = Date.now() + waitMs;
  for (;;) {
    const response = await fetch(`${demo.url}__emulator/messages?to=${encodeURIComponent(to)}`);
    const { messages } = (await response.json()) as { messages: { code: string }[] };
    if (messages[0]) return messages[0].code;
    if (Date.now() > end) throw new Error(`no message to ${to}`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

/** Clicks a part (`submit`, `record`, …) in a widget's shadow root. */
export async function press(page: Page, tag: string, part: string): Promise<void> {
  await page.evaluate((t, p) => document.querySelector<any>(t).shadowRoot.querySelector(`[part~="${p}"]`).click(), tag, part);
}

/** Focuses the widget's code field, once there: the code step comes in its own chunk, its field a moment after the step (a reload). */
export async function focusCode(page: Page, tag: string): Promise<void> {
  await page.waitForFunction((t) => document.querySelector<any>(t)?.querySelector('input[slot="code"]'), { timeout: 15_000 }, tag);
  await page.evaluate((t) => document.querySelector<any>(t).querySelector('input[slot="code"]').focus(), tag);
}

/** What a test that waited in vain says it saw: the widget's step, mode, config and words, and who is signed in. */
const shown = (page: Page, tag: string) =>
  page.evaluate((t) => {
    const element = document.querySelector<any>(t);
    const config = element?.config === undefined ? 'no config' : 'config in hand';
    return `step ${element?.step}, mode ${element?.mode}, ${config}, user ${document.body.dataset.user}: ${element?.shadowRoot?.textContent?.replace(/\s+/g, ' ').trim().slice(0, 300)}`;
  }, tag);

/** Waits until the widget reaches `step`; else says where it stayed and what it showed. */
export async function untilStep(page: Page, tag: string, step: string, timeout = 15_000): Promise<void> {
  try {
    await page.waitForFunction((t, s) => document.querySelector<any>(t)?.step === s, { timeout }, tag, step);
  } catch (error) {
    throw new Error(`<${tag}> did not reach ${step} within ${timeout} ms; ${await shown(page, tag)}`, { cause: error });
  }
}

/** Picks the demo's user, and waits until the demo has started its face and voice widgets again for them. */
export async function signIn(page: Page, user: string): Promise<void> {
  await page.select('#user', user);
  await page.waitForFunction((u) => document.body.dataset.user === u, {}, user);
}

let proofs = 0;

/**
 * What registering a face or voice needs first: a code verified by the signed-in person, here in the
 * demo's <otp-verify> by email (a new address each time, so no cooldown stands in the way).
 */
export async function passCodeInDemo(page: Page): Promise<void> {
  const email = `proof${Date.now()}${proofs++}@example.com`;
  const shadow = (selector: string) => page.evaluateHandle((s) => document.querySelector<any>('otp-verify').shadowRoot.querySelector(s), selector);
  await page.waitForFunction(() => document.querySelector<any>('otp-verify')?.shadowRoot?.querySelector('input[value="email"]'));
  await page.evaluate(() => document.querySelector<any>('otp-verify').shadowRoot.querySelector('input[value="email"]').click());
  await page.waitForFunction(() => document.querySelector<any>('otp-verify').shadowRoot.querySelector('#email'));
  await ((await shadow('#email')) as any).type(email);
  await page.keyboard.press('Enter');
  await untilStep(page, 'otp-verify', 'code');
  const code = await codeFromOutbox({ url: new URL('/', page.url()).href }, email);
  await focusCode(page, 'otp-verify');
  await page.keyboard.type(code);
  await untilStep(page, 'otp-verify', 'success');
}

/**
 * Signs in (proving a code first to enrol) and picks the mode; then waits, as a person looks before
 * pressing, until the widget stands at its first step with the handler's config in hand. Waiting
 * for a button alone raced: a widget that was waiting for the proof shows "Check again" until the
 * config it asks for again, once the code is verified, sends it back to the start.
 */
export async function openInDemo(page: Page, kind: 'face' | 'voice', mode: 'enroll' | 'verify', user: string | null = 'omar'): Promise<void> {
  const tag = `${kind}-verify`;
  if (user) await signIn(page, user);
  if (user && mode === 'enroll') await passCodeInDemo(page);
  // Through the DOM, not at a point: the widgets above the radios grow as their configs arrive after
  // a sign-in, and a click aimed before that once landed beside the voice's "Verify it's me".
  await page.$eval(`#${kind}-mode input[value="${mode}"]`, (input) => (input as HTMLInputElement).click());
  try {
    await page.waitForFunction((t, m) => {
      const element = document.querySelector<any>(t);
      return element?.mode === m && element.step === 'priming' && element.config !== undefined;
    }, {}, tag, mode);
  } catch (error) {
    throw new Error(`<${tag}> did not stand ready to ${mode}; ${await shown(page, tag)}`, { cause: error });
  }
}

/** In the demo: signs in as `user` (when given), passes a code when registering, picks the face or voice mode, and presses the widget's start button. */

export async function startInDemo(page: Page, kind: 'face' | 'voice', mode: 'enroll' | 'verify', user: string | null = 'omar'): Promise<void> {
  await openInDemo(page, kind, mode, user);
  await press(page, `${kind}-verify`, 'submit');
}

/** What a widget ends with after its submit button is pressed: `success:<receipt>`, `enrolled` or `failure:<code>`. */
export async function submitAndAwaitOutcome(page: Page, widget: string): Promise<string> {
  const outcome = awaitOutcome(page, widget);
  await press(page, widget, 'submit');
  return outcome;
}

/** What a widget ends with from now: `success:<receipt>`, `enrolled`, `failure:<code>` or `error:<code> (<status>)`. */
export function awaitOutcome(page: Page, widget: string): Promise<string> {
  // An error, or no outcome within a minute, is an answer too: the test then says what the widget showed, instead of hanging.
  return page.evaluate(
    (w) =>
      new Promise<string>((resolve) => {
        const element = document.querySelector<any>(w);
        element.addEventListener('verify-success', (e: CustomEvent) => resolve(`success:${e.detail.receipt}`), { once: true });
        element.addEventListener('verify-enrolled', () => resolve('enrolled'), { once: true });
        element.addEventListener('verify-failure', (e: CustomEvent) => resolve(`failure:${e.detail.code}${e.detail.reason ? `:${e.detail.reason}` : ''}`), { once: true });
        element.addEventListener('verify-error', (e: CustomEvent) => resolve(`error:${e.detail.code} (${e.detail.status})`), { once: true });
        setTimeout(() => resolve(`no outcome within 60 s: step ${element.step}: ${element.shadowRoot.textContent.replace(/\s+/g, ' ').trim().slice(0, 300)}`), 60_000);
      }),
    widget,
  );
}

/** The page's Content-Security-Policy violations so far (the demo sends a strict policy). */
export function cspViolations(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
}

/** Checks a receipt as the host's server does, through the demo's receipt route. */
export async function hostChecksReceipt(demo: Demo, receipt: string, method = 'otp'): Promise<{ accepted: boolean; claims?: { sub: string; mth: string }; reason?: string }> {
  return demo.page.evaluate(async (token, m) => (await fetch('/demo/receipt', { method: 'POST', body: JSON.stringify({ receipt: token, method: m }) })).json(), receipt, method);
}
