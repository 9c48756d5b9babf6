import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServiceClient, ServiceError, type ServiceClient } from '../../../src/server/index.js';

interface Seen {
  url: string;
  init: RequestInit;
}

/** A client whose fetch answers with the given response and records what it was sent. */
function clientAnswering(answer: () => Response | Promise<Response>, timeoutMs?: number) {
  const seen: Seen[] = [];
  const fetchStub = (async (url: string, init: RequestInit) => {
    seen.push({ url, init });
    return answer();
  }) as unknown as typeof fetch;
  return { client: createServiceClient({ baseUrl: 'https://svc.example/api/v2/', apiKey: 'k-123', fetch: fetchStub, timeoutMs }), seen };
}

const jsonResponse = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

const FACE = { user_id: 'u1', registered_face_image: 'AAAA', query_face_image: 'BBBB' };
const VOICE = { user_id: 'u1', registered_audio: 'AAAA', query_audio: 'BBBB' };

async function rejectsWith(promise: Promise<unknown>, expected: Partial<ServiceError>) {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof ServiceError, `expected a ServiceError, got ${error}`);
    for (const [key, value] of Object.entries(expected)) assert.deepEqual(error[key as keyof ServiceError], value, key);
    return true;
  });
}

describe('service client: requests', () => {
  it('sends the key, JSON headers and body, and never follows redirects', async () => {
    const { client, seen } = clientAnswering(() => jsonResponse(200, { success: true, data: null, message: 'sent' }));
    await client.sendOtp({ method: 'sms', phone: '+966501234567', template_id: 2 });
    const [{ url, init }] = seen as [Seen];
    assert.equal(url, 'https://svc.example/api/v2/send-otp');
    assert.equal(init.method, 'POST');
    assert.equal(init.redirect, 'manual');
    assert.deepEqual(init.headers, { 'X-Authorization': 'k-123', Accept: 'application/json', 'Content-Type': 'application/json' });
    assert.deepEqual(JSON.parse(init.body as string), { method: 'sms', phone: '+966501234567', template_id: 2 });
  });

  it('reads the balance with GET and no body', async () => {
    const { client, seen } = clientAnswering(() => jsonResponse(200, { success: true, data: { balance: 91 }, message: 'ok' }));
    assert.deepEqual(await client.balance(), { balance: 91, message: 'ok' });
    assert.equal(seen[0]!.init.method, 'GET');
    assert.equal(seen[0]!.init.body, undefined);
  });
});

describe('service client: success shapes of DESIGN §2', () => {
  const cases: [string, unknown, (c: ServiceClient) => Promise<unknown>, unknown][] = [
    ['send-otp {success, data: null, message}', { success: true, data: null, message: 'OTP sent' }, (c) => c.sendOtp({ method: 'email', email: 'a@b.co' }), { message: 'OTP sent' }],
    ['verify-otp {status: true}', { status: true, message: 'OTP verified' }, (c) => c.verifyOtp({ phone: '+966501234567', otp: '1234' }), { message: 'OTP verified' }],
    ['balance as a number', { success: true, data: { balance: 91 }, message: 'm' }, (c) => c.balance(), { balance: 91, message: 'm' }],
    ['balance as a string', { success: true, data: { balance: '91.00' }, message: 'm' }, (c) => c.balance(), { balance: 91, message: 'm' }],
    ['face result true', { success: true, data: { user_id: 'u1', result: true } }, (c) => c.verifyByFace(FACE), { userId: 'u1', match: true, message: undefined }],
    ['face result "True"', { success: true, data: { user_id: 'u1', result: 'True' } }, (c) => c.verifyByFace(FACE), { userId: 'u1', match: true, message: undefined }],
    ['voice result false', { success: true, data: { user_id: 'u1', result: false } }, (c) => c.verifyByVoice(VOICE), { userId: 'u1', match: false, message: undefined }],
    ['voice result "False"', { success: true, data: { user_id: 'u1', result: 'False' } }, (c) => c.verifyByVoice(VOICE), { userId: 'u1', match: false, message: undefined }],
  ];
  for (const [label, body, run, expected] of cases) {
    it(label, async () => {
      const { client } = clientAnswering(() => jsonResponse(200, body));
      assert.deepEqual(await run(client), expected);
    });
  }

  it('a face non-match answered as 422 {success: false} is a non-match, not an error', async () => {
    const { client } = clientAnswering(() => jsonResponse(422, { success: false, message: 'Faces do not match' }));
    assert.deepEqual(await client.verifyByFace(FACE), { userId: '', match: false, message: 'Faces do not match' });
  });
});

describe('service client: failure shapes of DESIGN §2', () => {
  // A stubbed hanging fetch holds no socket, and AbortSignal.timeout's timer does not keep Node's
  // event loop alive: hold it open so the test waits for the timeout as a real server would.
  let keepAlive: NodeJS.Timeout;
  before(() => (keepAlive = setInterval(() => {}, 1000)));
  after(() => clearInterval(keepAlive));

  const cases: [string, () => Response, (c: ServiceClient) => Promise<unknown>, Partial<ServiceError>][] = [
    ['wrong OTP as 422 {status: false}', () => jsonResponse(422, { status: false, message: 'Failed to verify OTP' }), (c) => c.verifyOtp({ phone: '+966501234567', otp: '1' }), { code: 'wrong_code', status: 422, messages: ['Failed to verify OTP'] }],
    ['expired OTP with the emulator reason', () => jsonResponse(422, { status: false, message: 'Failed to verify OTP', reason: 'expired' }), (c) => c.verifyOtp({ email: 'a@b.co', otp: '1' }), { code: 'code_expired' }],
    ['locked OTP with the emulator reason', () => jsonResponse(422, { status: false, message: 'Failed to verify OTP', reason: 'locked' }), (c) => c.verifyOtp({ email: 'a@b.co', otp: '1' }), { code: 'too_many_attempts' }],
    ['a face without a face, as 422', () => jsonResponse(422, { success: false, message: 'No face detected in the image' }), (c) => c.verifyByFace(FACE), { code: 'bad_sample', status: 422 }],
    ['401 errors array', () => jsonResponse(401, { errors: [{ message: 'Unauthorized' }] }), (c) => c.balance(), { code: 'unauthorized', status: 401, messages: ['Unauthorized'] }],
    ['429 with Retry-After', () => jsonResponse(429, { message: 'Too Many Attempts.' }, { 'retry-after': '42' }), (c) => c.sendOtp({ method: 'email', email: 'a@b.co' }), { code: 'rate_limited', retryAfter: 42 }],
    ['402 insufficient credits', () => jsonResponse(402, { success: false, message: 'Insufficient credits' }), (c) => c.sendOtp({ method: 'sms', phone: '+966501234567' }), { code: 'insufficient_credits' }],
    ['insufficient balance said in a 400', () => jsonResponse(400, { success: false, message: 'Your balance is insufficient' }), (c) => c.verifyByVoice(VOICE), { code: 'insufficient_credits' }],
    ['Laravel validation errors object', () => jsonResponse(422, { message: 'The phone field is required.', errors: { phone: ['The phone field is required.'] } }), (c) => c.sendOtp({ method: 'sms' }), { code: 'invalid_input', messages: ['The phone field is required.'] }],
    ['emulator validation on the query sample', () => jsonResponse(422, { success: false, message: 'bad', errors: [{ field: 'query_audio', message: 'bad' }] }), (c) => c.verifyByVoice(VOICE), { code: 'bad_sample' }],
    ['302 redirect to an HTML page', () => new Response('<html>Redirecting</html>', { status: 302, headers: { location: '/' } }), (c) => c.sendOtp({ method: 'sms' }), { code: 'upstream_unavailable', status: 302, fault: 'redirect', ambiguous: false }],
    ['200 with an HTML body', () => new Response('<!DOCTYPE html><html></html>', { status: 200, headers: { 'content-type': 'text/html' } }), (c) => c.verifyOtp({ email: 'a@b.co', otp: '1' }), { code: 'upstream_unavailable', fault: 'not_json' }],
    ['422 with an HTML body', () => new Response('<html>error</html>', { status: 422 }), (c) => c.verifyOtp({ email: 'a@b.co', otp: '1' }), { code: 'upstream_unavailable', fault: 'not_json' }],
    ['500 with an HTML body', () => new Response('<html>Server Error</html>', { status: 500 }), (c) => c.sendOtp({ method: 'sms' }), { code: 'upstream_unavailable', fault: 'server_error', ambiguous: true }],
    ['200 with an unknown JSON shape', () => jsonResponse(200, { ok: 1 }), (c) => c.balance(), { code: 'upstream_unavailable', fault: 'bad_shape' }],
    ['404 from a wrong base URL', () => jsonResponse(404, { message: 'Not Found' }), (c) => c.balance(), { code: 'upstream_unavailable', fault: 'unexpected_status' }],
    ['200 {success: false} on send', () => jsonResponse(200, { success: false, message: 'Invalid phone' }), (c) => c.sendOtp({ method: 'sms' }), { code: 'invalid_input' }],
  ];
  for (const [label, answer, run, expected] of cases) {
    it(label, async () => {
      const { client } = clientAnswering(answer);
      await rejectsWith(run(client), expected);
    });
  }

  it('an opaque redirect (browser-style fetch) is a fault too', async () => {
    const opaque = { type: 'opaqueredirect', status: 0, headers: new Headers(), body: null, text: async () => '' } as unknown as Response;
    const { client } = clientAnswering(() => opaque);
    await rejectsWith(client.balance(), { fault: 'redirect' });
  });

  it('times out through AbortSignal, as an ambiguous failure', async () => {
    const hanging = (_url: string, init: RequestInit) =>
      new Promise<Response>((_resolve, reject) => init.signal!.addEventListener('abort', () => reject(init.signal!.reason)));
    const client = createServiceClient({ baseUrl: 'https://svc.example/api/v2', apiKey: 'k', timeoutMs: 50, fetch: hanging as unknown as typeof fetch });
    await rejectsWith(client.sendOtp({ method: 'sms', phone: '+966501234567' }), { code: 'upstream_unavailable', status: 0, fault: 'timeout', ambiguous: true });
  });

  it('a network failure is an ambiguous upstream_unavailable', async () => {
    const { client } = clientAnswering(() => Promise.reject(new TypeError('fetch failed')));
    await rejectsWith(client.balance(), { fault: 'network', ambiguous: true });
  });

  it("the caller's own abort is passed through, not turned into a service error", async () => {
    const controller = new AbortController();
    const hanging = (_url: string, init: RequestInit) =>
      new Promise<Response>((_resolve, reject) => init.signal!.addEventListener('abort', () => reject(init.signal!.reason)));
    const client = createServiceClient({ baseUrl: 'https://svc.example/api/v2', apiKey: 'k', fetch: hanging as unknown as typeof fetch });
    const pending = client.balance({ signal: controller.signal });
    controller.abort(new Error('gone'));
    await assert.rejects(pending, /gone/);
  });
});
