import type { Plural } from '../../core/plural.js';
import { common } from './common.js';
import type { biometricFirst, commonFirst } from './first.js';

/**
 * What <face-verify> and <voice-verify> both say: the common strings, and a comparison's result and
 * the account's state, with the way on from each (which <otp-verify> never meets, so does not carry).
 */
export const biometricEnglish = {
  ...common,
  enrolledHeading: 'Registered',
  accountHeading: 'One thing first',
  error_no_match: 'That didn’t match.',
  error_no_match_left: { one: 'That didn’t match. {count} try left.', other: 'That didn’t match. {count} tries left.' } as Plural,
  error_bad_sample: 'That sample couldn’t be used.',
  // After a live check's refusal (a face's movements, a voice's digits): the tries left.
  triesLeft: { one: '{count} try left.', other: '{count} tries left.' } as Plural,
  error_not_enrolled: 'Nothing is registered for this account yet.',
  error_signed_out: 'Sign in first, then try again.',
  error_proof_required: 'To register, first confirm it’s you with a code sent to your phone or email. This page goes on by itself once you have.',
  registerInstead: 'Register now',
  checkAgain: 'Check again',
  reloadPage: 'Reload the page',
  // Continue on your phone: the offer, the heading, and the phone's words (the computer's panel has its own, handoff.ts).
  handoffHeading: 'Continue on your phone',
  handoffCancel: 'Cancel',
  handoffFromComputer: 'You are continuing from your computer. It shows the code',
  handoffPhoneDone: 'Done. Go back to your computer.',
  error_handoff_ended: 'This link has ended: it expired, was used already or was cancelled. Start again on your computer.',
};

/** What they say after their first step (their first step's words are in first.ts). */
export type BiometricStrings = typeof commonFirst & typeof biometricFirst & typeof biometricEnglish;
