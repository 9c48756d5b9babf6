import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { decodeWav, toMono } from '../../../src/core/wav.js';
import { VoiceFramer, type VoiceFrame } from '../../../src/voice-verify/later/voice-frames.js';
import { analyseVoice, liveWarning, type FrameStats } from '../../../src/voice-verify/later/voice-quality.js';
import { FIXTURES } from '../helpers.js';

/** A fixture through the recorder's own framing, in render quanta of 128 as the worklet gets them. */
function framesOf(name: string, gain = 1): VoiceFrame[] {
  const audio = decodeWav(readFileSync(`${FIXTURES}audio/${name}.wav`));
  const mono = toMono(audio).map((s) => Math.max(-1, Math.min(1, s * gain)));
  const framer = new VoiceFramer(audio.sampleRate);
  const frames: VoiceFrame[] = [];
  for (let i = 0; i < mono.length; i += 128) frames.push(...framer.push(mono.subarray(i, i + 128)));
  return [...frames, ...framer.flush()];
}

const gate = { minSpeechSeconds: 2 };

describe('voice quality gate, on the fixtures', () => {
  for (const name of ['spk1688_M_1_48k', 'spk1688_M_2_48k', 'spk2033_M_1_48k', 'spk1998_F_1_48k', 'spk3080_F_1_48k', 'spk3080_F_2_48k']) {
    it(`${name}: speech, accepted`, () => {
      const result = analyseVoice(framesOf(name), gate);
      assert.deepEqual(result.problems, [], JSON.stringify(result));
      assert.ok(result.speechSeconds >= 2 && result.speechSeconds <= result.seconds);
    });
  }

  it('silence_48k: no speech', () => {
    assert.deepEqual(analyseVoice(framesOf('silence_48k'), gate).problems, ['no-speech']);
  });

  it('noise_ambient_48k: steady noise is not speech', () => {
    const result = analyseVoice(framesOf('noise_ambient_48k'), gate);
    assert.deepEqual(result.problems, ['no-speech'], JSON.stringify(result));
  });

  it('steady noise after a device\'s late start (half a second of digital silence first) is still not speech', () => {
    const late = new VoiceFramer(16_000).push(new Float32Array(8000));
    const result = analyseVoice([...late, ...framesOf('noise_ambient_48k')], gate);
    assert.deepEqual(result.problems, ['no-speech'], JSON.stringify(result));
  });

  it('speech 30 dB down: found, but too quiet', () => {
    assert.deepEqual(analyseVoice(framesOf('spk1688_M_1_48k', 10 ** (-30 / 20)), gate).problems, ['too-quiet']);
  });

  it('speech driven into clipping: clipping', () => {
    assert.ok(analyseVoice(framesOf('spk1688_M_1_48k', 20), gate).problems.includes('clipping'));
  });

  it('the first 1.5 s of a recording: too short for a 2 s minimum, enough for 0.5 s', () => {
    const second = framesOf('spk1688_M_1_48k').slice(0, 75);
    assert.deepEqual(analyseVoice(second, gate).problems, ['too-short']);
    assert.deepEqual(analyseVoice(second, { minSpeechSeconds: 0.5 }).problems, []);
  });

  it('frames are 20 ms at 16 kHz, and cover the recording', () => {
    const frames = framesOf('spk1688_M_1_48k');
    assert.ok(frames.slice(0, -1).every((f) => f.samples.length === 320));
    const samples = frames.reduce((n, f) => n + f.samples.length, 0);
    const input = frames.reduce((n, f) => n + f.count, 0);
    assert.equal(samples, Math.ceil(input / 3));
  });
});

describe('live warnings while recording', () => {
  const frame = (db: number, clipped = 0): FrameStats => ({ rms: db === -Infinity ? 0 : 10 ** (db / 20), peak: 0, clipped, count: 960 });
  const run = (db: number, seconds: number) => Array.from({ length: seconds * 50 }, () => frame(db));

  it('says nothing in the first moment', () => assert.equal(liveWarning(run(-Infinity, 1)), null));
  it('silence: no speech', () => assert.equal(liveWarning(run(-Infinity, 2)), 'no-speech'));
  it('clipping, at once', () => assert.equal(liveWarning([...run(-20, 0.2), frame(-3, 40)]), 'clipping'));
  it('speech after a pause: nothing to say', () => {
    const speech = framesOf('spk1688_M_1_48k');
    assert.equal(liveWarning(speech.slice(0, 150)), null);
  });
  it('steady noise: no speech', () => assert.equal(liveWarning(framesOf('noise_ambient_48k').slice(0, 150)), 'no-speech'));
});
