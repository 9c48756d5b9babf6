// Saves a screenshot of every <otp-verify> step, in English and Arabic, light and dark, to
// test/screenshots/otp-verify/ (not committed). Drives the real demo; steps that wait on an answer
// (sending, verifying) or need one that rarely comes (an expired code) hold or fake that answer
// with request interception. Usage: npm run screenshots
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { HTTPRequest, ResponseForRequest } from 'puppeteer-core';
import { codeFromOutbox, startDemo } from '../node/demo-browser.js';

const out = fileURLToPath(new URL('../screenshots/otp-verify/', import.meta.url));
await mkdir(out, { recursive: true });
const demo = await startDemo({ RESEND_COOLDOWN: '30' });
const { page } = demo;
await page.setViewport({ width: 560, height: 900, deviceScaleFactor: 1 });
await page.setRequestInterception(true);
type Rule = (url: string) => 'hold' | Partial<ResponseForRequest> | undefined;
let rule: Rule = () => undefined;
const held: HTTPRequest[] = [];
page.on('request', (request: HTTPRequest) => {
  const action = rule(request.url());
  if (action === 'hold') return void held.push(request); // answered only after the screenshot
  if (action) return request.respond(action);
  request.continue();
});

const W = `document.querySelector('otp-verify')`;
const inShadow = async (selector: string) => (await page.evaluateHandle((w, s) => eval(w).shadowRoot.querySelector(s), W, selector)).asElement()!;
const untilStep = (step: string) => page.waitForFunction((w, s) => eval(w)?.step === s , { timeout: 10_000 }, W, step);
const settle = () => new Promise((done) => setTimeout(done, 250));
let phoneCount = 0;

async function fresh(lang: string) {
  rule = () => undefined;
  // A held request left pending would stall the next navigation.
  for (const request of held.splice(0)) await request.abort().catch(() => {});
  // A new demo session each time, so the handler's per-session send cap does not stop the run.
  await page.deleteCookie(...(await page.cookies()));
  await page.goto(demo.url, { waitUntil: 'load' });
  await page.evaluate((w, l) => {
    const slot = eval(w).parentElement;
    slot.lang = l;
    slot.dir = l === 'ar' ? 'rtl' : 'ltr';
    // A fresh element, so it starts in the new language.
    slot.innerHTML = '<otp-verify endpoint="/api/verify" country="SA"></otp-verify>';
  }, W, lang);
  await page.waitForFunction((w) => eval(w)?.shadowRoot?.querySelector('#phone'), {}, W);
}

async function toCode() {
  const phone = `50${1000000 + ++phoneCount}`;
  await (await inShadow('#phone')).type(phone);
  await page.evaluate((w) => eval(w).shadowRoot.querySelector('form').requestSubmit(), W);
  await untilStep('code');
  return `+966${phone}`;
}

const STEPS: Record<string, () => Promise<void>> = {
  contact: async () => {},
  'contact-error': async () => {
    await page.evaluate((w) => eval(w).shadowRoot.querySelector('form').requestSubmit(), W);
  },
  sending: async () => {
    rule = (url) => (url.endsWith('/send-otp') ? 'hold' : undefined);
    await (await inShadow('#phone')).type('501234567');
    await page.evaluate((w) => eval(w).shadowRoot.querySelector('form').requestSubmit(), W);
    await untilStep('sending');
  },
  code: async () => {
    await toCode();
    await page.keyboard.type('12');
  },
  'code-wrong': async () => {
    const to = await toCode();
    const code = await codeFromOutbox(demo, to);
    await page.keyboard.type(code === '000000' ? '111111' : '000000');
    await page.waitForFunction((w) => eval(w).step === 'code' && eval(w).shadowRoot.querySelector('.error'), {}, W);
  },
  verifying: async () => {
    await toCode();
    rule = (url) => (url.endsWith('/verify-otp') ? 'hold' : undefined);
    await page.keyboard.type('123456');
    await untilStep('verifying');
  },
  success: async () => {
    const to = await toCode();
    await page.keyboard.type(await codeFromOutbox(demo, to));
    await untilStep('success');
  },
  failure: async () => {
    await toCode();
    rule = (url) =>
      url.endsWith('/verify-otp')
        ? { status: 422, contentType: 'application/json', body: JSON.stringify({ error: { code: 'code_expired', message: 'expired' } }) }
        : undefined;
    await page.keyboard.type('123456');
    await untilStep('failure');
  },
};

try {
  for (const scheme of ['light', 'dark']) {
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
    for (const lang of ['en', 'ar']) {
      for (const [step, drive] of Object.entries(STEPS)) {
        await fresh(lang);
        await drive();
        await settle();
        const file = `${out}${lang}-${scheme}-${step}.png`;
        await (await page.$('otp-verify'))!.screenshot({ path: file as `${string}.png` });
        console.log(file);
      }
    }
  }
} finally {
  await demo.close();
}
