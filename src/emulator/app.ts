/**
 * The emulator as one Fetch-API handler: the service's interface under /api/v2, and development
 * controls under /__emulator. The request log never holds a body, a key, a code or media.
 */
import { timingSafeEqual } from 'node:crypto';
import { HttpError, json, readJsonObject, type FetchHandler } from '../core/http.js';
import { PayloadError } from './media.js';
import * as service from './service-routes.js';
import type { RouteResult } from './service-routes.js';
import { handleControl } from './controls.js';
import type { Fault } from './faults.js';
import type { EmulatorState } from './state.js';

export const API_PREFIX = '/api/v2/';

const OPERATIONS: Record<string, { method: 'GET' | 'POST'; run: (state: EmulatorState, body: Record<string, unknown>) => RouteResult | Promise<RouteResult> }> = {
  balance: { method: 'GET', run: (state) => service.balance(state) },
  'send-otp': { method: 'POST', run: service.sendOtp },
  'verify-otp': { method: 'POST', run: service.verifyOtp },
  'verify-by-face': { method: 'POST', run: service.verifyByFace },
  'verify-by-voice': { method: 'POST', run: service.verifyByVoice },
};

const errorBody = (message: string) => ({ errors: [{ message }] });

/** Where the live service's redirects land: an HTML page, as a browser session would expect. */
export const LANDING_PATH = '/';

function landingPage(): Response {
  const page =
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Authentication service (emulator)</title></head>' +
    '<body><h1>Authentication service</h1><p>This is the emulator\'s home page, where the live service sends a request that did not ask for JSON.</p></body></html>';
  return new Response(page, { headers: { 'content-type': 'text/html; charset=utf-8' } });
}

export function createEmulatorHandler(state: EmulatorState, log: (line: string) => void, closing: AbortSignal): FetchHandler {
  return async (request) => {
    const started = performance.now();
    const { pathname } = new URL(request.url);
    let result: RouteResult;
    try {
      if (pathname.startsWith('/__emulator/')) result = await handleControl(state, request, pathname);
      else if (pathname.startsWith(API_PREFIX)) result = await serve(state, request, pathname.slice(API_PREFIX.length), closing);
      else if (pathname === LANDING_PATH && request.method === 'GET') result = { response: landingPage() };
      else result = { response: json(errorBody('Not found'), 404) };
    } catch (error) {
      // Only the error's class goes to the log: its message could quote a request value.
      result = { response: json(errorBody('Internal emulator error'), 500), note: (error as Error)?.name };
    }
    const elapsed = (performance.now() - started).toFixed(1);
    log(`${request.method} ${pathname} ${result.response.status} ${elapsed}ms${result.note ? ` ${result.note}` : ''}`);
    return result.response;
  };
}

async function serve(state: EmulatorState, request: Request, name: string, closing: AbortSignal): Promise<RouteResult> {
  const operation = Object.hasOwn(OPERATIONS, name) ? OPERATIONS[name] : undefined;
  if (!operation) return { response: json(errorBody('Not found'), 404) };
  if (request.method !== operation.method) {
    return { response: json(errorBody(`Method not allowed; use ${operation.method}`), 405, { allow: operation.method }) };
  }
  const faults = state.faults.take(name);
  const faulted = await applyFaults(faults, request, closing);
  if (faulted) return faulted;
  if (!authorized(state, request.headers.get('x-authorization'))) {
    return { response: json(errorBody('Unauthorized'), 401) };
  }
  try {
    const body = operation.method === 'POST' ? await readJsonObject(request, { maxBytes: state.settings.maxBodyBytes }) : {};
    // A slow service has the whole request, and finishes it even when the caller gave up waiting:
    // an SMS sent after the client's timeout still arrives.
    for (const fault of faults) if (fault.kind === 'latency') await delay(fault.ms ?? 1000, closing);
    return await operation.run(state, body);
  } catch (error) {
    if (error instanceof HttpError) return { response: json(errorBody(error.message), error.status) };
    if (error instanceof PayloadError) return validationFailure(state, request, error);
    throw error;
  }
}

function authorized(state: EmulatorState, key: string | null): boolean {
  if (!key) return false;
  const given = Buffer.from(key);
  return state.settings.apiKeys.some((k) => {
    const expected = Buffer.from(k);
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
}

function validationFailure(state: EmulatorState, request: Request, error: PayloadError): RouteResult {
  const note = `invalid ${error.field}`;
  // The live service answers a validation failure with a redirect to an HTML page unless the
  // request asks for JSON (demo/pages/emulator.md, live quirks).
  if (state.quirk('redirect-without-accept') && !request.headers.get('accept')?.includes('application/json')) {
    const location = new URL(LANDING_PATH, request.url).href;
    const page = `<!DOCTYPE html><html><head><title>Redirecting</title></head><body>Redirecting to ${location}</body></html>`;
    return { response: new Response(page, { status: 302, headers: { location, 'content-type': 'text/html; charset=utf-8' } }), note };
  }
  return {
    response: json({ success: false, message: error.message, errors: [{ field: error.field, message: error.message }] }, 422),
    note,
  };
}

/** The faults that answer in the service's place (latency is applied once the request is read). */
async function applyFaults(faults: Fault[], request: Request, closing: AbortSignal): Promise<RouteResult | undefined> {
  for (const fault of faults) {
    switch (fault.kind) {
      case 'hang':
        // Never answers: the caller's timeout has to end it.
        await delay(Infinity, AbortSignal.any([request.signal, closing]));
        return { response: json(errorBody('Hung request ended'), 504), note: 'fault hang' };
      case 'error':
        return { response: json(errorBody('Service temporarily unavailable'), fault.status ?? 503), note: 'fault error' };
      case 'rate-limit': {
        const retryAfter = String(fault.retryAfter ?? 30);
        return { response: json(errorBody('Too Many Attempts.'), 429, { 'retry-after': retryAfter }), note: 'fault rate-limit' };
      }
    }
  }
  return undefined;
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = Number.isFinite(ms) ? setTimeout(resolve, ms) : undefined;
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
}
