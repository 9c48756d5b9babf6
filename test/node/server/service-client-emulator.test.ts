import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startEmulator, type RunningEmulator } from '../../../src/emulator/index.js';
import { createServiceClient, ServiceError } from '../../../src/server/index.js';
import { KEY, cameraCapture, control, latestCode, microphoneCapture, stillImage } from '../helpers.js';

for (const quirks of [false, true]) {
  describe(`service client against the emulator (${quirks ? 'live quirks' : 'documented'} mode)`, () => {
    let emu: RunningEmulator;
    before(async () => (emu = await startEmulator({ apiKeys: [KEY], quirks, maxAttempts: 2 })));
    after(() => emu.close());
    // Short enough for the hang fault; a face comparison runs a recognition model and takes longer.
    const client = (timeoutMs = 300) => createServiceClient({ baseUrl: emu.baseUrl, apiKey: KEY, timeoutMs });

    it('reads the balance as a number', async () => {
      assert.equal((await client().balance()).balance, 100);
    });

    it('sends and verifies a code; a reused code is refused', async () => {
      await client().sendOtp({ method: 'whatsapp', phone: '+966501234567' });
      const otp = await latestCode(emu.origin, '+966501234567');
      await client().verifyOtp({ phone: '+966501234567', otp });
      await assert.rejects(client().verifyOtp({ phone: '+966501234567', otp }), (e: ServiceError) =>
        ['code_expired', 'wrong_code'].includes(e.code),
      );
    });

    it('a wrong code, then a locked one', async () => {
      await client().sendOtp({ method: 'email', email: 'lock@example.com', otp: '123456' });
      await assert.rejects(client().verifyOtp({ email: 'lock@example.com', otp: '000000' }), { code: 'wrong_code' });
      await assert.rejects(client().verifyOtp({ email: 'lock@example.com', otp: '000000' }), { code: quirks ? 'wrong_code' : 'too_many_attempts' });
    });

    it('face: the same person in another picture matches, another person does not, whatever the status code', async () => {
      const ref = cameraCapture('obama_1');
      assert.equal((await client(10_000).verifyByFace({ user_id: 'u', registered_face_image: ref, query_face_image: stillImage('obama_2') })).match, true);
      assert.equal((await client(10_000).verifyByFace({ user_id: 'u', registered_face_image: ref, query_face_image: cameraCapture('biden_1') })).match, false);
    });

    it('voice: the same speaker reading other words matches, another speaker does not', async () => {
      const ref = microphoneCapture('spk1688_M_1', 5, 0);
      assert.equal((await client(10_000).verifyByVoice({ user_id: 'u', registered_audio: ref, query_audio: microphoneCapture('spk1688_M_2') })).match, true);
      assert.equal((await client(10_000).verifyByVoice({ user_id: 'u', registered_audio: ref, query_audio: microphoneCapture('spk2033_M_1') })).match, false);
    });

    it('a sample that is not an image is a bad_sample', async () => {
      await assert.rejects(client(10_000).verifyByFace({ user_id: 'u', registered_face_image: cameraCapture('obama_1'), query_face_image: 'AAAA' }), { code: 'bad_sample' });
    });

    it('a wrong key is unauthorized', async () => {
      await assert.rejects(createServiceClient({ baseUrl: emu.baseUrl, apiKey: 'nope' }).balance(), { code: 'unauthorized', status: 401 });
    });

    it('injected faults become typed errors: 503, 429 and a hang past the timeout', async () => {
      await control(emu.origin, 'POST', 'faults', { kind: 'error', times: 1 });
      await assert.rejects(client().balance(), { code: 'upstream_unavailable', fault: 'server_error' });
      await control(emu.origin, 'POST', 'faults', { kind: 'rate-limit', retryAfter: 9, times: 1 });
      await assert.rejects(client().balance(), { code: 'rate_limited', retryAfter: 9 });
      await control(emu.origin, 'POST', 'faults', { kind: 'hang', times: 1 });
      await assert.rejects(client().balance(), { code: 'upstream_unavailable', fault: 'timeout', ambiguous: true });
    });
  });
}
