import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import jpeg from 'jpeg-js';
import { startEmulator, type RunningEmulator } from '../../../src/emulator/index.js';
import { encodeWav } from '../../../src/core/wav.js';
import { KEY, callService, cameraCapture, control, microphoneCapture, stillImage, voiceFile } from '../helpers.js';

describe('emulator: verify-by-face with the fixtures', () => {
  let emu: RunningEmulator;
  before(async () => (emu = await startEmulator({ apiKeys: [KEY] })));
  after(() => emu.close());

  const face = (registered: string, query: string) =>
    callService(emu.baseUrl, 'verify-by-face', { user_id: 'u1', registered_face_image: registered, query_face_image: query });

  it('matches two captures of the same camera feed', async () => {
    const res = await face(cameraCapture('obama_1', 640, 90), cameraCapture('obama_1', 480, 60));
    assert.equal(res.status, 200);
    assert.deepEqual(res.json, { success: true, data: { user_id: 'u1', result: true } });
  });

  it('matches the same person in another video (obama_1 and obama_2)', async () => {
    assert.equal((await face(cameraCapture('obama_1'), cameraCapture('obama_2'))).json.data.result, true);
  });

  for (const other of ['biden_1', 'rose_leslie_1', 'noface_coffee', 'two_faces_obama_biden']) {
    it(`does not match obama_1 with ${other}`, async () => {
      const res = await face(cameraCapture('obama_1'), cameraCapture(other));
      assert.equal(res.status, 200);
      assert.equal(res.json.data.result, false);
    });
  }

  it('decodes the largest picture the limits let in: 4096 x 4096, under 2 MB', async () => {
    const source = jpeg.decode(Buffer.from(stillImage('obama_2'), 'base64'), { useTArray: true });
    const side = 4096;
    const data = new Uint8Array(side * side * 4);
    for (let y = 0; y < side; y++) {
      const row = Math.floor((y * source.height) / side) * source.width;
      for (let x = 0; x < side; x++) data.set(source.data.subarray((row + Math.floor((x * source.width) / side)) * 4, (row + Math.floor((x * source.width) / side)) * 4 + 4), (y * side + x) * 4);
    }
    const large = Buffer.from(jpeg.encode({ data, width: side, height: side }, 85).data);
    assert.ok(large.length < 2 * 1024 * 1024, `${large.length} bytes`);
    const res = await face(stillImage('obama_1'), large.toString('base64'));
    assert.deepEqual([res.status, typeof res.json.data?.result], [200, 'boolean']);
  });

  it('matches a still photo with itself and not with another person', async () => {
    assert.equal((await face(stillImage('biden_1'), stillImage('biden_1'))).json.data.result, true);
    assert.equal((await face(stillImage('biden_1'), stillImage('rose_leslie_1'))).json.data.result, false);
  });

  it('gives the credits back when the comparison itself fails, and the next one works', async () => {
    const before = emu.state.balance;
    const model = emu.state.faceEmbedder;
    emu.state.faceEmbedder = async () => async () => {
      throw new Error('model fault');
    };
    try {
      assert.equal((await face(stillImage('biden_1'), stillImage('biden_2'))).status, 500);
      assert.equal(emu.state.balance, before);
    } finally {
      emu.state.faceEmbedder = model;
    }
    assert.equal((await face(stillImage('biden_1'), stillImage('biden_2'))).json.data.result, true);
    assert.equal(emu.state.balance, before - 0.5);
  });

  it('can be forced to an outcome for tests', async () => {
    await control(emu.origin, 'PUT', 'force', { face: 'match' });
    assert.equal((await face(stillImage('biden_1'), stillImage('rose_leslie_1'))).json.data.result, true);
    await control(emu.origin, 'PUT', 'force', { face: null });
    assert.equal((await face(stillImage('biden_1'), stillImage('rose_leslie_1'))).json.data.result, false);
  });

  const tinyPng = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  ).toString('base64');
  const payloadCases: [string, string, RegExp][] = [
    ['a data: prefix', `data:image/jpeg;base64,${stillImage('biden_1')}`, /data: prefix/],
    ['text that is not base64', 'not base64 at all!', /not valid base64/],
    ['bytes that are not an image', Buffer.from('GIF89a-not-supported').toString('base64'), /JPEG or PNG/],
    ['an image too small', tinyPng, /between 64 and 4096/],
    ['an image over the size cap', Buffer.alloc(3 * 1024 * 1024, 0xff).toString('base64'), /larger than/],
  ];
  for (const [label, query, message] of payloadCases) {
    it(`refuses ${label} with 422 on query_face_image`, async () => {
      const res = await face(stillImage('biden_1'), query);
      assert.equal(res.status, 422);
      assert.equal(res.json.errors[0].field, 'query_face_image');
      assert.match(res.json.errors[0].message, message);
    });
  }

  it('refuses a missing user_id', async () => {
    const res = await callService(emu.baseUrl, 'verify-by-face', { registered_face_image: stillImage('biden_1'), query_face_image: stillImage('biden_1') });
    assert.equal(res.status, 422);
    assert.equal(res.json.errors[0].field, 'user_id');
  });
});

describe('emulator: verify-by-voice with the fixtures', () => {
  let emu: RunningEmulator;
  before(async () => (emu = await startEmulator({ apiKeys: [KEY] })));
  after(() => emu.close());

  const voice = (registered: string, query: string) =>
    callService(emu.baseUrl, 'verify-by-voice', { user_id: 'u2', registered_audio: registered, query_audio: query });

  it('matches two captures of the same looping recording at different offsets', async () => {
    const res = await voice(microphoneCapture('spk1688_M_1', 5, 0), microphoneCapture('spk1688_M_1', 7, 0.6));
    assert.deepEqual(res.json, { success: true, data: { user_id: 'u2', result: true } });
  });

  it('matches the same speaker reading other words (spk1688_M_1 and spk1688_M_2)', async () => {
    assert.equal((await voice(microphoneCapture('spk1688_M_1'), microphoneCapture('spk1688_M_2'))).json.data.result, true);
  });

  for (const other of ['spk2033_M_1', 'spk1998_F_1', 'spk3080_F_2', 'noise_ambient']) {
    it(`does not match spk1688_M_1 with ${other}`, async () => {
      const res = await voice(microphoneCapture('spk1688_M_1'), microphoneCapture(other));
      assert.equal(res.status, 200);
      assert.equal(res.json.data.result, false);
    });
  }

  it('never matches silence', async () => {
    assert.equal((await voice(voiceFile('silence'), voiceFile('silence'))).json.data.result, false);
  });

  const wav = (seconds: number, rate = 16000, channels = 1) => Buffer.from(encodeWav(new Float32Array(seconds * rate * channels), rate, channels)).toString('base64');
  const payloadCases: [string, string, RegExp][] = [
    ['audio that is not WAV', Buffer.from('ftypM4A fake m4a bytes').toString('base64'), /16-bit PCM WAV/],
    ['audio shorter than a second', wav(0.5), /between 1 and 30 s/],
    ['audio over 48 kHz', wav(1, 96000), /outside 8000-48000 Hz/],
    ['audio with 4 channels', wav(1, 16000, 4), /4 channels/],
  ];
  for (const [label, query, message] of payloadCases) {
    it(`refuses ${label} with 422 on query_audio`, async () => {
      const res = await voice(voiceFile('spk1688_M_1'), query);
      assert.equal(res.status, 422);
      assert.equal(res.json.errors[0].field, 'query_audio');
      assert.match(res.json.errors[0].message, message);
    });
  }
});
