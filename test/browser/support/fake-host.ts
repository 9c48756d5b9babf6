/**
 * A host handler inside the page: answers the widgets' calls through their cancelable
 * `verify-request` event, which is also how a page takes a request over.
 */
import { getCountries, getCountryCallingCode } from 'libphonenumber-js/min';

export interface Answer {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Fail like a network error instead of answering. */
  network?: boolean;
  /** Never answer, so a waiting step stays on screen. */
  pending?: boolean;
}

export interface Call {
  route: string;
  body: Record<string, unknown>;
  headers: Headers;
}

export type Routes = Record<string, (body: Record<string, unknown>, calls: Call[]) => Answer>;

export const CONFIG = {
  channels: ['sms', 'whatsapp', 'email'],
  // What a handler that allows every country sends: each with its calling code.
  countries: Object.fromEntries(getCountries().map((c) => [c, getCountryCallingCode(c)])),
  codeLength: 6,
  resendCooldown: 30,
  maxWrongCodes: 5,
  fallbackChannel: 'email',
  // A signed-in person with both registered, so that face and voice go straight to their steps.
  enrolled: { face: true, voice: true },
  canEnroll: true,
  needsProof: false,
  pending: null,
};

export function fakeHost(routes: Routes) {
  const calls: Call[] = [];
  const listener = (event: Event) => {
    const request = event as Event & { detail: { route: string; body: unknown; headers: Headers }; response?: Promise<Response> };
    event.preventDefault();
    const call = { route: request.detail.route, body: (request.detail.body ?? {}) as Record<string, unknown>, headers: request.detail.headers };
    calls.push(call);
    const fallback = (): Answer => (call.route === 'config' ? { body: CONFIG } : { status: 404, body: { error: { code: 'invalid_input', message: 'no route' } } });
    const answer: Answer = (routes[call.route] ?? fallback)(call.body, calls);
    request.response = answer.pending
      ? new Promise<Response>(() => {})
      : answer.network
      ? Promise.reject(new TypeError('Failed to fetch'))
      : Promise.resolve(new Response(JSON.stringify(answer.body ?? {}), { status: answer.status ?? 200, headers: { 'content-type': 'application/json', ...answer.headers } }));
  };
  document.addEventListener('verify-request', listener);
  return { calls, count: (route: string) => calls.filter((c) => c.route === route).length, stop: () => document.removeEventListener('verify-request', listener) };
}

export const sent = (resendAfter = 30) => ({ body: { sent: true, method: 'sms', to: '+966••••••567', resendAfter, codeLength: 6 } });
export const verified = () => ({ body: { verified: true, method: 'otp', receipt: 'receipt.token', expiresAt: '2030-01-01T00:00:00Z' } });
export const failure = (status: number, code: string, extra: Record<string, unknown> = {}) => ({ status, body: { error: { code, message: code, ...extra } } });
