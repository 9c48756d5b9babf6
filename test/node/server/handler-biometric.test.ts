import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { encodeWav } from '../../../src/core/wav.js';
import { cameraCapture, microphoneCapture } from '../helpers.js';
import { setup } from './handler-setup.js';

for (const quirks of [false, true]) {
  describe(`handler: enrol and verify face and voice (${quirks ? 'live quirks' : 'documented'} emulator)`, () => {
    let t: Awaited<ReturnType<typeof setup>>;
    before(async () => (t = await setup({}, { quirks })));
    after(() => t.close());

    it('enrols a face, then verifies the same face with a receipt', async () => {
      await t.prove('obama');
      const enrolled = await t.call('enroll-face', { face_image: cameraCapture('obama_1', 640, 90) }, { user: 'obama' });
      assert.deepEqual([enrolled.status, enrolled.json], [200, { enrolled: true, kind: 'face' }]);
      const ok = await t.call('verify-by-face', { query_face_image: cameraCapture('obama_1', 480, 70) }, { user: 'obama' });
      assert.equal(ok.status, 200);
      assert.equal(ok.json.method, 'face');
      assert.equal((await t.handler.verifyReceipt(ok.json.receipt, { user: 'obama', method: 'face' })).sub, 'obama');
    });

    it('answers another face with no_match and the attempts left', async () => {
      const res = await t.call('verify-by-face', { query_face_image: cameraCapture('biden_1') }, { user: 'obama' });
      assert.equal(res.status, 422);
      assert.equal(res.json.error.code, 'no_match');
      assert.equal(res.json.error.attemptsLeft, 4);
    });

    it('enrols a voice, then verifies it; another speaker does not match', async () => {
      await t.prove('winam');
      await t.call('enroll-voice', { audio: microphoneCapture('spk1688_M_1', 5, 0) }, { user: 'winam' });
      assert.equal((await t.call('verify-by-voice', { query_audio: microphoneCapture('spk1688_M_1', 6, 0.5) }, { user: 'winam' })).status, 200);
      assert.equal((await t.call('verify-by-voice', { query_audio: microphoneCapture('spk2033_M_1') }, { user: 'winam' })).json.error.code, 'no_match');
    });
  });
}

describe('handler: biometric rules', () => {
  const biometricAttempts = { max: 2, windowSeconds: 600 };
  let t: Awaited<ReturnType<typeof setup>>;
  before(async () => (t = await setup({ limits: { biometricAttempts } })));
  after(() => t.close());

  it('needs a signed-in user', async () => {
    const res = await t.call('verify-by-face', { query_face_image: cameraCapture('obama_1') });
    assert.deepEqual([res.status, res.json.error.code], [401, 'unauthorized']);
  });

  it('answers not_enrolled without a reference, without calling the service', async () => {
    const before = t.upstream.length;
    const res = await t.call('verify-by-voice', { query_audio: microphoneCapture('spk1688_M_1') }, { user: 'nobody' });
    assert.deepEqual([res.status, res.json.error.code], [409, 'not_enrolled']);
    assert.equal(t.upstream.length, before);
  });

  it('refuses to replace a reference unless the host allows re-enrolment', async () => {
    await t.prove('once');
    await t.call('enroll-face', { face_image: cameraCapture('obama_1') }, { user: 'once' });
    const again = await t.call('enroll-face', { face_image: cameraCapture('biden_1') }, { user: 'once' });
    assert.deepEqual([again.status, again.json.error.code], [403, 'forbidden']);
  });

  const silence = (seconds: number) => Buffer.from(encodeWav(new Float32Array(seconds * 16000), 16000)).toString('base64');
  const bad: [string, string, Record<string, string>][] = [
    ['a data: URL', 'verify-by-face', { query_face_image: `data:image/jpeg;base64,${cameraCapture('obama_1')}` }],
    ['a GIF', 'verify-by-face', { query_face_image: Buffer.from('GIF89a'.padEnd(64, 'x')).toString('base64') }],
    ['broken base64', 'verify-by-face', { query_face_image: 'abc$' }],
    ['an M4A', 'verify-by-voice', { query_audio: Buffer.from('\0\0\0\x20ftypM4A '.padEnd(64, 'x')).toString('base64') }],
    ['a recording of half a second', 'verify-by-voice', { query_audio: silence(0.5) }],
  ];
  for (const [label, route, body] of bad) {
    it(`refuses ${label} as bad_sample before paying for a comparison`, async () => {
      const before = t.upstream.length;
      const res = await t.call(route, body, { user: 'someone' });
      assert.deepEqual([res.status, res.json.error.code], [422, 'bad_sample']);
      assert.equal(t.upstream.length, before);
    });
  }

  it('caps comparisons per user with rate_limited and Retry-After, and the refused one costs no comparison', async () => {
    t.references.set('capped:face', cameraCapture('obama_1'));
    const { max, windowSeconds } = biometricAttempts;
    const attempt = () => t.call('verify-by-face', { query_face_image: cameraCapture('biden_1') }, { user: 'capped' });
    const answers = [];
    for (let i = 0; i < max; i++) answers.push(await attempt());
    assert.deepEqual(
      answers.map((a) => [a.status, a.json.error.code, a.json.error.attemptsLeft]),
      answers.map((_, i) => [422, 'no_match', max - 1 - i]),
    );
    const compared = t.calls('verify-by-face');
    const refused = await attempt();
    assert.deepEqual([refused.status, refused.json.error.code], [429, 'rate_limited']);
    assert.ok(refused.json.error.retryAfter > windowSeconds - 60 && refused.json.error.retryAfter <= windowSeconds, String(refused.json.error.retryAfter));
    assert.equal(refused.headers.get('retry-after'), String(refused.json.error.retryAfter));
    assert.equal(t.calls('verify-by-face'), compared);
  });
});
