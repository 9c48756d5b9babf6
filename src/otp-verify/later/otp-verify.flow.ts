/**
 * The steps of <otp-verify> and how events move between them. Pure: no DOM, no clock, no network,
 * so every path can be tested on its own. The element performs the requests each step implies.
 */
import type { ErrorCode, OtpChannel, OtpStep, StepsOf } from '../../core/protocol.js';
import type { CodeEntry, VerifyMetrics } from '../../events/metrics.js';

/** Where a code goes. Neither phone nor email: the code the handler holds for this session. */
export interface Contact {
  method: OtpChannel;
  /** E.164, for sms and whatsapp. */
  phone?: string;
  email?: string;
}

/** The phone or email the widget knows, as request fields; null for the handler's pending code. */
export function contactFields({ phone, email }: Contact): { phone: string } | { email: string } | null {
  return email !== undefined ? { email } : phone !== undefined ? { phone } : null;
}

export interface Problem {
  code: ErrorCode;
  attemptsLeft?: number;
  retryAfter?: number;
  field?: string;
  /** A send that failed in a way that may still deliver the code (a timeout, a 5xx, a lost answer). */
  maybeSent?: true;
  /** `try_another_channel`: the channel that reaches the person another way. */
  fallback?: OtpChannel;
}

/** The number's or email's guesses are spent: back to the form, on the channel that reaches the person another way. */
function anotherWay(contact: Contact, problem: Problem): OtpState {
  return { step: 'contact', contact: problem.fallback ? { ...contact, method: problem.fallback } : contact, problem };
}

/** What a retry from the failure step does. */
export type Retry = 'send' | 'verify' | 'restart';

export type OtpState = StepsOf<
  OtpStep,
  | { step: 'contact'; contact?: Contact; problem?: Problem }
  /** `to` is where the last code went, when this is a resend. */
  | { step: 'sending'; contact: Contact; to?: string }
  | { step: 'code'; contact: Contact; to: string; resendAfter: number; sentAt: number; problem?: Problem }
  | { step: 'verifying'; contact: Contact; to: string; resendAfter: number; sentAt: number; code: string }
  | { step: 'success'; contact: Contact; receipt: string; expiresAt: string | null }
  | { step: 'failure'; contact?: Contact; to?: string; resendAfter?: number; sentAt?: number; code?: string; problem: Problem; retry: Retry }
>;

export type { OtpStep };
export const OTP_STEPS: readonly OtpStep[] = ['contact', 'sending', 'code', 'verifying', 'success', 'failure'];

export type OtpEvent =
  | { type: 'send'; contact: Contact }
  | { type: 'sent'; to: string; resendAfter: number; now: number }
  /** The handler has a code this session is waiting for (a reload, a new tab): enter it. */
  | { type: 'resume'; method: OtpChannel; to: string; resendAfter: number; now: number }
  | { type: 'submit'; code: string }
  | { type: 'verified'; receipt: string; expiresAt: string | null }
  | { type: 'failed'; problem: Problem; now: number }
  | { type: 'resend'; now: number }
  | { type: 'retry' }
  | { type: 'change' }
  | { type: 'fallback'; method: OtpChannel };

export const initialState: OtpState = { step: 'contact' };

/** Seconds before a resend is allowed in this state; 0 when it is allowed now. */
export function resendWait(state: OtpState, now: number): number {
  if (state.step !== 'code' && state.step !== 'failure') return 0;
  if (state.sentAt === undefined || state.resendAfter === undefined) return 0;
  return Math.max(0, Math.ceil((state.sentAt + state.resendAfter * 1000 - now) / 1000));
}

export function transition(state: OtpState, event: OtpEvent): OtpState {
  switch (event.type) {
    case 'send':
      return state.step === 'contact' ? { step: 'sending', contact: event.contact } : state;
    case 'sent':
      return state.step === 'sending' ? { step: 'code', contact: state.contact, to: event.to, resendAfter: event.resendAfter, sentAt: event.now } : state;
    case 'resume':
      // The handler knows the contact; the widget only shows where the code went.
      return state.step === 'contact' ? { step: 'code', contact: { method: event.method }, to: event.to, resendAfter: event.resendAfter, sentAt: event.now } : state;
    case 'submit':
      return state.step === 'code' ? { ...withoutProblem(state), step: 'verifying', code: event.code } : state;
    case 'verified':
      return state.step === 'verifying' ? { step: 'success', contact: state.contact, receipt: event.receipt, expiresAt: event.expiresAt } : state;
    case 'failed':
      if (state.step === 'sending') return sendFailed(state, event.problem, event.now);
      if (state.step === 'verifying') return verifyFailed(state, event.problem);
      return state;
    case 'resend':
      if ((state.step === 'code' || (state.step === 'failure' && state.retry !== 'restart')) && state.contact && resendWait(state, event.now) === 0) {
        return { step: 'sending', contact: state.contact, to: state.to };
      }
      return state;
    case 'retry':
      if (state.step !== 'failure') return state;
      if (state.retry === 'verify' && state.contact && state.code && state.to !== undefined) {
        return { step: 'verifying', contact: state.contact, to: state.to, resendAfter: state.resendAfter ?? 0, sentAt: state.sentAt ?? 0, code: state.code };
      }
      if (state.retry === 'send' && state.contact) return { step: 'sending', contact: state.contact, to: state.to };
      return { step: 'contact', contact: state.contact };
    case 'change':
      return state.step === 'code' || state.step === 'failure' ? { step: 'contact', contact: state.contact } : state;
    case 'fallback':
      return state.step === 'code' || state.step === 'failure' || state.step === 'contact'
        ? { step: 'contact', contact: { ...(state.contact ?? {}), method: event.method } }
        : state;
  }
}

function withoutProblem<T extends { problem?: Problem }>(state: T): Omit<T, 'problem'> {
  const { problem: _problem, ...rest } = state;
  return rest;
}

function sendFailed({ contact, to }: Extract<OtpState, { step: 'sending' }>, problem: Problem, now: number): OtpState {
  // The code may be on its way: let it be entered, and offer another once the cooldown allows.
  if (problem.code === 'upstream_unavailable' && problem.maybeSent) {
    return { step: 'code', contact, to: to ?? contact.phone ?? contact.email ?? '', resendAfter: problem.retryAfter ?? 0, sentAt: now, problem };
  }
  switch (problem.code) {
    // What the person typed, or chose, needs changing: back to the form, everything kept.
    case 'invalid_input':
    case 'insufficient_credits':
      return { step: 'contact', contact, problem };
    case 'try_another_channel':
      return anotherWay(contact, problem);
    case 'rate_limited':
    case 'upstream_unavailable':
    case 'challenge_required':
      return { step: 'failure', contact, problem, retry: 'send' };
    default:
      return { step: 'failure', contact, problem, retry: 'restart' };
  }
}

function verifyFailed(state: Extract<OtpState, { step: 'verifying' }>, problem: Problem): OtpState {
  const { contact, to, resendAfter, sentAt, code } = state;
  switch (problem.code) {
    case 'wrong_code':
      if (problem.attemptsLeft === 0) return { step: 'failure', contact, to, resendAfter, sentAt, problem: { ...problem, code: 'too_many_attempts' }, retry: 'send' };
      return { step: 'code', contact, to, resendAfter, sentAt, problem };
    case 'invalid_input':
      return { step: 'code', contact, to, resendAfter, sentAt, problem };
    case 'code_expired':
    case 'too_many_attempts':
      return { step: 'failure', contact, to, resendAfter, sentAt, problem, retry: 'send' };
    case 'try_another_channel':
      return anotherWay(contact, problem);
    // The code may still be good: try it again rather than send (and pay for) another.
    case 'upstream_unavailable':
    case 'rate_limited':
    case 'challenge_required':
      return { step: 'failure', contact, to, resendAfter, sentAt, code, problem, retry: 'verify' };
    default:
      return { step: 'failure', contact, to, problem, retry: 'restart' };
  }
}

/** The counts `<otp-verify>`'s outcome events carry, from the steps the flow entered and the first channel a code went by. */
export function otpMeasure(state: OtpState, entered: ReadonlyMap<OtpStep, number>, entry: CodeEntry, firstChannel?: OtpChannel): Omit<VerifyMetrics, 'elapsedMs'> {
  const channel = state.contact?.method;
  return {
    attempts: entered.get('verifying') ?? 0,
    resends: Math.max(0, (entered.get('sending') ?? 0) - 1),
    ...(channel ? { channel, fallback: firstChannel !== undefined && firstChannel !== channel } : {}),
    entry,
  };
}
