/**
 * Development-grade speaker comparison. It is NOT a trained speaker-verification model and claims no
 * biometric accuracy; it tells whether two recordings have the same voice timbre, across different
 * words, well enough for a demo to accept the person who enrolled and refuse another.
 *
 * Method: MFCCs (26 mel bands from 100 Hz to 7.6 kHz, coefficients 1-14, pre-emphasis 0.97) over
 * 25 ms frames every 10 ms, kept only for frames within 30 dB of the loudest (speech, not pauses).
 * Each recording becomes a Gaussian: the mean and covariance of its frames. Two recordings are
 * compared by the Mahalanobis distance between their means under the pooled covariance, which
 * weighs each coefficient by how much it varies within speech, so that what the person said
 * counts less than the shape of their vocal tract.
 *
 * Calibrated on the LibriSpeech fixtures (four speakers, two utterances each): the same speaker
 * across utterances scores 1.11-1.63, different speakers 2.00 and above, ambient noise 3.0 and
 * above; the threshold sits at 1.8. Silence, or less than half a second of speech, matches nobody.
 * Four speakers prove a margin, not an error rate: people with similar voices may match.
 * It works at any sample rate because the mel bands are placed in hertz.
 */
import FFT from 'fft.js';

const BANDS = 26;
const COEFFS = 14;
const LOW_HZ = 100;
const HIGH_HZ = 7600;
const PRE_EMPHASIS = 0.97;
const SPEECH_RANGE_DB = 30;
/** 50 frames of 10 ms: fewer cannot estimate a 14x14 covariance. */
const MIN_SPEECH_FRAMES = 50;
export const VOICE_MAX_DISTANCE = 1.8;

export interface VoiceDescriptor {
  mean: Float64Array;
  /** Row-major COEFFS x COEFFS covariance. */
  covariance: Float64Array;
  speechFrames: number;
}

const mel = (hz: number) => 2595 * Math.log10(1 + hz / 700);
const hzFromMel = (m: number) => 700 * (10 ** (m / 2595) - 1);

function cepstra(mono: Float32Array, sampleRate: number): Float64Array[] {
  const frameLength = Math.round(0.025 * sampleRate);
  const hop = Math.round(0.01 * sampleRate);
  const size = 2 ** Math.ceil(Math.log2(frameLength));
  const fft = new FFT(size);
  const input = new Array<number>(size).fill(0);
  const spectrum = fft.createComplexArray() as number[];
  const window = Float64Array.from({ length: frameLength }, (_, i) => 0.54 - 0.46 * Math.cos((2 * Math.PI * i) / (frameLength - 1)));
  const edges = Array.from({ length: BANDS + 2 }, (_, i) => hzFromMel(mel(LOW_HZ) + ((mel(HIGH_HZ) - mel(LOW_HZ)) * i) / (BANDS + 1)));
  const bin = (hz: number) => (hz * size) / sampleRate;

  const frames: { energyDb: number; cepstrum: Float64Array }[] = [];
  for (let start = 0; start + frameLength <= mono.length; start += hop) {
    let energy = 0;
    for (let i = 0; i < frameLength; i++) {
      const previous = i === 0 ? 0 : mono[start + i - 1]!;
      const v = (mono[start + i]! - PRE_EMPHASIS * previous) * window[i]!;
      input[i] = v;
      energy += v * v;
    }
    fft.realTransform(spectrum, input);
    const bands = new Float64Array(BANDS);
    for (let b = 0; b < BANDS; b++) {
      const [lo, mid, hi] = [bin(edges[b]!), bin(edges[b + 1]!), bin(edges[b + 2]!)];
      let sum = 0;
      for (let k = Math.ceil(lo); k <= Math.floor(hi); k++) {
        const weight = k <= mid ? (k - lo) / (mid - lo) : (hi - k) / (hi - mid);
        sum += weight * (spectrum[2 * k]! ** 2 + spectrum[2 * k + 1]! ** 2);
      }
      bands[b] = Math.log(sum + 1e-10);
    }
    const cepstrum = new Float64Array(COEFFS);
    for (let c = 0; c < COEFFS; c++) {
      let sum = 0;
      for (let b = 0; b < BANDS; b++) sum += bands[b]! * Math.cos((Math.PI * (c + 1) * (b + 0.5)) / BANDS);
      cepstrum[c] = sum;
    }
    frames.push({ energyDb: 10 * Math.log10(energy / frameLength + 1e-12), cepstrum });
  }
  const loudest = frames.reduce((max, f) => Math.max(max, f.energyDb), -Infinity);
  return frames.filter((f) => f.energyDb > loudest - SPEECH_RANGE_DB && f.energyDb > -70).map((f) => f.cepstrum);
}

export function voiceDescriptor(mono: Float32Array, sampleRate: number): VoiceDescriptor {
  const frames = cepstra(mono, sampleRate);
  const mean = new Float64Array(COEFFS);
  const covariance = new Float64Array(COEFFS * COEFFS);
  for (const frame of frames) frame.forEach((v, c) => (mean[c]! += v / frames.length));
  for (const frame of frames) {
    for (let i = 0; i < COEFFS; i++) {
      for (let j = 0; j < COEFFS; j++) covariance[i * COEFFS + j]! += ((frame[i]! - mean[i]!) * (frame[j]! - mean[j]!)) / (frames.length - 1);
    }
  }
  return { mean, covariance, speechFrames: frames.length };
}

/** Solves A x = b for a symmetric positive-definite A by Cholesky; null when A is singular. */
function solve(a: Float64Array, b: Float64Array): Float64Array | null {
  const n = b.length;
  const l = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let sum = a[i * n + j]!;
      for (let k = 0; k < j; k++) sum -= l[i * n + k]! * l[j * n + k]!;
      if (i === j) {
        if (sum <= 0) return null;
        l[i * n + i] = Math.sqrt(sum);
      } else l[i * n + j] = sum / l[j * n + j]!;
    }
  }
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let sum = b[i]!;
    for (let k = 0; k < i; k++) sum -= l[i * n + k]! * y[k]!;
    y[i] = sum / l[i * n + i]!;
  }
  const x = new Float64Array(n);
  for (let i = n - 1; i >= 0; i--) {
    let sum = y[i]!;
    for (let k = i + 1; k < n; k++) sum -= l[k * n + i]! * x[k]!;
    x[i] = sum / l[i * n + i]!;
  }
  return x;
}

/** Mahalanobis distance of the two means under the pooled covariance; Infinity when either holds no speech. */
export function voiceDistance(a: VoiceDescriptor, b: VoiceDescriptor): number {
  if (a.speechFrames < MIN_SPEECH_FRAMES || b.speechFrames < MIN_SPEECH_FRAMES) return Infinity;
  const pooled = a.covariance.map((v, i) => (v + b.covariance[i]!) / 2);
  const difference = a.mean.map((v, i) => v - b.mean[i]!);
  const weighted = solve(pooled, difference);
  if (!weighted) return Infinity;
  return Math.sqrt(difference.reduce((sum, v, i) => sum + v * weighted[i]!, 0));
}
