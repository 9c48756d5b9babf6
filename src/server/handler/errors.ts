/** The one error shape every route answers (demo/pages/protocol.md), and how upstream errors map onto it. */
import type { ErrorBody, ErrorCode } from '../../core/protocol.js';
import { json } from '../../core/http.js';
import { ServiceError, type UpstreamFault } from '../upstream/errors.js';

const STATUS: Record<ErrorCode, number> = {
  invalid_input: 400,
  wrong_code: 422,
  code_expired: 422,
  too_many_attempts: 429,
  rate_limited: 429,
  insufficient_credits: 402,
  no_match: 422,
  bad_sample: 422,
  not_enrolled: 409,
  proof_required: 403,
  unauthorized: 401,
  forbidden: 403,
  upstream_unavailable: 502,
  challenge_required: 428,
  try_another_channel: 429,
  token_missing: 401,
  token_expired: 401,
  token_invalid: 401,
  liveness_required: 400,
  liveness_failed: 422,
  handoff_ended: 410,
};

export class HandlerError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: Omit<ErrorBody['error'], 'code' | 'message'> & { status?: number } = {},
    /** What went wrong on the way to the service: for the host's log, never for the browser. */
    readonly fault?: UpstreamFault,
  ) {
    super(message);
  }
}

export function fail(code: ErrorCode, message: string, extra?: HandlerError['extra']): never {
  throw new HandlerError(code, message, extra);
}

/** The host's problem, not the person's (a fault upstream, a store, a hook, its own options): try again later. */
export function unavailable(status: number, fault?: UpstreamFault): HandlerError {
  return new HandlerError('upstream_unavailable', 'Verification is temporarily unavailable. Please try again.', { status }, fault);
}

export function errorResponse(error: HandlerError): Response {
  const { status = STATUS[error.code], ...extra } = error.extra;
  const headers: Record<string, string> = error.extra.retryAfter !== undefined ? { 'retry-after': String(error.extra.retryAfter) } : {};
  // A body that missed its deadline is not worth reading to its end: the connection closes instead.
  if (status === 408) headers.connection = 'close';
  return json({ error: { code: error.code, message: error.message, ...extra } } satisfies ErrorBody, status, headers);
}

/**
 * The service's own errors, in the stable shape and never forwarded: its messages can name
 * accounts, balances or internals the person should not see.
 */
/** The words the person may see for each of the service's refusals. */
const REFUSALS: Partial<Record<ErrorCode, string>> = {
  insufficient_credits: 'This verification method is unavailable right now.',
  wrong_code: 'That code is not right.',
  code_expired: 'That code has expired. Please request a new one.',
  too_many_attempts: 'Too many wrong codes. Please request a new one.',
  bad_sample: 'The sample could not be used. Please try again.',
  invalid_input: 'The verification service refused the request.',
};

export function fromServiceError(error: ServiceError): HandlerError {
  if (error.code === 'rate_limited') {
    return new HandlerError('rate_limited', 'Too many requests. Please wait and try again.', { retryAfter: error.retryAfter ?? 60 });
  }
  const refusal = REFUSALS[error.code];
  if (refusal) return new HandlerError(error.code, refusal);
  // unauthorized (our key), 5xx, timeouts, redirects: the host's problem, not the person's.
  return unavailable(error.fault === 'timeout' ? 504 : 502, error.fault);
}
