// Saves a screenshot of every <otp-verify> step (see shoot.ts). Steps that wait on an answer
// (sending, verifying) or need one that rarely comes (an expired code) hold or fake that answer.
// Usage: npm run screenshots
import { codeFromOutbox } from '../node/e2e/demo-browser.js';
import { shootSteps } from './shoot.js';

await shootSteps('otp-verify', [], { RESEND_COOLDOWN: '30' }, ({ demo, page, intercept, untilStep }) => {
  const W = 'otp-verify';
  const inShadow = async (selector: string) => (await page.evaluateHandle((w, s) => document.querySelector<any>(w).shadowRoot.querySelector(s), W, selector)).asElement()!;
  let phoneCount = 0;

  async function fresh(lang: string) {
    await page.goto(demo.url, { waitUntil: 'load' });
    await page.evaluate((w, l) => {
      const slot = document.querySelector<any>(w).parentElement;
      // Only a lang, as most pages have: the widget turns right to left in Arabic, Urdu and Persian.
      slot.lang = l;
      // A fresh element, so it starts in the new language.
      slot.innerHTML = '<otp-verify endpoint="/api/verify" country="SA"></otp-verify>';
    }, W, lang);
    await page.waitForFunction((w) => document.querySelector<any>(w)?.shadowRoot?.querySelector('#phone'), {}, W);
  }

  async function toCode() {
    const phone = `50${1000000 + ++phoneCount}`;
    await (await inShadow('#phone')).type(phone);
    await page.evaluate((w) => document.querySelector<any>(w).shadowRoot.querySelector('form').requestSubmit(), W);
    await untilStep('code');
    return `+966${phone}`;
  }

  return {
    contact: (lang) => fresh(lang),
    'contact-error': async (lang) => {
      await fresh(lang);
      await page.evaluate((w) => document.querySelector<any>(w).shadowRoot.querySelector('form').requestSubmit(), W);
    },
    sending: async (lang) => {
      await fresh(lang);
      intercept((url) => (url.endsWith('/send-otp') ? 'hold' : undefined));
      await (await inShadow('#phone')).type('501234567');
      await page.evaluate((w) => document.querySelector<any>(w).shadowRoot.querySelector('form').requestSubmit(), W);
      await untilStep('sending');
    },
    code: async (lang) => {
      await fresh(lang);
      await toCode();
      await page.keyboard.type('12');
    },
    'code-maybe-sent': async (lang) => {
      await fresh(lang);
      // A 503 from the service: the code may have gone out, so the widget offers to enter it.
      await fetch(`${demo.url}__emulator/faults`, { method: 'POST', body: JSON.stringify({ kind: 'error', route: 'send-otp', status: 503, times: 1 }) });
      await toCode();
    },
    'code-wrong': async (lang) => {
      await fresh(lang);
      const to = await toCode();
      const code = await codeFromOutbox(demo, to);
      await page.keyboard.type(code === '000000' ? '111111' : '000000');
      await page.waitForFunction((w) => document.querySelector<any>(w).step === 'code' && document.querySelector<any>(w).shadowRoot.querySelector('.error'), {}, W);
    },
    verifying: async (lang) => {
      await fresh(lang);
      await toCode();
      intercept((url) => (url.endsWith('/verify-otp') ? 'hold' : undefined));
      await page.keyboard.type('123456');
      await untilStep('verifying');
    },
    success: async (lang) => {
      await fresh(lang);
      const to = await toCode();
      await page.keyboard.type(await codeFromOutbox(demo, to));
      await untilStep('success');
    },
    failure: async (lang) => {
      await fresh(lang);
      await toCode();
      intercept((url) =>
        url.endsWith('/verify-otp')
          ? { status: 422, contentType: 'application/json', body: JSON.stringify({ error: { code: 'code_expired', message: 'expired' } }) }
          : undefined,
      );
      await page.keyboard.type('123456');
      await untilStep('failure');
    },
  };
});
