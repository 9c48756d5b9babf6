/**
 * Typed client for the authentication service (shared/service-api.md), tolerant of every shape the
 * live service has been seen to answer (DESIGN §2). Server-side only: it carries the API key.
 */
import type { OtpChannel } from '../internal/protocol.js';
import { deadline } from '../internal/deadline.js';
import { ServiceError } from './service-error.js';
import { classifyFailure, parseJsonBody, parseResult, retryAfterSeconds, type Operation, type Parsed } from './service-parse.js';

export interface ServiceClientOptions {
  /** Base URL ending in `/api/v2`. */
  baseUrl: string;
  apiKey: string;
  /** Per-request timeout; 10 s by default. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export interface SendOtpRequest {
  method?: OtpChannel;
  phone?: string;
  email?: string;
  template_id?: number;
  /** A code chosen by the server; never let a browser choose it. */
  otp?: string;
  fallback_email?: string;
}

export interface VerifyOtpRequest {
  phone?: string;
  email?: string;
  otp: string;
}

export interface FaceRequest {
  user_id: string;
  registered_face_image: string;
  query_face_image: string;
}

export interface VoiceRequest {
  user_id: string;
  registered_audio: string;
  query_audio: string;
}

export interface CallOptions {
  signal?: AbortSignal;
}

export interface Balance {
  balance: number;
  message?: string;
}
export interface OtpSent {
  message?: string;
}
export interface OtpVerified {
  message?: string;
}
export interface Comparison {
  userId: string;
  match: boolean;
  message?: string;
}

export interface ServiceClient {
  balance(options?: CallOptions): Promise<Balance>;
  sendOtp(request: SendOtpRequest, options?: CallOptions): Promise<OtpSent>;
  /** Resolves only when the code is right; otherwise throws `wrong_code`, `code_expired`... */
  verifyOtp(request: VerifyOtpRequest, options?: CallOptions): Promise<OtpVerified>;
  /** A non-match resolves with `match: false`, whether the service said 200 or 422. */
  verifyByFace(request: FaceRequest, options?: CallOptions): Promise<Comparison>;
  verifyByVoice(request: VoiceRequest, options?: CallOptions): Promise<Comparison>;
}

export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const fetchImpl = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;

  async function call<T>(operation: Operation, method: 'GET' | 'POST', body: object | undefined, callOptions: CallOptions = {}): Promise<T> {
    const limit = deadline(timeoutMs, callOptions.signal);
    let response: Response;
    try {
      response = await fetchImpl(`${baseUrl}/${operation}`, {
        method,
        headers: {
          'X-Authorization': options.apiKey,
          Accept: 'application/json',
          'Content-Type': 'application/json',
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        // A redirect means the service did not take the request as JSON (DESIGN §2): never follow it.
        redirect: 'manual',
        signal: limit.signal,
      });
    } catch (error) {
      limit.clear();
      if (callOptions.signal?.aborted) throw callOptions.signal.reason ?? error;
      const { timedOut } = limit;
      throw new ServiceError({
        code: 'upstream_unavailable',
        status: 0,
        fault: timedOut ? 'timeout' : 'network',
        message: timedOut ? `The service did not answer within ${timeoutMs} ms.` : 'The service could not be reached.',
      });
    }
    // The deadline covers the answer's body too.
    try {
      return (await interpret(operation, response)) as T;
    } finally {
      limit.clear();
    }
  }

  return {
    balance: (o) => call('balance', 'GET', undefined, o),
    sendOtp: (request, o) => call('send-otp', 'POST', request, o),
    verifyOtp: (request, o) => call('verify-otp', 'POST', request, o),
    verifyByFace: (request, o) => call('verify-by-face', 'POST', request, o),
    verifyByVoice: (request, o) => call('verify-by-voice', 'POST', request, o),
  };
}

async function interpret(operation: Operation, response: Response): Promise<Parsed> {
  const { status } = response;
  if (response.type === 'opaqueredirect' || (status >= 300 && status < 400)) {
    await response.body?.cancel();
    throw new ServiceError({ code: 'upstream_unavailable', status, fault: 'redirect', message: `The service answered with a redirect (${status}).` });
  }
  const body = parseJsonBody(await response.text().catch(() => ''));
  const retryAfter = retryAfterSeconds(response.headers.get('retry-after'));
  if (status >= 200 && status < 300) {
    if (body === undefined) throw new ServiceError({ code: 'upstream_unavailable', status, fault: 'not_json', message: 'The service answered with a body that is not JSON.' });
    const result = parseResult(operation, body);
    if (result) return result;
  }
  const failure = classifyFailure(operation, status, body, retryAfter);
  if (failure instanceof ServiceError) throw failure;
  return failure;
}
