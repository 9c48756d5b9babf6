import type { Plural } from '../../core/plural.js';
import { common, type CommonStrings } from './common.js';
import { commonFirst, otpFirst } from './first.js';

/** What <otp-verify> says. English is built in; other languages are registered (see localize). */
export const otp = {
  sending: 'Sending your code…',
  codeHeading: 'Enter the code',
  codeSentTo: 'We sent a code to {to}.',
  codeMaybeSentTo: 'We couldn’t confirm that a code went to {to}. If a code arrives, enter it here.',
  codeLabel: 'One-time code',
  codeHint: { one: '{count} digit', other: '{count} digits' } as Plural,
  codeHintAny: '4 to 8 digits',
  verify: 'Verify',
  verifying: 'Checking your code…',
  resend: 'Send a new code',
  resendIn: 'You can ask for a new code in {time}.',
  resendReady: 'You can now ask for a new code.',
  changeContact: 'Change number or email',
  useFallback: 'Send by {channel} instead',
  successText: 'Thank you, you’re verified.',
  startOver: 'Start over',
  codeSentAnnouncement: 'Code sent to {to}.',
  codeIncomplete: 'Enter all the digits of the code.',
};

export type OtpStrings = CommonStrings & typeof otpFirst & typeof otp;

/** Everything <otp-verify> says in English: its own strings and the common ones. */
export const otpEnglish: OtpStrings = { ...commonFirst, ...otpFirst, ...common, ...otp };

/** What it says after its contact step, which comes with those steps' code (the contact step's words are in first.ts). */
export const otpLater = { ...common, ...otp };
