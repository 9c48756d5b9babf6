import type { Plural } from '../../core/plural.js';
import { common, type CommonStrings } from './common.js';

/** What <otp-verify> says. English is built in; other languages are registered (see localize). */
export const otp = {
  contactHeading: 'Verify it’s you',
  contactIntro: 'We’ll send you a one-time code.',
  channelLegend: 'Send the code by',
  channel_sms: 'SMS',
  channel_whatsapp: 'WhatsApp',
  channel_email: 'Email',
  countryLabel: 'Country',
  phoneLabel: 'Phone number',
  emailLabel: 'Email address',
  sendCode: 'Send code',
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
  didYouMean: 'Did you mean {suggestion}?',
  useSuggestion: 'Use {suggestion}',
  phoneInvalid: 'Enter a full phone number, with its country.',
  emailInvalid: 'Enter an email address such as name@example.com.',
  codeIncomplete: 'Enter all the digits of the code.',
};

export type OtpStrings = CommonStrings & typeof otp;

/** Everything <otp-verify> says in English: its own strings and the common ones. */
export const otpEnglish: OtpStrings = { ...common, ...otp };
