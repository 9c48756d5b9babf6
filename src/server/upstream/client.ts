/**
 * Typed client for the authentication service (shared/service-api.md), tolerant of every shape the
 * live service has been seen to answer (demo/pages/emulator.md, live quirks). Server-side only: it carries the API key.
 */
import { deadline } from '../../core/deadline.js';
import { READ_WHOLE, textOf, type ReadWhole, type WholeAnswer } from '../../core/http.js';
import { ServiceError } from './errors.js';
import type { Balance, CallOptions, Comparison, FaceRequest, OtpSent, OtpVerified, SendOtpRequest, ServiceClient, ServiceClientOptions, VerifyOtpRequest, VoiceRequest } from './types.js';
import { classifyFailure, parseJsonBody, parseResult, retryAfterSeconds, type Operation, type Parsed } from './parse.js';


export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const fetchImpl = options.fetch ?? fetch;
  const readWhole = (fetchImpl as { [READ_WHOLE]?: ReadWhole })[READ_WHOLE] ?? (async (url, init) => wholeOf(await fetchImpl(url, init)));
  const timeoutMs = options.timeoutMs ?? 10_000;

  async function call<T>(operation: Operation, method: 'GET' | 'POST', body: object | undefined, callOptions: CallOptions = {}): Promise<T> {
    const limit = deadline(timeoutMs, callOptions.signal);
    let answer: WholeAnswer;
    try {
      // The deadline covers the answer's body too.
      answer = await readWhole(`${baseUrl}/${operation}`, {
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
    limit.clear();
    return interpret(operation, answer) as T;
  }

  return {
    balance: (o) => call('balance', 'GET', undefined, o),
    sendOtp: (request, o) => call('send-otp', 'POST', request, o),
    verifyOtp: (request, o) => call('verify-otp', 'POST', request, o),
    verifyByFace: (request, o) => call('verify-by-face', 'POST', request, o),
    verifyByVoice: (request, o) => call('verify-by-voice', 'POST', request, o),
  };
}

/** A Response's answer: its text, or none for a redirect (not followed, not read). */
async function wholeOf(response: Response): Promise<WholeAnswer> {
  const redirect = response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400);
  if (redirect) await response.body?.cancel();
  // A body that fails half read is an answer without JSON.
  const text = redirect ? '' : await textOf(response).catch(() => '');
  return { status: redirect ? response.status || 302 : response.status, header: (name) => response.headers.get(name), text };
}

function interpret(operation: Operation, answer: WholeAnswer): Parsed {
  const { status } = answer;
  if (status >= 300 && status < 400) {
    throw new ServiceError({ code: 'upstream_unavailable', status, fault: 'redirect', message: `The service answered with a redirect (${status}).` });
  }
  const body = parseJsonBody(answer.text);
  const retryAfter = retryAfterSeconds(answer.header('retry-after'));
  if (status >= 200 && status < 300) {
    if (body === undefined) throw new ServiceError({ code: 'upstream_unavailable', status, fault: 'not_json', message: 'The service answered with a body that is not JSON.' });
    const result = parseResult(operation, body);
    if (result) return result;
  }
  const failure = classifyFailure(operation, status, body, retryAfter);
  if (failure instanceof ServiceError) throw failure;
  return failure;
}
