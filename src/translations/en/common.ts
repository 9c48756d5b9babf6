import type { Plural } from '../../core/plural.js';
import type { commonFirst } from './first.js';

/** What every widget says: the form's own message, success and failure headings, and the words for the error codes any call can meet (a face or voice comparison's own are in biometric.ts). English is built in; other languages are registered (see localize). */
export const common = {
  successHeading: 'Verified',
  failureHeading: 'Verification stopped',
  waitHeading: 'Please wait',
  retryHeading: 'Let’s try that again',
  tryAgain: 'Try again',
  error_invalid_input: 'Please check what you entered.',
  error_wrong_code: 'That code isn’t right.',
  error_wrong_code_left: { one: 'That code isn’t right. {count} try left.', other: 'That code isn’t right. {count} tries left.' } as Plural,
  error_code_expired: 'This code has expired. Please ask for a new one.',
  error_too_many_attempts: 'Too many wrong codes. Please ask for a new one.',
  error_rate_limited: 'Too many requests. Please wait {time}.',
  error_insufficient_credits: 'This way of verifying isn’t available right now. Try another one.',
  error_unauthorized: 'Your session has ended. Reload the page to continue.',
  error_forbidden: 'This page isn’t allowed to verify you.',
  error_challenge_required: 'We couldn’t check your browser. Please try again.',
  error_try_another_channel: 'For your safety, codes to this number or email are paused after many wrong tries. Please get a code another way.',
  /** Shown while a proof of work the handler asked for takes over a second. */
  checkingBrowser: 'Checking your browser… {time}',
};

export type CommonStrings = typeof commonFirst & typeof common;
