/**
 * Development-grade voice comparison. It is NOT speaker verification and claims no biometric
 * accuracy: it tells whether two recordings have the same long-term spectral character, so that
 * two captures of the same fixture match (whatever the offset into a looping file) and another
 * speaker's recording does not.
 *
 * Method: MFCCs (26 mel bands, 12 cepstral coefficients) over 25 ms frames every 10 ms, kept only
 * for frames within 30 dB of the loudest (speech, not pauses); the descriptor is the mean and the
 * standard deviation of each coefficient; two descriptors are compared by their root-mean-square
 * distance d, reported as the similarity 1 / (1 + d). On the shared fixtures, two captures of the
 * same recording score above 0.55, two recordings of one speaker 0.3-0.45, different speakers
 * below 0.26.
 * It works at any sample rate because the mel bands are placed in hertz (up to 7.6 kHz, which a
 * 16 kHz recording still holds).
 */
import FFT from 'fft.js';

const BANDS = 26;
const COEFFS = 12;
const LOW_HZ = 100;
const HIGH_HZ = 7600;
const SPEECH_RANGE_DB = 30;

const mel = (hz: number) => 2595 * Math.log10(1 + hz / 700);
const hzFromMel = (m: number) => 700 * (10 ** (m / 2595) - 1);

export function voiceDescriptor(mono: Float32Array, sampleRate: number): Float64Array {
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
      const v = mono[start + i]! * window[i]!;
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

  const loudest = Math.max(...frames.map((f) => f.energyDb));
  const speech = frames.filter((f) => f.energyDb > loudest - SPEECH_RANGE_DB && f.energyDb > -70);
  const descriptor = new Float64Array(2 * COEFFS);
  if (speech.length === 0) return descriptor;
  for (let c = 0; c < COEFFS; c++) {
    const values = speech.map((f) => f.cepstrum[c]!);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    descriptor[c] = mean;
    descriptor[COEFFS + c] = Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / values.length);
  }
  return descriptor;
}

/** 1 / (1 + RMS distance) of two descriptors, in (0, 1]; 0 when either is empty (silence). */
export function voiceSimilarity(a: Float64Array, b: Float64Array): number {
  if (a.every((v) => v === 0) || b.every((v) => v === 0)) return 0;
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i]! - b[i]!) ** 2;
  return 1 / (1 + Math.sqrt(sum / a.length));
}
