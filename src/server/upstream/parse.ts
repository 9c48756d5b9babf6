/**
 * Turns the service's answers, documented and observed (demo/pages/emulator.md, live quirks), into one typed result or one
 * ServiceError. Kept apart from the transport so every shape can be tested from a plain object.
 */
import type { ErrorCode } from '../../core/protocol.js';
import { ServiceError } from './errors.js';
import type { Balance, Comparison, OtpSent, OtpVerified } from './types.js';

export type Operation = 'balance' | 'send-otp' | 'verify-otp' | 'verify-by-face' | 'verify-by-voice';
export type Parsed = Balance | OtpSent | OtpVerified | Comparison;
type Body = Record<string, unknown>;

export function parseJsonBody(text: string): Body | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Body) : undefined;
  } catch {
    return undefined;
  }
}

/** Retry-After as seconds: either a number of seconds or an HTTP date. */
export function retryAfterSeconds(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/** Every human message in a body: `message`, `errors[].message`, or Laravel's `errors: {field: [..]}`. */
export function messagesOf(body: Body | undefined): string[] {
  const found: string[] = [];
  if (typeof body?.message === 'string' && body.message) found.push(body.message);
  const errors = body?.errors;
  const items = Array.isArray(errors) ? errors : errors && typeof errors === 'object' ? Object.values(errors).flat() : [];
  for (const item of items) {
    const text = typeof item === 'string' ? item : (item as Body | null)?.message;
    if (typeof text === 'string' && text && !found.includes(text)) found.push(text);
  }
  return found;
}

/** Field names that a validation failure names, whichever way the body lists them. */
function fieldsOf(body: Body | undefined): string[] {
  const errors = body?.errors;
  if (Array.isArray(errors)) return errors.map((e) => (e as Body | null)?.field).filter((f): f is string => typeof f === 'string');
  return errors && typeof errors === 'object' ? Object.keys(errors) : [];
}

function parseBoolean(value: unknown): boolean | undefined {
  if (value === true || value === 1) return true;
  if (value === false || value === 0) return false;
  if (typeof value === 'string') {
    const text = value.trim().toLowerCase();
    if (text === 'true' || text === '1') return true;
    if (text === 'false' || text === '0') return false;
  }
  return undefined;
}

const messageOf = (body: Body) => (typeof body.message === 'string' ? body.message : undefined);

/** The success reading of a 2xx body; undefined when the body says failure or has no known shape. */
export function parseResult(operation: Operation, body: Body): Parsed | undefined {
  const data = (typeof body.data === 'object' && body.data !== null ? body.data : {}) as Body;
  switch (operation) {
    case 'balance': {
      const balance = typeof data.balance === 'string' && data.balance.trim() !== '' ? Number(data.balance) : data.balance;
      return body.success !== false && typeof balance === 'number' && Number.isFinite(balance) ? { balance, message: messageOf(body) } : undefined;
    }
    case 'send-otp':
      return body.success === true ? { message: messageOf(body) } : undefined;
    case 'verify-otp':
      // The documented field is `status`; accept `success` too rather than fail a right code.
      return body.status === true || (body.status === undefined && body.success === true) ? { message: messageOf(body) } : undefined;
    case 'verify-by-face':
    case 'verify-by-voice': {
      const match = parseBoolean(data.result);
      if (body.success !== true || match === undefined) return undefined;
      return { userId: String(data.user_id ?? ''), match, message: messageOf(body) };
    }
  }
}

const SAMPLE_PROBLEM = /no face|face not|not (find|detect)|could not (find|detect|read|decode)|quality|corrupt|unreadable|unsupported|invalid (image|audio|file|format)|format/i;
const INSUFFICIENT = /insufficient|not enough (credit|balance)|credit|balance/i;

/**
 * The reading of anything that is not a success: a ServiceError, or — for face and voice — a
 * non-match, which the live service sometimes answers as 422 (demo/pages/emulator.md, live quirks).
 */
export function classifyFailure(operation: Operation, status: number, body: Body | undefined, retryAfter?: number): ServiceError | Comparison {
  const messages = messagesOf(body);
  const text = messages.join(' ');
  const error = (code: ErrorCode, extra: { fault?: ServiceError['fault']; retryAfter?: number } = {}) =>
    new ServiceError({ code, status, messages, ...extra });

  if (status === 401 || status === 403) return error('unauthorized');
  if (status === 429) return error('rate_limited', { retryAfter });
  if (status >= 500) return error('upstream_unavailable', { fault: 'server_error' });
  if (body === undefined) return error('upstream_unavailable', { fault: 'not_json' });
  if (status === 402 || (status >= 400 && INSUFFICIENT.test(text) && operation !== 'verify-otp')) return error('insufficient_credits');

  const fields = fieldsOf(body);
  const saysFailure = status === 422 || status === 400 || (status >= 200 && status < 300 && (body.success === false || body.status === false));
  if (!saysFailure) {
    return error('upstream_unavailable', { fault: status >= 200 && status < 300 ? 'bad_shape' : 'unexpected_status' });
  }
  if (operation === 'verify-otp' && body.status === false) return error(otpFailureCode(body.reason, text));
  if (operation === 'verify-by-face' || operation === 'verify-by-voice') {
    if (fields.some((f) => f.startsWith('query_')) || (fields.length === 0 && SAMPLE_PROBLEM.test(text))) return error('bad_sample');
    if (fields.length === 0) return { userId: String((body.data as Body | null)?.user_id ?? ''), match: false, message: messages[0] };
  }
  return error('invalid_input');
}

function otpFailureCode(reason: unknown, text: string): ErrorCode {
  // The emulator names a reason; the live service only says "Failed to verify OTP".
  if (reason === 'locked' || /attempt|locked|too many|exceeded/i.test(text)) return 'too_many_attempts';
  if (reason === 'expired' || reason === 'used' || reason === 'unknown' || /expire/i.test(text)) return 'code_expired';
  return 'wrong_code';
}
