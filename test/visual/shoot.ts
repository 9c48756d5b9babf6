// What the screenshot scripts share: the demo in Chromium, request interception (to hold an answer
// while a step is shown, or to give one that rarely comes), and a screenshot of the widget at every
// step, in English and Arabic, light and dark, to test/screenshots/<widget>/ (not committed).
// SCREENSHOT_LANGS (a list, or "all") and SCREENSHOT_SCHEMES choose other languages and schemes.
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { HTTPRequest, Page, ResponseForRequest } from 'puppeteer-core';
import { press, startDemo, untilStep, type Demo } from '../node/e2e/demo-browser.js';

export type Rule = (url: string) => 'hold' | Partial<ResponseForRequest> | undefined;

export interface Shoot {
  demo: Demo;
  page: Page;
  /** How requests are answered from now on, until the next `reset`. */
  intercept(rule: Rule): void;
  /** Drops held requests (a pending one would stall the next navigation), the rule and the session. */
  reset(): Promise<void>;
  /** Clicks a part of the widget. */
  press(part: string): Promise<void>;
  /** Waits for the widget's step. */
  untilStep(step: string, timeout?: number): Promise<void>;
}

type Mode = 'verify' | 'enroll';

/** The ten languages the package ships, in the languages page's order. */
export const LANGUAGES = ['en', 'ar', 'ur', 'fa', 'hi', 'bn', 'fil', 'id', 'fr', 'tr'];
const listed = (value: string | undefined, all: string[], fallback: string[]) => (value === 'all' ? all : value?.split(',') ?? fallback);

/**
 * The steps <face-verify> and <voice-verify> reach the same way: `fresh` puts a new widget in the
 * demo's slot, `toReview` brings one to its review; `failures` names getUserMedia errors to show.
 */
export function biometricSteps(
  { demo, page, intercept, press, untilStep }: Shoot,
  kind: 'face' | 'voice',
  drive: { fresh(lang: string, mode: Mode): Promise<void>; toReview(lang: string, mode?: Mode): Promise<void> },
  failures: Record<string, string>,
): Record<string, (lang: string) => Promise<void>> {
  const route = `/verify-by-${kind}`;
  const send = (step: string, mode: Mode = 'verify') => async (lang: string) => {
    await drive.toReview(lang, mode);
    await press('submit');
    await untilStep(step);
  };
  const deviceFails = (name: string) => async (lang: string) => {
    await drive.fresh(lang, 'verify');
    await page.evaluate((n) => {
      navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException('stubbed', n));
    }, name);
    await press('submit');
    await untilStep('failure');
  };
  const noMatch = JSON.stringify({ error: { code: 'no_match', message: `The ${kind} did not match.`, attemptsLeft: 2 } });
  // Registering comes first: until the demo's user has registered, a verifying widget says so.
  return {
    'priming-enroll': (lang) => drive.fresh(lang, 'enroll'),
    'success-enrolled': send('success', 'enroll'),
    priming: (lang) => drive.fresh(lang, 'verify'),
    permission: async (lang) => {
      await drive.fresh(lang, 'verify');
      await page.evaluate(() => (navigator.mediaDevices.getUserMedia = () => new Promise(() => {})));
      await press('submit');
      await untilStep('permission');
    },
    uploading: async (lang) => {
      await drive.toReview(lang);
      intercept((url) => (url.endsWith(route) ? 'hold' : undefined));
      await press('submit');
      await untilStep('uploading');
    },
    'success-verified': send('success'),
    'failure-no-match': async (lang) => {
      intercept((url) => (url.endsWith(route) ? { status: 422, contentType: 'application/json', body: noMatch } : undefined));
      await send('failure')(lang);
    },
    // The service fails (a 503 from the emulator): the sample is kept, to send again or replace.
    'failure-kept': async (lang) => {
      await drive.toReview(lang);
      await fetch(`${demo.url}__emulator/faults`, { method: 'POST', body: JSON.stringify({ kind: 'error', route: `verify-by-${kind}`, status: 503, times: 1 }) });
      await press('submit');
      await untilStep('failure');
    },
    ...Object.fromEntries(Object.entries(failures).map(([step, name]) => [step, deviceFails(name)])),
  };
}

export async function shootSteps(
  widget: string,
  chromiumArgs: string[],
  env: Record<string, string>,
  steps: (shoot: Shoot) => Record<string, (lang: string) => Promise<void>>,
): Promise<void> {
  // SCREENSHOT_WIDTH=320 shoots a phone's width into a folder of its own.
  const width = Number(process.env.SCREENSHOT_WIDTH ?? 560);
  const out = fileURLToPath(new URL(`../screenshots/${widget}${width === 560 ? '' : `-${width}`}/`, import.meta.url));
  await mkdir(out, { recursive: true });
  const demo = await startDemo(env, chromiumArgs);
  const { page } = demo;
  await page.setViewport({ width, height: 900, deviceScaleFactor: 1 });
  await page.setRequestInterception(true);
  let rule: Rule = () => undefined;
  const held: HTTPRequest[] = [];
  page.on('request', (request: HTTPRequest) => {
    const action = rule(request.url());
    if (action === 'hold') return void held.push(request);
    if (action) return request.respond(action);
    request.continue();
  });
  const shoot: Shoot = {
    demo,
    page,
    intercept: (next) => void (rule = next),
    reset: async () => {
      rule = () => undefined;
      // A new demo session for each step, so the handler's per-session send cap does not stop a run of ten languages.
      await page.deleteCookie(...(await page.cookies()));
      for (const request of held.splice(0)) await request.abort().catch(() => {});
    },
    press: (part) => press(page, widget, part),
    untilStep: (step, timeout) => untilStep(page, widget, step, timeout),
  };
  // Once: the drivers keep state across screenshots (the OTP script numbers its phones).
  const drivers = Object.entries(steps(shoot));
  try {
    for (const scheme of listed(process.env.SCREENSHOT_SCHEMES, ['light', 'dark'], ['light', 'dark'])) {
      await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
      for (const lang of listed(process.env.SCREENSHOT_LANGS, LANGUAGES, ['en', 'ar'])) {
        for (const [step, drive] of drivers) {
          await shoot.reset();
          await drive(lang).catch(async (error: unknown) => {
            await page.screenshot({ path: `${out}${lang}-${scheme}-${step}-FAILED.png` });
            throw error;
          });
          await new Promise((done) => setTimeout(done, 300));
          const file = `${out}${lang}-${scheme}-${step}.png` as `${string}.png`;
          await (await page.$(widget))!.screenshot({ path: file });
          console.log(file);
        }
      }
    }
  } finally {
    await demo.close();
  }
}
