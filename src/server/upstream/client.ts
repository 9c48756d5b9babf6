/**
 * Typed client for the authentication service (shared/service-api.md), tolerant of every shape the
 * live service has been seen to answer (demo/pages/emulator.md, live quirks). Server-side only: it carries the API key.
 */
import { deadline } from '../../core/deadline.js';
import { textOf } from '../../core/http.js';
import { ServiceError } from './errors.js';
import type { Balance, CallOptions, Comparison, FaceRequest, OtpSent, OtpVerified, SendOtpRequest, ServiceClient, ServiceClientOptions, VerifyOtpRequest, VoiceRequest } from './types.js';
import { classifyFailure, parseJsonBody, parseResult, retryAfterSeconds, type Operation, type Parsed } from './parse.js';


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
        // A redirect means the service did not take the request as JSON (demo/pages/emulator.md, live quirks): never follow it.
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
  const body = parseJsonBody(await textOf(response).catch(() => ''));
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
