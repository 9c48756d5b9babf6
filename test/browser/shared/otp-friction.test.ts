/**
 * What <otp-verify> does when the handler meets pressure with friction (issue 32): a number whose
 * guesses are spent sends the person to the fallback channel at once, keeping what they typed; a
 * host's own human check is asked of the page through `verify-human-check`, and the request sent
 * again with its token.
 */
import { expect, oneEvent } from '@open-wc/testing';
import { fakeHost, failure, sent, verified } from '../support/fake-host.js';
import { $, enterCode, otpFixture, sendTo, submitPhone, untilStep } from '../support/otp.js';
import type { VerifyHumanCheckEvent } from '../../../src/events/human-check.js';

const spent = () => failure(429, 'try_another_channel', { fallback: 'email' });

describe('<otp-verify> under friction', () => {
  let host: ReturnType<typeof fakeHost>;
  afterEach(() => host?.stop());

  it('a number whose guesses are spent: back to the form on email at once, the reason shown, no wait', async () => {
    host = fakeHost({ 'send-otp': () => spent() });
    const element = await otpFixture();
    const error = oneEvent(element, 'verify-error');
    await submitPhone(element);
    expect((await error).detail).to.include({ code: 'try_another_channel', retryAfter: undefined });
    await element.updateComplete;
    expect(element.step).to.equal('contact');
    expect($<HTMLInputElement>(element, '#email')).to.exist;
    expect($(element, '.error').textContent).to.contain('get a code another way');
  });

  it('spent while verifying: the same way out, from the code step', async () => {
    host = fakeHost({ 'send-otp': () => sent(), 'verify-otp': () => spent() });
    const element = await otpFixture();
    await sendTo(element);
    enterCode(element, '123456');
    await untilStep(element, 'contact');
    expect($<HTMLInputElement>(element, '#email')).to.exist;
    expect($(element, '.error').textContent).to.contain('paused');
  });

  it('asks the page for its human check and sends the same request again with the token', async () => {
    host = fakeHost({
      'send-otp': (body) => (body.humanCheck === 'token-1' ? sent() : failure(428, 'challenge_required', { humanCheck: true })),
      'verify-otp': () => verified(),
    });
    const element = await otpFixture();
    // As a page with Turnstile does: answered during the event, with a promise of the token.
    element.addEventListener('verify-human-check', (event: VerifyHumanCheckEvent) => event.respondWith(Promise.resolve('token-1')));
    await submitPhone(element);
    await untilStep(element, 'code');
    expect(host.calls.filter((c) => c.route === 'send-otp').map((c) => c.body)).to.deep.equal([
      { method: 'sms', phone: '+966501234567', lang: 'en' },
      { method: 'sms', phone: '+966501234567', lang: 'en', humanCheck: 'token-1' },
    ]);
  });

  it('with no page answering the human check, the send stops with a way to try again, nothing lost', async () => {
    host = fakeHost({ 'send-otp': () => failure(428, 'challenge_required', { humanCheck: true }) });
    const element = await otpFixture();
    await submitPhone(element);
    await untilStep(element, 'failure');
    expect($(element, '.error').textContent).to.contain('check your browser');
    expect(host.count('send-otp')).to.equal(1);
  });
});
