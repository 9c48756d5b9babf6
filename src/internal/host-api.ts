/**
 * Calls the host handler from a widget. Answers come in the stable shape of DESIGN §3; raw
 * service shapes (DESIGN §2), which a host in another language may forward, are read too.
 */
import { VerifyRequestEvent } from '../events/request.js';
import { isErrorCode, type ErrorCode } from './protocol.js';

export class HostError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly status: number,
    readonly extra: { retryAfter?: number; attemptsLeft?: number; field?: string } = {},
  ) {
    super(message);
  }
}

type Body = Record<string, unknown> | undefined;

/** The answer as a value, or a HostError saying why not. */
export function readAnswer(status: number, body: Body, retryAfterHeader: string | null): Record<string, unknown> | HostError {
  const retryHeader = Number(retryAfterHeader);
  const retryAfter = Number.isFinite(retryHeader) && retryAfterHeader !== null ? retryHeader : undefined;
  const error = body?.error as Record<string, unknown> | undefined;
  if (error && isErrorCode(error.code)) {
    const number = (v: unknown) => (typeof v === 'number' ? v : undefined);
    return new HostError(error.code, String(error.message ?? error.code), status, {
      retryAfter: number(error.retryAfter) ?? retryAfter,
      attemptsLeft: number(error.attemptsLeft),
      field: typeof error.field === 'string' ? error.field : undefined,
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
 * through a cancelable `verify-request` event.
 */
export async function callHost(element: HTMLElement, endpoint: string, route: string, body: unknown, signal: AbortSignal): Promise<Record<string, unknown>> {
  const url = `${endpoint.replace(/\/+$/, '')}/${route}`;
  const method = body === undefined ? 'GET' : 'POST';
  const headers = new Headers({ accept: 'application/json' });
  if (method === 'POST') headers.set('content-type', 'application/json');
  const event = new VerifyRequestEvent({ route, url, method, body, headers });
  const proceed = element.dispatchEvent(event);
  let response: Response;
  try {
    response = proceed
      ? await fetch(url, { method, headers, body: method === 'POST' ? JSON.stringify(body) : undefined, credentials: 'same-origin', signal })
      : await (event.response ?? Promise.reject(new Error('verify-request was prevented without a response')));
  } catch (error) {
    if (signal.aborted) throw error;
    throw new HostError('upstream_unavailable', 'network', 0);
  }
  let parsed: Body;
  try {
    parsed = (await response.json()) as Body;
  } catch {
    parsed = undefined;
  }
  const answer = readAnswer(response.status, parsed, response.headers.get('retry-after'));
  if (answer instanceof HostError) throw answer;
  return answer;
}
