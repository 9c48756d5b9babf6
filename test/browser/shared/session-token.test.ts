/**
 * The stand-alone service's session token in the widget (issue 33): sent as `Authorization: Bearer`
 * on every call, never in a URL; refused, asked of the page once through `verify-session-token`,
 * and the same request sent again with the fresh one, with nothing the person typed lost.
 */
import { expect, oneEvent } from '@open-wc/testing';
import { fakeHost, failure, sent, verified, type Call } from '../support/fake-host.js';
import { $, enterCode, otpFixture, sendTo, submitPhone, untilStep } from '../support/otp.js';
import type { VerifySessionTokenEvent } from '../../../src/events/session-token.js';

const bearer = (call: Call) => call.headers.get('authorization');
const expired = () => failure(401, 'token_expired');

describe('<otp-verify> with a session token', () => {
  let host: ReturnType<typeof fakeHost>;
  afterEach(() => host?.stop());

  it('sends the session-token attribute as a bearer token on every call, never in the URL', async () => {
    host = fakeHost({ 'send-otp': () => sent(), 'verify-otp': () => verified() });
    const element = await otpFixture('en', 'session-token="token-a"');
    await sendTo(element);
    enterCode(element, '123456');
    await untilStep(element, 'success');
    expect(host.calls.map((c) => [c.route, bearer(c)])).to.deep.equal([
      ['config', 'Bearer token-a'],
      ['send-otp', 'Bearer token-a'],
      ['verify-otp', 'Bearer token-a'],
    ]);
  });

  it('an expired token mid-flow: asks the page once, sends the same code again with the fresh token, and keeps it', async () => {
    host = fakeHost({ 'send-otp': () => sent(), 'verify-otp': (_, calls) => (bearer(calls.at(-1)!) === 'Bearer fresh' ? verified() : expired()) });
    const element = await otpFixture('en', 'session-token="stale"');
    const asked: string[] = [];
    element.addEventListener('verify-session-token', (event: VerifySessionTokenEvent) => {
      asked.push(event.detail.reason);
      event.respondWith(Promise.resolve('fresh'));
    });
    await sendTo(element);
    enterCode(element, '123456');
    await untilStep(element, 'success');
    expect(asked).to.deep.equal(['token_expired']);
    expect(host.calls.filter((c) => c.route === 'verify-otp').map((c) => [c.body.otp, bearer(c)])).to.deep.equal([
      ['123456', 'Bearer stale'],
      ['123456', 'Bearer fresh'],
    ]);
    expect(element.sessionToken).to.equal('fresh');
  });

  it('a token function is asked for each call, and again after a refusal when the page gives none', async () => {
    let minted = 0;
    host = fakeHost({ 'send-otp': (_, calls) => (calls.filter((c) => c.route === 'send-otp').length === 1 ? expired() : sent()) });
    const element = await otpFixture();
    element.sessionToken = () => Promise.resolve(`t${++minted}`);
    await submitPhone(element);
    await untilStep(element, 'code');
    // The refused send with one token, then again with the next.
    expect(host.calls.filter((c) => c.route === 'send-otp').map((c) => bearer(c))).to.deep.equal([`Bearer t${minted - 1}`, `Bearer t${minted}`]);
  });

  it('unanswered, or refused again: signed out once, with the phone typed still there', async () => {
    host = fakeHost({ 'send-otp': () => failure(401, 'token_invalid') });
    const element = await otpFixture('en', 'session-token="forged"');
    let asked = 0;
    element.addEventListener('verify-session-token', (event: VerifySessionTokenEvent) => {
      asked++;
      event.respondWith('still-forged');
    });
    const error = oneEvent(element, 'verify-error');
    await submitPhone(element, '501112233');
    expect((await error).detail.code).to.equal('unauthorized');
    expect(asked).to.equal(1);
    expect(host.count('send-otp')).to.equal(2);
    await element.updateComplete;
    expect($(element, '.error, [part~="message"]').textContent).to.match(/session/i);
    // Back where they were, the number still typed.
    expect(element.step).to.equal('failure');
    // Back to the form from there: the number still typed.
    $(element, '[part~="submit"]').click();
    await untilStep(element, 'contact');
    expect($<HTMLInputElement>(element, '#phone').value.replace(/\D/g, '')).to.equal('501112233');
  });
});
