import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { KEY, cameraCapture, control, microphoneCapture } from '../helpers.js';
import { ORIGIN, codeSentTo, setup } from './handler-setup.js';

describe('handler: what the browser cannot choose', () => {
  let t: Awaited<ReturnType<typeof setup>>;
  before(async () => {
    t = await setup({ limits: { resendCooldownSeconds: 0 }, allowReenrollment: true });
    t.references.set('alice:face', cameraCapture('obama_1'));
    t.references.set('alice:voice', microphoneCapture('spk1688_M_1'));
    await t.prove('alice');
  });
  after(() => t.close());

  const refused: [field: string, route: string, body: Record<string, unknown>][] = [
    ['otp', 'send-otp', { method: 'sms', phone: '+966501234567', otp: '123456' }],
    ['user_id', 'send-otp', { method: 'sms', phone: '+966501234567', user_id: 'bob' }],
    ['template_id', 'send-otp', { method: 'sms', phone: '+966501234567', template_id: 3 }],
    ['fallback_email', 'send-otp', { method: 'sms', phone: '+966501234567', fallback_email: 'x@evil.test' }],
    ['user_id', 'verify-by-face', { query_face_image: cameraCapture('biden_1'), user_id: 'bob' }],
    ['registered_face_image', 'verify-by-face', { query_face_image: cameraCapture('biden_1'), registered_face_image: cameraCapture('biden_1') }],
    ['registered_audio', 'verify-by-voice', { query_audio: microphoneCapture('spk2033_M_1'), registered_audio: microphoneCapture('spk2033_M_1') }],
    ['user_id', 'enroll-voice', { audio: microphoneCapture('spk2033_M_1'), user_id: 'bob' }],
  ];
  for (const [field, route, body] of refused) {
    it(`refuses ${field} on ${route}, naming it, and nothing reaches the service`, async () => {
      const before = t.upstream.length;
      const res = await t.call(route, body, { user: 'alice' });
      assert.equal(res.status, 400);
      assert.equal(res.json.error.code, 'invalid_input');
      assert.equal(res.json.error.field, field);
      assert.equal(t.upstream.length, before);
    });
  }

  /** The one request `action` made of the service (it fails if there is not exactly one). */
  async function onlyUpstream(path: string, action: () => Promise<unknown>) {
    const before = t.upstream.length;
    await action();
    const made = t.upstream.slice(before);
    assert.deepEqual(made.map((u) => u.path), [`/api/v2/${path}`]);
    return made[0]!;
  }

  it('ignores an X-Authorization header from the browser: the service sees the host key', async () => {
    const sent = await onlyUpstream('send-otp', () => t.call('send-otp', { method: 'email', email: 'h@example.com' }, { headers: { 'x-authorization': 'attacker-key' } }));
    assert.equal(sent.headers.get('x-authorization'), KEY);
  });

  it("compares with the signed-in user's own reference, whoever the browser says it is", async () => {
    let res: Awaited<ReturnType<typeof t.call>> | undefined;
    const sent = await onlyUpstream('verify-by-face', async () => (res = await t.call('verify-by-face', { query_face_image: cameraCapture('biden_1') }, { user: 'alice' })));
    assert.equal(res!.json.error.code, 'no_match');
    assert.equal(sent.body!.user_id, 'alice');
    assert.equal(sent.body!.registered_face_image, t.references.get('alice:face'));
  });

  it('the code that reaches the service on verify is the one typed; send never carries one', async () => {
    const send = await onlyUpstream('send-otp', () => t.call('send-otp', { method: 'email', email: 'c@example.com' }));
    assert.equal(send.body!.otp, undefined);
    const code = await codeSentTo(t.emu, 'c@example.com');
    const typed = code === '000000' ? '111111' : '000000';
    const wrong = await onlyUpstream('verify-otp', () => t.call('verify-otp', { email: 'c@example.com', otp: typed }));
    assert.equal(wrong.body!.otp, typed);
    const right = await onlyUpstream('verify-otp', () => t.call('verify-otp', { email: 'c@example.com', otp: code }));
    assert.equal(right.body!.otp, code);
    assert.equal(right.body!.email, 'c@example.com');
  });
});

describe('handler: request checks before any work', () => {
  let t: Awaited<ReturnType<typeof setup>>;
  before(async () => (t = await setup({ limits: { maxJsonBytes: 1024 } })));
  after(() => t.close());

  it('answers 413 to an oversized body before parsing it (declared length)', async () => {
    const res = await t.call('send-otp', `{"method": "email", "email": "${'x'.repeat(5000)}`);
    assert.equal(res.status, 413);
    assert.equal(res.json.error.code, 'invalid_input');
  });

  it('answers 413 to an oversized streamed body with no declared length', async () => {
    const chunks = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 10; i++) controller.enqueue(new TextEncoder().encode(' '.repeat(1000)));
        controller.close();
      },
    });
    const request = new Request(`${ORIGIN}/verify/send-otp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ORIGIN, 'x-test-session': 's' },
      body: chunks,
      duplex: 'half',
    } as RequestInit);
    assert.equal((await t.handler(request)).status, 413);
  });

  it('refuses another origin, a cross-site request without Origin, and a missing required header', async () => {
    assert.equal((await t.call('send-otp', { method: 'email', email: 'a@example.com' }, { origin: 'https://evil.test' })).json.error.code, 'forbidden');
    const crossSite = await t.call('send-otp', { method: 'email', email: 'a@example.com' }, { origin: null, headers: { 'sec-fetch-site': 'cross-site' } });
    assert.equal(crossSite.status, 403);
    const strict = await setup({ requiredHeader: 'x-csrf-token', allowedOrigins: ['https://shop.test'] });
    try {
      assert.equal((await strict.call('send-otp', { method: 'email', email: 'a@example.com' }, { origin: 'https://shop.test' })).status, 403);
      const ok = await strict.call('send-otp', { method: 'email', email: 'a@example.com' }, { origin: 'https://shop.test', headers: { 'x-csrf-token': 't' } });
      assert.equal(ok.status, 200);
    } finally {
      await strict.close();
    }
  });

  it('compares Origin with the host the browser addressed, as frameworks and proxies pass it on', async () => {
    // Next.js rebuilds request.url from its listening address; the Host header says what the browser asked.
    const asNext = (origin: string, headers: Record<string, string>) =>
      t.handler(new Request('http://localhost:3000/verify/send-otp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin, 'x-test-session': 'next', ...headers },
        body: JSON.stringify({ method: 'email', email: 'next@example.com' }),
      }));
    assert.equal((await asNext('https://shop.example', { host: 'shop.example' })).status, 200);
    assert.equal((await asNext('https://evil.example', { host: 'shop.example' })).status, 403);
    // X-Forwarded-Host counts only when the host says its proxies set it.
    assert.equal((await asNext('https://shop.example', { host: 'app:3000', 'x-forwarded-host': 'shop.example' })).status, 403);
    const proxied = await setup({ trustProxy: 1 });
    try {
      const res = await proxied.handler(new Request('http://app:3000/verify/send-otp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'https://shop.example', host: 'app:3000', 'x-forwarded-host': 'shop.example', 'x-test-session': 'p' },
        body: JSON.stringify({ method: 'email', email: 'proxied@example.com' }),
      }));
      assert.equal(res.status, 200);
    } finally {
      await proxied.close();
    }
  });

  it('answers 415, 405 and 404 with the stable shape', async () => {
    const text = await t.handler(new Request(`${ORIGIN}/verify/send-otp`, { method: 'POST', headers: { origin: ORIGIN, 'content-type': 'text/plain' }, body: 'hi' }));
    assert.equal(text.status, 415);
    assert.equal((await t.call('send-otp')).status, 405);
    const missing = await t.call('nope', {});
    assert.deepEqual([missing.status, missing.json.error.code], [404, 'invalid_input']);
  });
});

describe("handler: the service's errors, mapped and never forwarded", () => {
  let t: Awaited<ReturnType<typeof setup>>;
  before(async () => (t = await setup({ limits: { resendCooldownSeconds: 0 }, upstreamTimeoutMs: 300 })));
  after(() => t.close());
  const send = () => t.call('send-otp', { method: 'sms', phone: '+966501234567' });

  it('5xx: upstream_unavailable (502), and the send is not repeated', async () => {
    await control(t.emu.origin, 'POST', 'faults', { kind: 'error', route: 'send-otp', times: 1 });
    const before = t.calls('send-otp');
    const res = await send();
    assert.deepEqual([res.status, res.json.error.code], [502, 'upstream_unavailable']);
    assert.equal(t.calls('send-otp'), before + 1);
  });

  it('a hang past the timeout: 504, and the send is not repeated', async () => {
    await control(t.emu.origin, 'POST', 'faults', { kind: 'hang', route: 'send-otp', times: 1 });
    const before = t.calls('send-otp');
    const res = await send();
    assert.deepEqual([res.status, res.json.error.code], [504, 'upstream_unavailable']);
    assert.equal(t.calls('send-otp'), before + 1);
  });

  it('429 from the service: rate_limited with its Retry-After', async () => {
    await control(t.emu.origin, 'POST', 'faults', { kind: 'rate-limit', retryAfter: 12, route: 'send-otp', times: 1 });
    const res = await send();
    assert.deepEqual([res.status, res.json.error.code, res.headers.get('retry-after')], [429, 'rate_limited', '12']);
  });

  it('402 from the service: insufficient_credits, without its balance figures', async () => {
    await control(t.emu.origin, 'PUT', 'balance', { balance: 0 });
    const res = await send();
    assert.deepEqual([res.status, res.json.error.code], [402, 'insufficient_credits']);
    assert.doesNotMatch(JSON.stringify(res.json), /balance is 0|costs/);
    await control(t.emu.origin, 'PUT', 'balance', { balance: 100 });
  });

  it("a wrong API key: the person sees upstream_unavailable, not the service's 'Unauthorized'", async () => {
    const bad = await setup({ apiKey: 'wrong', limits: { resendCooldownSeconds: 0 } });
    try {
      const res = await bad.call('send-otp', { method: 'email', email: 'a@example.com' });
      assert.deepEqual([res.status, res.json.error.code], [502, 'upstream_unavailable']);
      assert.doesNotMatch(res.json.error.message, /Unauthorized/);
    } finally {
      await bad.close();
    }
  });

  it('a failing host hook is a 503 in the stable shape, never a 500', async () => {
    const broken = await setup({ getUser: () => { throw new Error('db down: secret detail'); } });
    try {
      const res = await broken.call('verify-by-face', { query_face_image: cameraCapture('obama_1') });
      assert.deepEqual([res.status, res.json.error.code], [503, 'upstream_unavailable']);
      assert.doesNotMatch(JSON.stringify(res.json), /secret detail/);
    } finally {
      await broken.close();
    }
  });
});

describe('handler: logging', () => {
  it('logs route, status, code and time, never a code, key, identifier or media', async () => {
    const t = await setup({ limits: { resendCooldownSeconds: 0 } });
    try {
      t.references.set('u:face', cameraCapture('obama_1'));
      await t.call('send-otp', { method: 'sms', phone: '+966501234567' });
      const otp = await codeSentTo(t.emu, '+966501234567');
      await t.call('verify-otp', { phone: '+966501234567', otp: '000000' });
      await t.call('verify-otp', { phone: '+966501234567', otp });
      const image = cameraCapture('obama_1');
      await t.call('verify-by-face', { query_face_image: image }, { user: 'u' });
      const text = JSON.stringify(t.logs);
      assert.equal(t.logs.length, 4);
      assert.deepEqual(Object.keys(t.logs[0]!).sort(), ['channel', 'code', 'ms', 'route', 'status']);
      assert.deepEqual(t.logs.map((l) => l.channel), ['sms', 'phone', 'phone', undefined]);
      for (const secret of [otp, KEY, '+966501234567', '501234567', image.slice(100, 140)]) assert.ok(!text.includes(secret), secret);
    } finally {
      await t.close();
    }
  });
});
