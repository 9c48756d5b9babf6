import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startEmulator, type RunningEmulator } from '../../../src/emulator/index.js';
import { KEY, callService, control, latestCode } from '../helpers.js';

const PHONE = '+966501234567';

describe('emulator: send-otp', () => {
  let emu: RunningEmulator;
  before(async () => (emu = await startEmulator({ apiKeys: [KEY], undeliverable: ['+966500000000'] })));
  after(() => emu.close());
  beforeEach(() => control(emu.origin, 'DELETE', 'messages'));

  for (const method of ['sms', 'whatsapp'] as const) {
    it(`sends by ${method} to an E.164 phone`, async () => {
      const res = await callService(emu.baseUrl, 'send-otp', { method, phone: PHONE });
      assert.equal(res.status, 200);
      assert.deepEqual(res.json, { success: true, data: null, message: 'OTP sent successfully' });
      const [message] = emu.state.outbox.list(PHONE);
      assert.equal(message?.channel, method);
      assert.match(message!.code, /^\d{6}$/);
      assert.ok(message!.text.includes(message!.code));
    });
  }

  it('sends by email, free of charge', async () => {
    const before = emu.state.balance;
    const res = await callService(emu.baseUrl, 'send-otp', { method: 'email', email: 'Person@Example.com' });
    assert.equal(res.status, 200);
    assert.equal(emu.state.outbox.list('person@example.com')[0]?.channel, 'email');
    assert.equal(emu.state.balance, before);
  });

  it('uses the default channel when method is omitted', async () => {
    const res = await callService(emu.baseUrl, 'send-otp', { phone: PHONE });
    assert.equal(res.status, 200);
    assert.equal(emu.state.outbox.list(PHONE)[0]?.channel, 'sms');
  });

  it('renders the template by id and language', async () => {
    await callService(emu.baseUrl, 'send-otp', { method: 'sms', phone: PHONE, template_id: 2 });
    const [message] = emu.state.outbox.list(PHONE);
    assert.equal(message?.language, 'ar');
    assert.match(message!.text, /رمز التحقق/);
  });

  it('uses a caller-chosen code', async () => {
    await callService(emu.baseUrl, 'send-otp', { method: 'sms', phone: PHONE, otp: '4321' });
    assert.equal(await latestCode(emu.origin, PHONE), '4321');
  });

  it('falls back to email, with template 1 or 2 by the main template language (rule 5)', async () => {
    const res = await callService(emu.baseUrl, 'send-otp', {
      method: 'sms',
      phone: '+966500000000',
      template_id: 4,
      fallback_email: 'fallback@example.com',
    });
    assert.equal(res.status, 200);
    const [message] = emu.state.outbox.list('fallback@example.com');
    assert.equal(message?.fallback, true);
    assert.equal(message?.templateId, 2);
    const verify = await callService(emu.baseUrl, 'verify-otp', { phone: '+966500000000', otp: message!.code });
    assert.equal(verify.json.status, true);
  });

  const invalidCases: [string, object, string][] = [
    ['an unknown method', { method: 'fax', phone: PHONE }, 'method'],
    ['a phone missing for sms', { method: 'sms' }, 'phone'],
    ['a phone outside E.164', { method: 'sms', phone: '0501234567' }, 'phone'],
    ['an email missing for email', { method: 'email' }, 'email'],
    ['a malformed email', { method: 'email', email: 'no-at-sign' }, 'email'],
    ['an unknown template', { method: 'sms', phone: PHONE, template_id: 99 }, 'template_id'],
    ['a non-digit otp', { method: 'sms', phone: PHONE, otp: '12ab' }, 'otp'],
    ['a malformed fallback email', { method: 'sms', phone: PHONE, fallback_email: 'x' }, 'fallback_email'],
  ];
  for (const [label, body, field] of invalidCases) {
    it(`refuses ${label} with 422 naming the field`, async () => {
      const res = await callService(emu.baseUrl, 'send-otp', body);
      assert.equal(res.status, 422);
      assert.equal(res.json.errors[0].field, field);
      assert.equal(typeof res.json.errors[0].message, 'string');
    });
  }

  it('requires method when no default channel is configured', async () => {
    const strict = await startEmulator({ apiKeys: [KEY], defaultChannel: null });
    try {
      const res = await callService(strict.baseUrl, 'send-otp', { phone: PHONE });
      assert.equal(res.status, 422);
      assert.equal(res.json.errors[0].field, 'method');
    } finally {
      await strict.close();
    }
  });
});

describe('emulator: verify-otp', () => {
  let emu: RunningEmulator;
  before(async () => (emu = await startEmulator({ apiKeys: [KEY], maxAttempts: 3, otpTtlSeconds: 120 })));
  after(() => emu.close());

  const send = async (phone: string) => {
    await callService(emu.baseUrl, 'send-otp', { method: 'sms', phone });
    return latestCode(emu.origin, phone);
  };
  const verify = (phone: string, otp: string) => callService(emu.baseUrl, 'verify-otp', { phone, otp });
  const wrong = (code: string) => (code === '000000' ? '111111' : '000000');

  it('accepts the right code once, with status (not success)', async () => {
    const code = await send('+966501111111');
    const res = await verify('+966501111111', code);
    assert.equal(res.status, 200);
    assert.deepEqual(res.json, { status: true, message: 'OTP verified successfully' });
  });

  it('refuses a reused code with the realistic 422', async () => {
    const code = await send('+966502222222');
    await verify('+966502222222', code);
    const res = await verify('+966502222222', code);
    assert.equal(res.status, 422);
    assert.equal(res.json.status, false);
    assert.equal(res.json.message, 'Failed to verify OTP');
    assert.equal(res.json.reason, 'used');
  });

  it('refuses a wrong code, then locks after the maximum of wrong tries', async () => {
    const code = await send('+966503333333');
    for (let i = 0; i < 2; i++) assert.equal((await verify('+966503333333', wrong(code))).json.reason, 'wrong');
    assert.equal((await verify('+966503333333', wrong(code))).json.reason, 'locked');
    const res = await verify('+966503333333', code);
    assert.equal(res.status, 422);
    assert.equal(res.json.reason, 'locked');
  });

  it('refuses an expired code', async () => {
    const code = await send('+966504444444');
    await control(emu.origin, 'POST', 'clock', { advanceSeconds: 121 });
    const res = await verify('+966504444444', code);
    assert.equal(res.status, 422);
    assert.equal(res.json.reason, 'expired');
  });

  it('a new send replaces the earlier code', async () => {
    const first = await send('+966505555555');
    const second = await send('+966505555555');
    if (first !== second) assert.equal((await verify('+966505555555', first)).status, 422);
    assert.equal((await verify('+966505555555', second)).status, 200);
  });

  it('verifies by email', async () => {
    await callService(emu.baseUrl, 'send-otp', { method: 'email', email: 'a@example.com' });
    const res = await callService(emu.baseUrl, 'verify-otp', { email: 'a@example.com', otp: await latestCode(emu.origin, 'a@example.com') });
    assert.equal(res.json.status, true);
  });

  it('refuses a request with neither phone nor email', async () => {
    const res = await callService(emu.baseUrl, 'verify-otp', { otp: '123456' });
    assert.equal(res.status, 422);
  });
});
