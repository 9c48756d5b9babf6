import { failure, sent, verified, type Answer } from '../support/fake-host.js';
import { axeEachStep } from '../support/axe-steps.js';
import { $, enterCode, otpFixture, sendTo, submitPhone, untilStep } from '../support/otp.js';
import type { OtpVerify } from '../../../src/otp-verify/otp-verify.js';

/** Drives a widget to each step, holding answers open where a step waits for one. */
const STEPS: [string, (element: OtpVerify, hold: (route: string) => void) => Promise<void>][] = [
  ['contact', async () => {}],
  ['contact with an error', async (element) => {
    $<HTMLFormElement>(element, 'form').requestSubmit();
    await element.updateComplete;
  }],
  ['sending', async (element, hold) => {
    hold('send-otp');
    await submitPhone(element);
    await untilStep(element, 'sending');
  }],
  ['code', async (element) => sendTo(element)],
  ['code with a wrong-code error', async (element) => {
    await sendTo(element);
    enterCode(element, '000000');
    await untilStep(element, 'code');
    await untilErrorShown(element);
  }],
  ['verifying', async (element, hold) => {
    await sendTo(element);
    hold('verify-otp');
    enterCode(element, '123456');
    await untilStep(element, 'verifying');
  }],
  ['success', async (element) => {
    await sendTo(element);
    enterCode(element, '123456');
    await untilStep(element, 'success');
  }],
  ['failure', async (element) => {
    await sendTo(element);
    enterCode(element, '999999');
    await untilStep(element, 'failure');
  }],
];

async function untilErrorShown(element: OtpVerify) {
  for (let i = 0; i < 50 && !element.shadowRoot!.querySelector('.error'); i++) await new Promise((r) => setTimeout(r, 20));
}

const hang = (): Answer => ({ pending: true });

axeEachStep<OtpVerify>('otp-verify', {
  fixture: (attributes, lang) => otpFixture(lang, attributes),
  routes: (_, held) => ({
    'send-otp': () => (held.has('send-otp') ? hang() : sent()),
    'verify-otp': (body) =>
      held.has('verify-otp') ? hang() : body.otp === '000000' ? failure(422, 'wrong_code', { attemptsLeft: 3 }) : body.otp === '999999' ? failure(422, 'code_expired') : verified(),
  }),
  steps: STEPS.map(([name, drive]) => ({ name, drive })),
});
