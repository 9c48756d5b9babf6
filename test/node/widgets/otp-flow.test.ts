import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { initialState, resendWait, transition, type OtpEvent, type OtpState } from '../../../src/otp-verify/later/otp-verify.flow.js';

const contact = { method: 'sms' as const, phone: '+966501234567' };
const run = (...events: OtpEvent[]) => events.reduce<OtpState>(transition, initialState);
const codeStep = () => run({ type: 'send', contact }, { type: 'sent', to: '+966••••••567', resendAfter: 30, now: 1000 });

describe('<otp-verify> flow', () => {
  it('contact -> sending -> code -> verifying -> success', () => {
    const steps = [];
    let state = initialState;
    for (const event of [
      { type: 'send', contact },
      { type: 'sent', to: '+966••••••567', resendAfter: 30, now: 0 },
      { type: 'submit', code: '123456' },
      { type: 'verified', receipt: 'r', expiresAt: null },
    ] as OtpEvent[]) {
      state = transition(state, event);
      steps.push(state.step);
    }
    assert.deepEqual(steps, ['sending', 'code', 'verifying', 'success']);
    assert.equal(state.step === 'success' && state.receipt, 'r');
  });

  it('a wrong code goes back to code entry with the attempts left', () => {
    const state = transition(transition(codeStep(), { type: 'submit', code: '000000' }), { type: 'failed', problem: { code: 'wrong_code', attemptsLeft: 2 }, now: 0 });
    assert.equal(state.step, 'code');
    assert.deepEqual(state.step === 'code' && state.problem, { code: 'wrong_code', attemptsLeft: 2 });
  });

  it('the last wrong code is the exhausted state, whose retry sends a new code', () => {
    const state = transition(transition(codeStep(), { type: 'submit', code: '000000' }), { type: 'failed', problem: { code: 'wrong_code', attemptsLeft: 0 }, now: 0 });
    assert.deepEqual(state.step === 'failure' && [state.problem.code, state.retry], ['too_many_attempts', 'send']);
    assert.equal(transition(state, { type: 'retry' }).step, 'sending');
  });

  it('a network failure while verifying retries the same code, without sending again', () => {
    const failed = transition(transition(codeStep(), { type: 'submit', code: '123456' }), { type: 'failed', problem: { code: 'upstream_unavailable' }, now: 0 });
    assert.deepEqual(failed.step === 'failure' && [failed.retry, failed.code], ['verify', '123456']);
    const retried = transition(failed, { type: 'retry' });
    assert.deepEqual(retried.step === 'verifying' && retried.code, '123456');
  });

  it('an expired code asks for a new one', () => {
    const state = transition(transition(codeStep(), { type: 'submit', code: '1' }), { type: 'failed', problem: { code: 'code_expired' }, now: 0 });
    assert.deepEqual(state.step === 'failure' && state.retry, 'send');
  });

  it('a refused contact goes back to the form with everything kept', () => {
    const state = run({ type: 'send', contact }, { type: 'failed', problem: { code: 'invalid_input', field: 'phone' }, now: 0 });
    assert.deepEqual(state, { step: 'contact', contact, problem: { code: 'invalid_input', field: 'phone' } });
  });

  it('rate limiting while sending is a failure with its wait, retried by sending', () => {
    const state = run({ type: 'send', contact }, { type: 'failed', problem: { code: 'rate_limited', retryAfter: 20 }, now: 0 });
    assert.deepEqual(state.step === 'failure' && [state.retry, state.problem.retryAfter], ['send', 20]);
  });

  it('a send that may have gone out offers code entry, and another code once the cooldown ends', () => {
    const maybe = { code: 'upstream_unavailable', maybeSent: true, retryAfter: 20 } as const;
    const state = run({ type: 'send', contact }, { type: 'failed', problem: maybe, now: 5000 });
    assert.deepEqual(state, { step: 'code', contact, to: contact.phone, resendAfter: 20, sentAt: 5000, problem: maybe });
    assert.equal(resendWait(state, 5000), 20);
    assert.equal(transition(state, { type: 'submit', code: '123456' }).step, 'verifying');
    assert.equal(transition(state, { type: 'resend', now: 25_000 }).step, 'sending');
    // A resend that may not have gone out still names where the earlier code went.
    const resent = transition(transition(codeStep(), { type: 'resend', now: 31_000 }), { type: 'failed', problem: maybe, now: 31_000 });
    assert.deepEqual(resent.step === 'code' && resent.to, '+966••••••567');
    // A fault that certainly sent nothing is a failure to retry, with no code entry.
    assert.equal(run({ type: 'send', contact }, { type: 'failed', problem: { code: 'upstream_unavailable' }, now: 0 }).step, 'failure');
  });

  it('insufficient credits goes back to the form to choose another channel', () => {
    assert.equal(run({ type: 'send', contact }, { type: 'failed', problem: { code: 'insufficient_credits' }, now: 0 }).step, 'contact');
  });

  it('resend waits for the cooldown', () => {
    const state = codeStep();
    assert.equal(resendWait(state, 11_000), 20);
    assert.equal(transition(state, { type: 'resend', now: 11_000 }), state);
    assert.equal(transition(state, { type: 'resend', now: 31_000 }).step, 'sending');
  });

  it('change goes back to contact entry keeping the contact; fallback switches the channel', () => {
    assert.deepEqual(transition(codeStep(), { type: 'change' }), { step: 'contact', contact });
    assert.deepEqual(transition(codeStep(), { type: 'fallback', method: 'email' }), { step: 'contact', contact: { ...contact, method: 'email' } });
  });

  it('ignores events that do not belong to the step', () => {
    assert.equal(transition(initialState, { type: 'submit', code: '1' }), initialState);
    assert.equal(transition(initialState, { type: 'verified', receipt: 'r', expiresAt: null }), initialState);
    const sending = run({ type: 'send', contact });
    assert.equal(transition(sending, { type: 'send', contact }), sending);
  });

  it('resumes a pending code from the contact step only, with the true wait, and resends to the contact the handler holds', () => {
    const resumed = run({ type: 'resume', method: 'sms', to: '+966••••••567', resendAfter: 12, now: 1000 });
    assert.deepEqual(resumed, { step: 'code', contact: { method: 'sms' }, to: '+966••••••567', resendAfter: 12, sentAt: 1000 });
    assert.equal(resendWait(resumed, 1000), 12);
    assert.deepEqual(transition(resumed, { type: 'resend', now: 13_000 }), { step: 'sending', contact: { method: 'sms' }, to: '+966••••••567' });
    assert.equal(transition(codeStep(), { type: 'resume', method: 'email', to: 'x', resendAfter: 1, now: 0 }).step, 'code');
    assert.deepEqual(transition(codeStep(), { type: 'resume', method: 'email', to: 'x', resendAfter: 1, now: 0 }), codeStep());
  });
});
