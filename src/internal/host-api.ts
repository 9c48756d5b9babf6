/**
 * Calls the host handler from a widget. Answers come in the stable shape of demo/pages/protocol.md; raw
 * service shapes (demo/pages/emulator.md, live quirks), which a host in another language may forward, are read too.
 */
import { VerifyRequestEvent } from '../events/request.js';
import { deadline } from '../core/deadline.js';
import type { AltchaChallenge } from '../core/proof-of-work.js';
import { HANDOFF_HEADER, isErrorCode, LIVENESS_MOVES, OTP_CHANNELS, type LivenessMove, type OtpChannel, type ErrorBody, type ErrorCode, type Route, type Routes } from '../core/protocol.js';

export class HostError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly status: number,
    readonly extra: Pick<ErrorBody['error'], 'retryAfter' | 'attemptsLeft' | 'field' | 'maybeSent' | 'challenge' | 'humanCheck' | 'fallback' | 'move'> & { livenessReason?: string } = {},
  ) {
    super(message);
  }
}

/** Any failure of a host call, as a HostError (a thrown non-HostError is a network or script fault). */
export const asHostError = (error: unknown): HostError => (error instanceof HostError ? error : new HostError('upstream_unavailable', String(error), 0));

type Body = Record<string, unknown> | undefined;

/** The stand-alone service's session token, or a function that returns a fresh one for each call. */
export type SessionToken = string | (() => string | Promise<string>) | null;
/** What a call needs of its widget: the events go to it, the token comes from it. */
export type Caller = HTMLElement & { sessionToken?: SessionToken; handoffPass?: string | null };

export const isTokenRefusal = (error: unknown): error is HostError & { code: 'token_missing' | 'token_expired' | 'token_invalid' } =>
  error instanceof HostError && (error.code === 'token_missing' || error.code === 'token_expired' || error.code === 'token_invalid');

/** A successful answer's body, before it is read as its route's response type. */
type Answer = object;

const isChallenge = (value: unknown): value is AltchaChallenge => typeof (value as AltchaChallenge | undefined)?.parameters?.keyPrefix === 'string';
const isOtpChannel = (value: unknown): value is OtpChannel => (OTP_CHANNELS as readonly unknown[]).includes(value);

/** The answer as a value, or a HostError saying why not. */
export function readAnswer(status: number, body: Body, retryAfterHeader: string | null): Answer | HostError {
  const retryHeader = Number(retryAfterHeader);
  const retryAfter = Number.isFinite(retryHeader) && retryAfterHeader !== null ? retryHeader : undefined;
  const error = body?.error as Record<string, unknown> | undefined;
  if (error && isErrorCode(error.code)) {
    const number = (v: unknown) => (typeof v === 'number' ? v : undefined);
    return new HostError(error.code, String(error.message ?? error.code), status, {
      retryAfter: number(error.retryAfter) ?? retryAfter,
      attemptsLeft: number(error.attemptsLeft),
      field: typeof error.field === 'string' ? error.field : undefined,
      ...(error.maybeSent === true ? { maybeSent: true } : {}),
      ...(error.humanCheck === true ? { humanCheck: true } : {}),
      ...(isChallenge(error.challenge) ? { challenge: error.challenge } : {}),
      ...(isOtpChannel(error.fallback) ? { fallback: error.fallback } : {}),
      ...((LIVENESS_MOVES as readonly unknown[]).includes(error.move) ? { move: error.move as LivenessMove } : {}),
      // The body's `reason` (the rule a live answer broke), kept apart from the code: the strings know the rules.
      ...(typeof error.reason === 'string' ? { livenessReason: error.reason } : {}),
    });
  }
  const message = typeof body?.message === 'string' ? body.message : '';
  if (status >= 200 && status < 300 && body && body.status !== false && body.success !== false) return body;
  // Raw service shapes, forwarded by a host that does not translate them.
  if (status === 401 || status === 403) return new HostError('unauthorized', message, status);
  if (status === 429) return new HostError('rate_limited', message, status, { retryAfter: retryAfter ?? 30 });
  if (status === 402) return new HostError('insufficient_credits', message, status);
  if (body?.status === false) return new HostError('wrong_code', message, status);
  if (body?.success === false && status === 422) return new HostError('no_match', message, status);
  if (status >= 400 && status < 500 && body) return new HostError('invalid_input', message, status);
  return new HostError('upstream_unavailable', message, status);
}

/**
 * POSTs (or GETs) JSON to `{endpoint}/{route}`, letting the page amend or take over the request
 * through a cancelable `verify-request` event. The whole call, answer body included, ends within
 * `timeoutMs`: past it the call fails as `upstream_unavailable`, which every widget can retry.
 */
export async function callHost<R extends Route>(
  element: Caller,
  endpoint: string,
  route: R,
  body: Routes[R]['request'],
  signal: AbortSignal,
  timeoutMs: number,
  /** A token to send in place of the element's (a fresh one the page just gave). */
  freshToken?: string,
): Promise<Routes[R]['response']> {
  const url = `${endpoint.replace(/\/+$/, '')}/${route}`;
  const method = body === undefined ? 'GET' : 'POST';
  const headers = new Headers({ accept: 'application/json' });
  if (method === 'POST') headers.set('content-type', 'application/json');
  // In a header, never in the URL, where logs and referrers would keep it. A phone opened from a link
  // has the link instead of a session.
  const pass = element.handoffPass;
  if (pass) headers.set(HANDOFF_HEADER, pass);
  const token = pass ? null : freshToken ?? (typeof element.sessionToken === 'function' ? await element.sessionToken() : element.sessionToken);
  if (token) headers.set('authorization', `Bearer ${token}`);
  const call = deadline(timeoutMs, signal);
  const event = new VerifyRequestEvent({ route, url, method, body, headers, signal: call.signal });
  const proceed = element.dispatchEvent(event);
  try {
    const response = await untilAborted(
      proceed
        ? fetch(url, { method, headers, body: method === 'POST' ? JSON.stringify(body) : undefined, credentials: 'same-origin', signal: call.signal })
        : (event.response ?? Promise.reject(new Error('verify-request was prevented without a response'))),
      call.signal,
    );
    let parsed: Body;
    try {
      parsed = (await untilAborted(response.json(), call.signal)) as Body;
    } catch (error) {
      if (call.signal.aborted) throw error;
      parsed = undefined;
    }
    const answer = readAnswer(response.status, parsed, response.headers.get('retry-after'));
    if (answer instanceof HostError) throw answer;
    // The protocol's promise for this route (demo/pages/protocol.md); the widget reads it as such.
    return answer as Routes[R]['response'];
  } catch (error) {
    if (error instanceof HostError || signal.aborted) throw error;
    throw new HostError('upstream_unavailable', call.timedOut ? 'timeout' : 'network', 0);
  } finally {
    call.clear();
  }
}

/** The promise, or a rejection as soon as the signal aborts (a page's own answer may ignore it). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}
