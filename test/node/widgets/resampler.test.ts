import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import FFT from 'fft.js';
import { Resampler } from '../../../src/voice-verify/later/resampler.js';

const tone = (hz: number, rate: number, seconds: number, amplitude = 0.5) =>
  Float32Array.from({ length: Math.round(rate * seconds) }, (_, i) => amplitude * Math.sin((2 * Math.PI * hz * i) / rate));

/** Resamples in render quanta of 128, as the AudioWorklet does. */
function resample(input: Float32Array, from: number, to: number): Float32Array {
  const resampler = new Resampler(from, to);
  const parts: Float32Array[] = [];
  for (let i = 0; i < input.length; i += 128) parts.push(resampler.push(input.subarray(i, i + 128)));
  parts.push(resampler.flush());
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) out.set(part, (offset += part.length) - part.length);
  return out;
}

/** RMS away from the edges, where the filter reaches into the silence before and after. */
const rms = (x: Float32Array) => {
  const inner = x.subarray(200, x.length - 200);
  return Math.sqrt(inner.reduce((s, v) => s + v * v, 0) / inner.length);
};
const db = (ratio: number) => 20 * Math.log10(ratio);

/** The strongest frequency, from the spectrum of the middle 8192 samples (Hann window). */
function peakFrequency(x: Float32Array, rate: number): number {
  const n = 8192;
  const start = Math.floor((x.length - n) / 2);
  const fft = new FFT(n);
  const input = Array.from({ length: n }, (_, i) => x[start + i]! * (0.5 - 0.5 * Math.cos((2 * Math.PI * i) / n)));
  const out = fft.createComplexArray();
  fft.realTransform(out, input);
  let best = 0;
  let bestPower = -1;
  for (let k = 1; k < n / 2; k++) {
    const power = out[2 * k]! ** 2 + out[2 * k + 1]! ** 2;
    if (power > bestPower) [best, bestPower] = [k, power];
  }
  return (best * rate) / n;
}

describe('Resampler (windowed sinc, streaming)', () => {
  for (const from of [48_000, 44_100, 16_000]) {
    it(`${from} Hz to 16 kHz: a 1 kHz tone keeps its frequency, its level and the right length`, () => {
      const input = tone(1000, from, 1.5);
      const out = resample(input, from, 16_000);
      assert.equal(out.length, Math.ceil((input.length * 16_000) / from));
      assert.ok(Math.abs(peakFrequency(out, 16_000) - 1000) <= 16_000 / 8192, `peak at ${peakFrequency(out, 16_000)} Hz`);
      assert.ok(Math.abs(db(rms(out) / rms(input))) < 0.1, `level changed by ${db(rms(out) / rms(input)).toFixed(3)} dB`);
    });
  }

  it('keeps speech frequencies: 3.4 kHz passes within 0.1 dB', () => {
    const input = tone(3400, 48_000, 1);
    assert.ok(Math.abs(db(rms(resample(input, 48_000, 16_000)) / rms(input))) < 0.1);
  });

  it('does not alias: tones above 8 kHz at 48 kHz are gone (below -60 dB), not folded into the band', () => {
    for (const hz of [9000, 10_000, 15_000, 20_000]) {
      const input = tone(hz, 48_000, 1);
      const level = db(rms(resample(input, 48_000, 16_000)) / rms(input));
      assert.ok(level < -60, `${hz} Hz came through at ${level.toFixed(1)} dB`);
    }
  });

  it('gives the same samples however the input is cut', () => {
    const input = tone(440, 48_000, 0.5);
    const whole = new Resampler(48_000, 16_000);
    const once = [...whole.push(input), ...whole.flush()];
    assert.deepEqual(Array.from(resample(input, 48_000, 16_000)), once);
  });
});
