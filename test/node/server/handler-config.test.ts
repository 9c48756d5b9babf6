import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cameraCapture, control, KEY, microphoneCapture } from '../helpers.js';
import { codeSentTo, setup } from './handler-setup.js';
import { startEmulator } from '../../../src/emulator/index.js';
import { createVerifyHandler } from '../../../src/server/index.js';

describe('handler: config', () => {
  it('tells the widget its channels, countries, limits and enrolment, nothing secret', async () => {
    const t = await setup({ allowedChannels: ['sms', 'email'], allowedCountries: ['sa', 'AE'], codeLength: 6 });
    try {
      t.references.set('u:face', cameraCapture('obama_1'));
      const res = await t.call('config', undefined, { user: 'u' });
      assert.deepEqual(res.json, {
        channels: ['sms', 'email'],
        countries: { SA: '966', AE: '971' },
        codeLength: 6,
        resendCooldown: 30,
        maxWrongCodes: 5,
        fallbackChannel: 'email',
        enrolled: { face: true, voice: false },
        canEnroll: true,
        needsProof: true,
        pending: null,
        handoff: true,
      });
      assert.equal((await t.call('config', undefined, { session: 'anon' })).json.enrolled, null);
      assert.doesNotMatch(JSON.stringify(res.json), /dev-key|test-key|secret/i);
    } finally {
      await t.close();
    }
  });

  it('refuses phones outside the allowed countries', async () => {
    const t = await setup({ allowedCountries: ['AE'] });
    try {
      const res = await t.call('send-otp', { method: 'sms', phone: '+966501234567' });
      assert.deepEqual([res.json.error.code, res.json.error.field], ['invalid_input', 'phone']);
      assert.equal((await t.call('send-otp', { method: 'sms', phone: '+971501234567' })).status, 200);
    } finally {
      await t.close();
    }
  });

  it('hides paid channels below the balance threshold, keeps email, tells the host once, reads /balance once a minute', async () => {
    const alerts: number[] = [];
    const t = await setup({ lowBalanceThreshold: 10, onLowBalance: (balance) => void alerts.push(balance), limits: { resendCooldownSeconds: 0 } });
    try {
      assert.deepEqual((await t.call('config')).json.channels, ['sms', 'whatsapp', 'email']);
      await control(t.emu.origin, 'PUT', 'balance', { balance: 5 });
      // Still cached: a minute has not passed.
      assert.deepEqual((await t.call('config')).json.channels, ['sms', 'whatsapp', 'email']);
      assert.equal(t.calls('balance'), 1);
      // A minute later the balance is read again, once, and the low balance shows and is told.
      const now = Date.now;
      Date.now = () => now() + 61_000;
      try {
        assert.deepEqual((await t.call('config')).json.channels, ['email']);
        assert.deepEqual((await t.call('config')).json.channels, ['email']);
      } finally {
        Date.now = now;
      }
      assert.equal(t.calls('balance'), 2);
      assert.deepEqual(alerts, [5]);
      alerts.length = 0;
      const fresh = await setup({ lowBalanceThreshold: 10, onLowBalance: (balance) => void alerts.push(balance) });
      try {
        await control(fresh.emu.origin, 'PUT', 'balance', { balance: 5 });
        assert.deepEqual((await fresh.call('config')).json.channels, ['email']);
        await fresh.call('config');
        assert.deepEqual(alerts, [5]);
        const sms = await fresh.call('send-otp', { method: 'sms', phone: '+966501234567' });
        assert.deepEqual([sms.status, sms.json.error.code], [402, 'insufficient_credits']);
        assert.equal((await fresh.call('send-otp', { method: 'email', email: 'a@example.com' })).status, 200);
        assert.equal(fresh.calls('balance'), 1);
      } finally {
        await fresh.close();
      }
    } finally {
      await t.close();
    }
  });
});

describe('handler: every route gives the stable shape against the live-quirks emulator', () => {
  it('config, send, verify (right and wrong), face and voice (match and not), enrolment', async () => {
    const t = await setup({ limits: { resendCooldownSeconds: 0 } }, { quirks: true });
    try {
      const shapes: Record<string, unknown> = {};
      shapes.config = Object.keys((await t.call('config', undefined, { user: 'q' })).json).length;
      shapes.send = (await t.call('send-otp', { method: 'sms', phone: '+966501234567' })).json.sent;
      shapes.wrong = (await t.call('verify-otp', { phone: '+966501234567', otp: '0000' })).json.error.code;
      shapes.right = (await t.call('verify-otp', { phone: '+966501234567', otp: await codeSentTo(t.emu, '+966501234567') })).json.verified;
      await t.prove('q');
      shapes.enrollFace = (await t.call('enroll-face', { face_image: cameraCapture('obama_1') }, { user: 'q' })).json.enrolled;
      shapes.faceMatch = (await t.call('verify-by-face', { query_face_image: cameraCapture('obama_1', 320) }, { user: 'q' })).json.verified;
      shapes.faceNoMatch = (await t.call('verify-by-face', { query_face_image: cameraCapture('rose_leslie_1') }, { user: 'q' })).json.error.code;
      shapes.enrollVoice = (await t.call('enroll-voice', { audio: microphoneCapture('spk3080_F_1') }, { user: 'q' })).json.enrolled;
      shapes.voiceMatch = (await t.call('verify-by-voice', { query_audio: microphoneCapture('spk3080_F_1', 5, 0.2) }, { user: 'q' })).json.verified;
      shapes.voiceNoMatch = (await t.call('verify-by-voice', { query_audio: microphoneCapture('spk1998_F_1') }, { user: 'q' })).json.error.code;
      assert.deepEqual(shapes, {
        config: 11,
        send: true,
        wrong: 'wrong_code',
        right: true,
        enrollFace: true,
        faceMatch: true,
        faceNoMatch: 'no_match',
        enrollVoice: true,
        voiceMatch: true,
        voiceNoMatch: 'no_match',
      });
    } finally {
      await t.close();
    }
  });
});

describe('handler: options read on the first request', () => {
  it('is created without secrets (as a build imports it), answers 503 and says why while they are missing, then works once they are there', async (t) => {
    const emu = await startEmulator({ apiKeys: [KEY] });
    const errors = t.mock.method(console, 'error', () => {});
    try {
      const env: { secret?: string } = {};
      const handler = createVerifyHandler(() => ({
        baseUrl: emu.baseUrl,
        apiKey: KEY,
        basePath: '/verify',
        receiptSecret: env.secret as string,
        allowedChannels: ['email'],
        getUser: () => 'sara',
        getClientIp: () => '127.0.0.1',
      }));
      const send = () =>
        handler(new Request('http://app.test/verify/send-otp', { method: 'POST', headers: { 'content-type': 'application/json', origin: 'http://app.test' }, body: JSON.stringify({ method: 'email', email: 'lazy@example.com' }) }));
      const refused = await send();
      assert.equal(refused.status, 503);
      assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'upstream_unavailable');
      assert.match(String(errors.mock.calls[0]?.arguments[0]), /options were refused: receiptSecret must be/);
      env.secret = 'lazy-receipt-secret-0123456789abcdefgh';
      assert.equal((await send()).status, 200);
      await assert.rejects(handler.verifyReceipt('x.y.z', { anyUser: true }), { reason: 'malformed' });
    } finally {
      await emu.close();
    }
  });
});
