/**
 * Each live quirk on its own (DESIGN §2): what the emulator answers with only that flag on, what the
 * service client makes of it, and what the host handler in front of it answers.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startEmulator, type RunningEmulator } from '../../../src/emulator/index.js';
import { LIVE_QUIRKS, QUIRKS, resolveQuirks } from '../../../src/emulator/quirks.js';
import { createServiceClient } from '../../../src/server/index.js';
import { KEY, callService, cameraCapture, latestCode, microphoneCapture, stillImage } from '../helpers.js';
import { codeSentTo, setup } from '../server/handler-setup.js';

/** A fetch standing for a proxy that drops the Accept header on its way to the service. */
const withoutAccept: typeof fetch = (url, init) => {
  const headers = new Headers(init?.headers);
  headers.delete('accept');
  return fetch(url, { ...init, headers });
};

describe('quirk flags', () => {
  it('resolve one by one, by preset, and refuse an unknown name', () => {
    assert.deepEqual(resolveQuirks('string-balance,face-422'), ['string-balance', 'face-422']);
    assert.deepEqual(resolveQuirks(['live']), LIVE_QUIRKS);
    assert.deepEqual(resolveQuirks(true), QUIRKS);
    assert.deepEqual(resolveQuirks(false), []);
    assert.ok(!LIVE_QUIRKS.includes('string-result'), 'the live preset answers result as a boolean');
    assert.throws(() => resolveQuirks('string-balance,fast-mode'), /unknown quirk "fast-mode"; known: redirect-without-accept/);
  });
});

describe('quirk redirect-without-accept', () => {
  let emu: RunningEmulator;
  before(async () => (emu = await startEmulator({ apiKeys: [KEY], quirks: ['redirect-without-accept'] })));
  after(() => emu.close());

  it('emulator: a validation failure without Accept is a 302 to an HTML page; with it, a 422', async () => {
    const redirected = await callService(emu.baseUrl, 'send-otp', { method: 'sms' }, KEY, false);
    assert.equal(redirected.status, 302);
    assert.equal((await fetch(redirected.headers.get('location')!)).headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal((await callService(emu.baseUrl, 'send-otp', { method: 'sms' })).status, 422);
  });

  it('client: the redirect is an upstream fault, never a success', async () => {
    const client = createServiceClient({ baseUrl: emu.baseUrl, apiKey: KEY, fetch: withoutAccept });
    await assert.rejects(client.sendOtp({ method: 'sms', phone: 'not a phone' }), { code: 'upstream_unavailable', fault: 'redirect' });
  });

  it('handler: a send the service redirects answers a 5xx with a reason, and no code is claimed sent', async () => {
    const t = await setup({ fetch: withoutAccept, templateId: 99 }, { quirks: ['redirect-without-accept'] });
    try {
      const res = await t.call('send-otp', { method: 'email', email: 'a@example.com' });
      assert.ok(res.status >= 500 && res.status < 600, `status ${res.status}`);
      assert.equal(res.json.error.code, 'upstream_unavailable');
      // A redirect is the service refusing the request: the widget is not told a code may be on its
      // way, and the session may ask again at once (no cooldown held for a send that never was).
      assert.equal(res.json.error.maybeSent, undefined, JSON.stringify(res.json));
      assert.equal(res.headers.get('retry-after'), null);
      assert.deepEqual(t.emu.state.outbox.list('a@example.com'), []);
      assert.equal((await t.call('send-otp', { method: 'email', email: 'a@example.com' })).json.error?.code, 'upstream_unavailable', 'the second send is not held by a cooldown');
    } finally {
      await t.close();
    }
  });
});

describe('quirk string-balance', () => {
  it('emulator answers "100.00"; the client reads 100; the handler hides paid channels below its threshold', async () => {
    const emu = await startEmulator({ apiKeys: [KEY], quirks: ['string-balance'] });
    try {
      assert.equal((await callService(emu.baseUrl, 'balance')).json.data.balance, '100.00');
      assert.equal((await createServiceClient({ baseUrl: emu.baseUrl, apiKey: KEY }).balance()).balance, 100);
    } finally {
      await emu.close();
    }
    const t = await setup({ lowBalanceThreshold: 10 }, { quirks: ['string-balance'], startingBalance: 5 });
    try {
      assert.deepEqual((await t.call('config')).json.channels, ['email']);
    } finally {
      await t.close();
    }
  });
});

describe('quirk face-422', () => {
  let t: Awaited<ReturnType<typeof setup>>;
  before(async () => (t = await setup({}, { quirks: ['face-422'] })));
  after(() => t.close());
  const face = (query: string) => callService(t.emu.baseUrl, 'verify-by-face', { user_id: 'u', registered_face_image: stillImage('obama_1'), query_face_image: query });

  it('emulator: a non-match and a picture without a face answer 422 {success: false}; a match is 200 with true', async () => {
    assert.deepEqual(await face(stillImage('biden_1')).then((r) => [r.status, r.json]), [422, { success: false, message: 'Face verification failed: faces do not match' }]);
    assert.deepEqual(await face(stillImage('noface_rocket')).then((r) => [r.status, r.json]), [422, { success: false, message: 'No face detected in the image' }]);
    assert.deepEqual(await face(stillImage('obama_2')).then((r) => [r.status, r.json.data.result]), [200, true]);
  });

  it('client: the non-match is match false, the missing face a bad sample', async () => {
    const client = createServiceClient({ baseUrl: t.emu.baseUrl, apiKey: KEY });
    const request = (query: string) => client.verifyByFace({ user_id: 'u', registered_face_image: stillImage('obama_1'), query_face_image: query });
    assert.equal((await request(stillImage('biden_1'))).match, false);
    await assert.rejects(request(stillImage('noface_rocket')), { code: 'bad_sample' });
  });

  it('handler: no_match for another person, bad_sample for no face, a receipt for the same person', async () => {
    await t.prove('obama');
    await t.call('enroll-face', { face_image: cameraCapture('obama_1') }, { user: 'obama' });
    assert.equal((await t.call('verify-by-face', { query_face_image: stillImage('biden_1') }, { user: 'obama' })).json.error.code, 'no_match');
    assert.equal((await t.call('verify-by-face', { query_face_image: stillImage('noface_rocket') }, { user: 'obama' })).json.error.code, 'bad_sample');
    assert.equal((await t.call('verify-by-face', { query_face_image: stillImage('obama_2') }, { user: 'obama' })).json.verified, true);
  });
});

describe('quirk terse-otp-failure', () => {
  let t: Awaited<ReturnType<typeof setup>>;
  before(async () => (t = await setup({ limits: { resendCooldownSeconds: 0 } }, { quirks: ['terse-otp-failure'] })));
  after(() => t.close());

  it('emulator: a wrong code says only "Failed to verify OTP"', async () => {
    await callService(t.emu.baseUrl, 'send-otp', { method: 'email', email: 'terse@example.com', otp: '1234' });
    const res = await callService(t.emu.baseUrl, 'verify-otp', { email: 'terse@example.com', otp: '9999' });
    assert.deepEqual([res.status, res.json], [422, { status: false, message: 'Failed to verify OTP' }]);
  });

  it('client: a wrong code is wrong_code', async () => {
    const client = createServiceClient({ baseUrl: t.emu.baseUrl, apiKey: KEY });
    await client.sendOtp({ method: 'email', email: 'terse2@example.com' });
    await assert.rejects(client.verifyOtp({ email: 'terse2@example.com', otp: '000000' }), { code: 'wrong_code' });
    await client.verifyOtp({ email: 'terse2@example.com', otp: await latestCode(t.emu.origin, 'terse2@example.com') });
  });

  it('handler: a wrong code, then the right one', async () => {
    await t.call('send-otp', { method: 'sms', phone: '+966501234567' });
    assert.equal((await t.call('verify-otp', { phone: '+966501234567', otp: '000000' })).json.error.code, 'wrong_code');
    assert.equal((await t.call('verify-otp', { phone: '+966501234567', otp: await codeSentTo(t.emu, '+966501234567') })).json.verified, true);
  });
});

describe('quirk string-result', () => {
  let t: Awaited<ReturnType<typeof setup>>;
  before(async () => (t = await setup({}, { quirks: ['string-result'] })));
  after(() => t.close());
  const voice = (query: string) => ({ user_id: 'u', registered_audio: microphoneCapture('spk2033_M_1'), query_audio: query });

  it('emulator: result is "True" or "False"', async () => {
    assert.equal((await callService(t.emu.baseUrl, 'verify-by-voice', voice(microphoneCapture('spk2033_M_2')))).json.data.result, 'True');
    assert.equal((await callService(t.emu.baseUrl, 'verify-by-voice', voice(microphoneCapture('spk1688_M_1')))).json.data.result, 'False');
  });

  it('client: the strings become booleans', async () => {
    const client = createServiceClient({ baseUrl: t.emu.baseUrl, apiKey: KEY });
    assert.equal((await client.verifyByVoice(voice(microphoneCapture('spk2033_M_2')))).match, true);
    assert.equal((await client.verifyByVoice(voice(microphoneCapture('spk1688_M_1')))).match, false);
  });

  it('handler: "False" is no_match, never a receipt; "True" is a receipt', async () => {
    await t.prove('filippo');
    await t.call('enroll-voice', { audio: microphoneCapture('spk2033_M_1') }, { user: 'filippo' });
    assert.equal((await t.call('verify-by-voice', { query_audio: microphoneCapture('spk1688_M_1') }, { user: 'filippo' })).json.error.code, 'no_match');
    const ok = await t.call('verify-by-voice', { query_audio: microphoneCapture('spk2033_M_2') }, { user: 'filippo' });
    assert.equal((await t.handler.verifyReceipt(ok.json.receipt, { user: 'filippo', method: 'voice' })).sub, 'filippo');
  });
});
