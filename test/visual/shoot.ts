// What the screenshot scripts share: the demo in Chromium, request interception (to hold an answer
// while a step is shown, or to give one that rarely comes), and a screenshot of the widget at every
// step, in English and Arabic, light and dark, to test/screenshots/<widget>/ (not committed).
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { HTTPRequest, Page, ResponseForRequest } from 'puppeteer-core';
import { startDemo, type Demo } from '../node/demo-browser.js';

export type Rule = (url: string) => 'hold' | Partial<ResponseForRequest> | undefined;

export interface Shoot {
  demo: Demo;
  page: Page;
  /** How requests are answered from now on, until the next `reset`. */
  intercept(rule: Rule): void;
  /** Drops held requests (a pending one would stall the next navigation) and the rule. */
  reset(): Promise<void>;
}

export async function shootSteps(
  widget: string,
  chromiumArgs: string[],
  env: Record<string, string>,
  steps: (shoot: Shoot) => Record<string, (lang: string) => Promise<void>>,
): Promise<void> {
  const out = fileURLToPath(new URL(`../screenshots/${widget}/`, import.meta.url));
  await mkdir(out, { recursive: true });
  const demo = await startDemo(env, chromiumArgs);
  const { page } = demo;
  await page.setViewport({ width: 560, height: 900, deviceScaleFactor: 1 });
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
      for (const request of held.splice(0)) await request.abort().catch(() => {});
    },
  };
  try {
    for (const scheme of ['light', 'dark']) {
      await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
      for (const lang of ['en', 'ar']) {
        for (const [step, drive] of Object.entries(steps(shoot))) {
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
