import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { codeFromOutbox, cspViolations, focusCode, hostChecksReceipt, startDemo, untilStep, type Demo } from './demo-browser.js';

/** In the page: the widget's shadow root, a promise of its next success, and the step. */
const widget = 'otp-verify';

async function successReceipt(demo: Demo): Promise<string> {
  return demo.page.evaluate(
    (w) => new Promise<string>((resolve) => document.querySelector<any>(w).addEventListener('verify-success', (e: CustomEvent) => resolve(e.detail.receipt), { once: true })),
    widget,
  ) as unknown as Promise<string>;
}

/** A fresh page, as after a reload, with a phone number typed into the widget. */
async function typePhoneAfterReload({ page }: Demo, phone: string): Promise<void> {
  await page.reload({ waitUntil: 'load' });
  await page.waitForFunction((w) => document.querySelector<any>(w)?.shadowRoot?.querySelector('#phone'), {}, widget);
  const field = await page.evaluateHandle((w) => document.querySelector<any>(w).shadowRoot.querySelector('#phone'), widget);
  await (field as any).type(phone);
}

for (const quirks of [false, true]) {
  describe(`<otp-verify> end to end through the demo (${quirks ? 'live-quirks' : 'documented'} emulator)`, () => {
    let demo: Demo;
    before(async () => {
      demo = await startDemo(quirks ? { QUIRKS: '1' } : {});
      await demo.page.waitForFunction((w) => document.querySelector<any>(w)?.shadowRoot?.querySelector('#phone'), {}, widget);
      await demo.page.select('#user', 'sara');
    });
    after(() => demo.close());
    // The demo sends a strict CSP (default-src 'self'; script-src 'self'; style-src 'self').
    afterEach(async () => assert.deepEqual(await cspViolations(demo.page), []));

    it('phone: the number typed, the code read from the outbox and typed, a receipt the host accepts once', async () => {
      const { page } = demo;
      const phone = await page.evaluateHandle((w) => document.querySelector<any>(w).shadowRoot.querySelector('#phone'), widget);
      await (phone as any).type('50 123 4567');
      await page.keyboard.press('Enter');
      await untilStep(demo.page, widget, 'code');
      const receipt = successReceipt(demo);
      // Focus is in the code field: type the code as a person would.
      await page.keyboard.type(await codeFromOutbox(demo, '+966501234567'), { delay: 30 });
      const token = await receipt;
      await untilStep(demo.page, widget, 'success');
      // Checked for the method asked: a code is not a face, and a refusal does not use the receipt up.
      assert.deepEqual(await hostChecksReceipt(demo, token, 'face'), { accepted: false, reason: 'wrong_method' });
      const checked = await hostChecksReceipt(demo, token);
      assert.equal(checked.accepted, true);
      assert.deepEqual([checked.claims?.sub, checked.claims?.mth], ['sara', 'otp']);
      assert.deepEqual(await hostChecksReceipt(demo, token), { accepted: false, reason: 'replayed' });
    });

    it('a reload during the cooldown goes straight to the code already sent, and verifies without a second send', async () => {
      const { page } = demo;
      await typePhoneAfterReload(demo, '50 765 4321');
      await page.keyboard.press('Enter');
      await untilStep(page, widget, 'code');
      await page.reload({ waitUntil: 'load' });
      await untilStep(page, widget, 'code');
      const said = await page.evaluate((w) => document.querySelector<any>(w).shadowRoot.querySelector('[part~="message"]').textContent, widget);
      assert.match(said, /\+966•+321/);
      const receipt = successReceipt(demo);
      await focusCode(page, widget);
      await page.keyboard.type(await codeFromOutbox(demo, '+966507654321'), { delay: 30 });
      assert.equal((await hostChecksReceipt(demo, await receipt)).accepted, true);
      const { messages } = (await (await fetch(`${demo.url}__emulator/messages?to=${encodeURIComponent('+966507654321')}`)).json()) as { messages: unknown[] };
      assert.equal(messages.length, 1, 'one code sent upstream');
    });

    // One engine of the two is enough for an 11 s wait.
    if (!quirks) {
      it('a send answered after the handler gave up: the page offers code entry, and the code that arrives verifies, sent once', async () => {
        const { page } = demo;
        await typePhoneAfterReload(demo, '50 222 3333');
        // The service takes 11 s; the handler waits 10 and answers 504, while the code still goes out.
        await fetch(`${demo.url}__emulator/faults`, { method: 'POST', body: JSON.stringify({ kind: 'latency', route: 'send-otp', ms: 11_000, times: 1 }) });
        await page.keyboard.press('Enter');
        await untilStep(page, widget, 'code', 20_000);
        const said = await page.evaluate((w) => document.querySelector<any>(w).shadowRoot.querySelector('[part~="message"]').textContent, widget);
        assert.match(said, /If a code arrives, enter it here/);
        const receipt = successReceipt(demo);
        await page.keyboard.type(await codeFromOutbox(demo, '+966502223333', 3000), { delay: 30 });
        assert.equal((await hostChecksReceipt(demo, await receipt)).accepted, true);
        const { messages } = (await (await fetch(`${demo.url}__emulator/messages?to=${encodeURIComponent('+966502223333')}`)).json()) as { messages: unknown[] };
        assert.equal(messages.length, 1, 'one code sent upstream');
      });
    }

    it('email: chosen, typed, verified', async () => {
      const { page } = demo;
      await page.reload({ waitUntil: 'load' });
      await page.waitForFunction((w) => document.querySelector<any>(w)?.shadowRoot?.querySelector('input[value="email"]'), {}, widget);
      await page.evaluate((w) => document.querySelector<any>(w).shadowRoot.querySelector('input[value="email"]').click(), widget);
      await page.waitForFunction((w) => document.querySelector<any>(w).shadowRoot.querySelector('#email'), {}, widget);
      const email = await page.evaluateHandle((w) => document.querySelector<any>(w).shadowRoot.querySelector('#email'), widget);
      await (email as any).type('sara@example.com');
      await page.keyboard.press('Enter');
      await untilStep(demo.page, widget, 'code');
      const receipt = successReceipt(demo);
      await page.keyboard.type(await codeFromOutbox(demo, 'sara@example.com'));
      assert.equal((await hostChecksReceipt(demo, await receipt)).accepted, true);
    });
  });
}
