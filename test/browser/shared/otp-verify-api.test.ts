import { expect, waitUntil } from '@open-wc/testing';
import { fakeHost, failure, sent, verified } from '../support/fake-host.js';
import { $, enterCode, otpFixture, sendTo, untilStep } from '../support/otp.js';

describe('<otp-verify> public surface', () => {
  let host: ReturnType<typeof fakeHost>;
  afterEach(() => host?.stop());

  it('leaves its light DOM as the page wrote it until the code step (server-rendered pages hydrate unchanged)', async () => {
    host = fakeHost({ 'send-otp': () => sent() });
    const element = await otpFixture();
    await waitUntil(() => host.count('config') === 1);
    await element.updateComplete;
    expect(element.childNodes.length, 'nothing added at connection or first render').to.equal(0);
    await sendTo(element);
    expect(element.querySelector('input[slot="code"]')).to.exist;
  });

  it('tells each step through the property, a custom state and verify-step-change', async () => {
    host = fakeHost({ 'send-otp': () => sent(), 'verify-otp': () => verified() });
    const element = await otpFixture();
    const steps: string[] = [];
    element.addEventListener('verify-step-change', (e) => steps.push(`${e.detail.previous}>${e.detail.step}`));
    expect(element.matches(':state(contact)')).to.be.true;
    await sendTo(element);
    expect(element.matches(':state(code)')).to.be.true;
    expect(element.matches(':state(contact)')).to.be.false;
    enterCode(element, '123456');
    await untilStep(element, 'success');
    await waitUntil(() => steps.length === 4);
    expect(steps).to.deep.equal(['contact>sending', 'sending>code', 'code>verifying', 'verifying>success']);
  });

  it('takes per-instance string overrides', async () => {
    host = fakeHost({});
    const element = await otpFixture();
    element.strings = { contactHeading: 'Confirm your number', sendCode: 'Text me' };
    await element.updateComplete;
    expect($(element, '[part~="heading"]').textContent).to.equal('Confirm your number');
    expect($(element, '[part~="submit"]').textContent!.trim()).to.equal('Text me');
    expect($(element, '[part~="message"]').textContent).to.equal('We’ll send you a one-time code.');
  });

  it('announces the code sent and the cooldown in its one polite live region', async () => {
    host = fakeHost({ 'send-otp': () => sent(30) });
    const element = await otpFixture();
    expect(element.shadowRoot!.querySelectorAll('[aria-live]').length).to.equal(1);
    await sendTo(element);
    const live = $(element, '[part~="live"]');
    expect(live.getAttribute('aria-live')).to.equal('polite');
    await waitUntil(() => /Code sent to \u2066\+966••••••567\u2069\. You can ask for a new code in 0:30/.test(live.textContent!), live.textContent!);
  });

  it('moves focus to the heading of a step that appears', async () => {
    host = fakeHost({ 'send-otp': () => sent(), 'verify-otp': () => failure(422, 'code_expired') });
    const element = await otpFixture();
    await sendTo(element);
    enterCode(element, '123456');
    await untilStep(element, 'failure');
    await waitUntil(() => element.shadowRoot!.activeElement === $(element, '[part~="heading"]'), 'focus on the heading');
    expect(document.activeElement).to.equal(element);
  });
});
