import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeWav, encodeWav, PcmWriter } from '../../../src/core/wav.js';

describe('PcmWriter: a WAV written as the samples arrive', () => {
  const samples = Float32Array.from({ length: 16_000 }, (_, i) => Math.sin(i / 7) * 0.8 + (i % 997 === 0 ? 1.5 : 0));

  it('in 20 ms pieces, past its first guess of the length, is the same file as encoding it whole', () => {
    const writer = new PcmWriter(1000);
    for (let i = 0; i < samples.length; i += 320) writer.append(samples.subarray(i, i + 320));
    assert.equal(writer.length, samples.length);
    assert.deepEqual(writer.wav(16_000), encodeWav(samples, 16_000));
  });

  it('reads back as 16 kHz mono within a step of 16-bit, clipped to [-1, 1]', () => {
    const { sampleRate, channels, samples: back } = decodeWav(new PcmWriter().append(samples).wav(16_000));
    assert.deepEqual([sampleRate, channels, back.length], [16_000, 1, samples.length]);
    for (let i = 0; i < samples.length; i += 101) assert.ok(Math.abs(back[i]! - Math.max(-1, Math.min(1, samples[i]!))) < 1 / 16_000, `sample ${i}`);
  });

  it('with nothing written is a valid empty WAV', () => {
    assert.equal(decodeWav(new PcmWriter().wav(16_000)).samples.length, 0);
  });
});
