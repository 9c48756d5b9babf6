import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startEmulator, type RunningEmulator } from '../../../src/emulator/index.js';
import { KEY, callService, control, microphoneCapture, stillImage } from '../helpers.js';

describe('emulator: keys and credits', () => {
  let emu: RunningEmulator;
  before(async () => (emu = await startEmulator({ apiKeys: [KEY], startingBalance: 1, costs: { sms: 0.75, face: 0.5 } })));
  after(() => emu.close());

  it('answers 401 with the documented error body, for a missing or a wrong key', async () => {
    for (const key of [null, 'wrong-key']) {
      const res = await callService(emu.baseUrl, 'balance', undefined, key);
      assert.equal(res.status, 401);
      assert.deepEqual(res.json, { errors: [{ message: 'Unauthorized' }] });
    }
  });

  it('reports the balance in the service shape and charges each send', async () => {
    assert.deepEqual((await callService(emu.baseUrl, 'balance')).json, {
      success: true,
      data: { balance: 1 },
      message: 'Balance retrieved successfully',
    });
    assert.equal((await callService(emu.baseUrl, 'send-otp', { method: 'sms', phone: '+966501234567' })).status, 200);
    assert.equal((await callService(emu.baseUrl, 'balance')).json.data.balance, 0.25);
  });

  it('refuses a paid operation it cannot afford with 402, and sends email anyway', async () => {
    const res = await callService(emu.baseUrl, 'send-otp', { method: 'sms', phone: '+966501234567' });
    assert.equal(res.status, 402);
    assert.equal(res.json.success, false);
    assert.equal(res.json.message, 'Insufficient credits');
    assert.equal((await callService(emu.baseUrl, 'send-otp', { method: 'email', email: 'a@example.com' })).status, 200);
    const face = await callService(emu.baseUrl, 'verify-by-face', { user_id: 'u', registered_face_image: stillImage('biden_1'), query_face_image: stillImage('biden_1') });
    assert.equal(face.status, 402);
  });

  it('answers 400 to a body that is not JSON, and 413 to one over the cap', async () => {
    const bad = await fetch(`${emu.baseUrl}/send-otp`, { method: 'POST', headers: { 'x-authorization': KEY }, body: '{oops' });
    assert.equal(bad.status, 400);
    const small = await startEmulator({ apiKeys: [KEY], maxBodyBytes: 1000 });
    try {
      const big = await callService(small.baseUrl, 'send-otp', { method: 'email', email: `${'a'.repeat(2000)}@example.com` });
      assert.equal(big.status, 413);
    } finally {
      await small.close();
    }
  });
});

describe('emulator: live-quirks mode', () => {
  let emu: RunningEmulator;
  before(async () => (emu = await startEmulator({ apiKeys: [KEY], quirks: true })));
  after(() => emu.close());

  it('reports the balance as a string', async () => {
    assert.equal((await callService(emu.baseUrl, 'balance')).json.data.balance, '100.00');
  });

  it('redirects a validation failure to HTML when Accept: application/json is missing', async () => {
    const res = await callService(emu.baseUrl, 'send-otp', { method: 'sms' }, KEY, false);
    assert.equal(res.status, 302);
    assert.match(res.text, /<html/);
    // The redirect lands on an HTML page that exists, as the live service's does.
    const landing = await fetch(res.headers.get('location')!);
    assert.deepEqual([landing.url, landing.status, landing.headers.get('content-type')], [`${emu.origin}/`, 200, 'text/html; charset=utf-8']);
    assert.match(await landing.text(), /<!DOCTYPE html>/);
    const withAccept = await callService(emu.baseUrl, 'send-otp', { method: 'sms' });
    assert.equal(withAccept.status, 422);
  });

  it('answers a face non-match with 422 and a match with result "True"', async () => {
    const nonMatch = await callService(emu.baseUrl, 'verify-by-face', { user_id: 'u', registered_face_image: stillImage('biden_1'), query_face_image: stillImage('obama_1') });
    assert.equal(nonMatch.status, 422);
    assert.equal(nonMatch.json.success, false);
    const match = await callService(emu.baseUrl, 'verify-by-face', { user_id: 'u', registered_face_image: stillImage('biden_1'), query_face_image: stillImage('biden_1') });
    assert.equal(match.json.data.result, 'True');
  });

  it('answers a voice non-match with 200 and result "False"', async () => {
    const res = await callService(emu.baseUrl, 'verify-by-voice', { user_id: 'u', registered_audio: microphoneCapture('spk1688_M_1'), query_audio: microphoneCapture('spk1998_F_1') });
    assert.equal(res.status, 200);
    assert.equal(res.json.data.result, 'False');
  });

  it('answers a wrong code without a reason', async () => {
    await callService(emu.baseUrl, 'send-otp', { method: 'sms', phone: '+966501234567', otp: '1234' });
    const res = await callService(emu.baseUrl, 'verify-otp', { phone: '+966501234567', otp: '9999' });
    assert.deepEqual(res.json, { status: false, message: 'Failed to verify OTP' });
  });
});

describe('emulator: fault injection', () => {
  let emu: RunningEmulator;
  before(async () => (emu = await startEmulator({ apiKeys: [KEY] })));
  after(() => emu.close());

  it('adds latency', async () => {
    await control(emu.origin, 'POST', 'faults', { kind: 'latency', ms: 150, route: 'balance', times: 1 });
    const started = performance.now();
    assert.equal((await callService(emu.baseUrl, 'balance')).status, 200);
    assert.ok(performance.now() - started >= 140);
    assert.deepEqual((await control(emu.origin, 'GET', 'faults')).faults, []);
  });

  it('answers 5xx for the given number of requests', async () => {
    await control(emu.origin, 'POST', 'faults', { kind: 'error', status: 502, times: 2 });
    assert.equal((await callService(emu.baseUrl, 'balance')).status, 502);
    assert.equal((await callService(emu.baseUrl, 'balance')).status, 502);
    assert.equal((await callService(emu.baseUrl, 'balance')).status, 200);
  });

  it('answers 429 with Retry-After', async () => {
    await control(emu.origin, 'POST', 'faults', { kind: 'rate-limit', retryAfter: 7, route: 'send-otp', times: 1 });
    const res = await callService(emu.baseUrl, 'send-otp', { method: 'email', email: 'a@example.com' });
    assert.equal(res.status, 429);
    assert.equal(res.headers.get('retry-after'), '7');
  });

  it('hangs until the caller gives up', async () => {
    await control(emu.origin, 'POST', 'faults', { kind: 'hang', times: 1 });
    await assert.rejects(
      fetch(`${emu.baseUrl}/balance`, { headers: { 'x-authorization': KEY }, signal: AbortSignal.timeout(200) }),
      (error: Error) => error.name === 'TimeoutError',
    );
    assert.equal((await callService(emu.baseUrl, 'balance')).status, 200);
  });

  it('refuses a malformed fault with 400', async () => {
    const res = await fetch(`${emu.origin}/__emulator/faults`, { method: 'POST', body: JSON.stringify({ kind: 'explode' }) });
    assert.equal(res.status, 400);
  });
});
