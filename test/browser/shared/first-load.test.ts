/**
 * Each widget's first load draws its first step alone; the steps after it come as a chunk of their
 * own, when the page is idle or at the first press. When that chunk cannot come (offline at the
 * press), the person stays on the first step with what they typed, is told why, and the next press
 * fetches it again and goes on.
 */
import { expect, waitUntil } from '@open-wc/testing';
import '../../../src/face-verify/define.js';
import '../../../src/otp-verify/define.js';
import '../../../src/voice-verify/define.js';
import type { VerifyElement } from '../../../src/internal/verify-element.js';
import { fakeHost, sent } from '../support/fake-host.js';

const OFFLINE = 'We couldn’t reach the verification service. Please try again.';
type Fetching = { fetchLater(): Promise<unknown>; later?: unknown };

/** A widget on the page whose later steps cannot be fetched (as offline) until `online()`. */
function offlineWidget(tag: string): { element: VerifyElement; online(): void } {
  const element = document.createElement(tag) as VerifyElement;
  element.setAttribute('endpoint', '/host');
  element.setAttribute('country', 'SA');
  const own = element as unknown as Fetching;
  own.fetchLater = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module'));
  document.body.append(element);
  return { element, online: () => delete (own as Partial<Fetching>).fetchLater };
}

const part = (element: VerifyElement, name: string) => element.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);
const live = (element: VerifyElement) => part(element, 'live')?.textContent?.trim() ?? '';

describe('the steps after the first, fetched on demand', () => {
  let host: ReturnType<typeof fakeHost>;
  let element: VerifyElement | undefined;
  afterEach(() => {
    host?.stop();
    element?.remove();
  });

  for (const [tag, first, next] of [
    ['face-verify', 'priming', 'permission'],
    ['voice-verify', 'priming', 'permission'],
  ] as const) {
    it(`<${tag}>: offline at "Start", the first step says so and stays; the next press goes on`, async () => {
      host = fakeHost({});
      const widget = offlineWidget(tag);
      element = widget.element;
      await element.configLoaded;
      part(element, 'submit')!.click();
      await waitUntil(() => part(element!, 'error'), 'the reason on the first step', { timeout: 5000 });
      expect(element.step).to.equal(first);
      expect(part(element, 'error')!.textContent!.trim()).to.equal(OFFLINE);
      await waitUntil(() => live(element!) === OFFLINE, 'the reason said in the live region');
      await expect(element).to.be.accessible();

      widget.online();
      part(element, 'submit')!.click();
      await waitUntil(() => element!.step !== first, `past ${first}`, { timeout: 5000 });
      expect(element.flow.entered.get(next)).to.equal(1);
      expect(part(element, 'error')?.textContent ?? '').not.to.contain(OFFLINE);
    });
  }

  it('<otp-verify>: offline at "Send code", the typed email stays with the reason; the next press sends it', async () => {
    host = fakeHost({ 'send-otp': () => sent() });
    const widget = offlineWidget('otp-verify');
    element = widget.element;
    await element.configLoaded;
    element.shadowRoot!.querySelector<HTMLInputElement>('input[name="method"][value="email"]')!.click();
    await element.updateComplete;
    const email = element.shadowRoot!.querySelector<HTMLInputElement>('#email')!;
    email.value = 'rana@example.com';
    email.dispatchEvent(new Event('input'));
    await element.updateComplete;
    part(element, 'submit')!.click();
    await waitUntil(() => part(element!, 'error')?.textContent?.trim() === OFFLINE, 'the reason under the form', { timeout: 5000 });
    expect(element.step).to.equal('contact');
    expect(element.shadowRoot!.querySelector<HTMLInputElement>('#email')!.value).to.equal('rana@example.com');
    expect(host.count('send-otp')).to.equal(0);

    widget.online();
    part(element, 'submit')!.click();
    await waitUntil(() => element!.step === 'code', `the code step, still ${element!.step}`, { timeout: 5000 });
    expect(host.calls.find((call) => call.route === 'send-otp')!.body).to.include({ method: 'email', email: 'rana@example.com' });
  });

  it('a widget nobody has pressed yet fetches its later steps once the page is idle', async () => {
    host = fakeHost({});
    element = document.createElement('face-verify') as VerifyElement;
    element.setAttribute('endpoint', '/host');
    document.body.append(element);
    await waitUntil(() => (element as unknown as Fetching).later, 'the later steps, fetched when idle', { timeout: 5000 });
    expect(element.step).to.equal('priming');
  });
});
