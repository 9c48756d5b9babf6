/**
 * One person's flow on the pow site (support/pow-site.mjs): an email sent and its code verified in
 * `<otp-verify>`, each asked for a proof of work first, which the widget solves. For the e2e test
 * and for the benchmark at 4x CPU throttling.
 */
import type { Page } from 'puppeteer-core';

export interface PowFlow {
  /** From the submit to the code step, and to success (ms). */
  sentMs: number;
  totalMs: number;
  /** The "Checking your browser" lines the widget showed. */
  shown: string[];
  /** What the handler answered, route and status, in order. */
  calls: string[];
}

export async function powFlow(page: Page, site: string, email: string): Promise<PowFlow> {
  await page.waitForFunction(`document.querySelector('otp-verify')?.shadowRoot?.querySelector('#email')`);
  const started = Date.now();
  await page.evaluate(`(() => {
    const widget = document.querySelector('otp-verify');
    window.shown = [];
    new MutationObserver(() => {
      const line = widget.shadowRoot.querySelector('.checking');
      if (line && !window.shown.includes(line.textContent)) window.shown.push(line.textContent);
    }).observe(widget.shadowRoot, { subtree: true, childList: true, characterData: true });
    const field = widget.shadowRoot.querySelector('#email');
    field.value = ${JSON.stringify(email)};
    field.dispatchEvent(new Event('input'));
    return widget.updateComplete.then(() => widget.shadowRoot.querySelector('form').requestSubmit());
  })()`);
  await page.waitForFunction(`document.querySelector('otp-verify').step === 'code'`, { timeout: 120_000, polling: 250 });
  const sentMs = Date.now() - started;
  const code = await (await fetch(`${site}code?to=${encodeURIComponent(email)}`)).json();
  await page.evaluate(`(() => {
    const input = document.querySelector('otp-verify input[slot="code"]');
    input.value = ${JSON.stringify(code)};
    input.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertFromPaste', data: ${JSON.stringify(code)} }));
    const widget = document.querySelector('otp-verify');
    // The handler learns a code's length from the first it accepts: until then the person presses Verify.
    return widget.updateComplete.then(() => widget.step === 'code' && widget.shadowRoot.querySelector('form').requestSubmit());
  })()`);
  await page.waitForFunction(`document.querySelector('otp-verify').step === 'success'`, { timeout: 120_000, polling: 250 });
  const totalMs = Date.now() - started;
  const log = (await (await fetch(`${site}log`)).json()) as { route: string; status: number }[];
  const calls = log.filter((entry) => entry.route !== 'config').map((entry) => `${entry.route} ${entry.status}`);
  return { sentMs, totalMs, shown: (await page.evaluate('window.shown')) as string[], calls };
}
