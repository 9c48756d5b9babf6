/**
 * Payload checks the emulator applies before comparing samples: the real service's limits are
 * undocumented, so these are the safe envelope from demo/pages/emulator.md, live quirks (raw base64, JPEG/PNG, 16-bit PCM WAV).
 */
import { decodeWav, toMono, WavFormatError } from '../core/wav.js';
import { base64Problem, SAMPLE_BOUNDS, sniffImage, type ImageInfo } from '../core/media-sniff.js';

export class PayloadError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

export interface MediaLimits {
  maxImageBytes: number;
  minImageSide: number;
  maxImageSide: number;
  maxAudioBytes: number;
  minAudioSeconds: number;
  maxAudioSeconds: number;
  minSampleRate: number;
  maxSampleRate: number;
  maxChannels: number;
}

export const DEFAULT_MEDIA_LIMITS: MediaLimits = {
  maxImageBytes: 2 * 1024 * 1024,
  maxAudioBytes: 5 * 1024 * 1024,
  ...SAMPLE_BOUNDS,
  minSampleRate: 8000,
  maxSampleRate: 48000,
  maxChannels: 2,
};

export function decodeBase64Field(value: unknown, field: string, maxBytes: number): Buffer {
  if (typeof value !== 'string' || value.length === 0) {
    throw new PayloadError(field, `The ${field} field is required and must be a base64 string.`);
  }
  const problem = base64Problem(value, maxBytes);
  if (problem) throw new PayloadError(field, `The ${field} field ${problem}.`);
  return Buffer.from(value, 'base64');
}

/** Reads the type and size from the headers alone, so that a bomb is refused before decoding. */
export function inspectImage(bytes: Uint8Array, field: string, limits: MediaLimits): ImageInfo {
  const info = sniffImage(bytes);
  if (!info) throw new PayloadError(field, `The ${field} field must be a JPEG or PNG image.`);
  const { width, height } = info;
  if (Math.min(width, height) < limits.minImageSide || Math.max(width, height) > limits.maxImageSide) {
    throw new PayloadError(
      field,
      `The ${field} image is ${width}x${height}; each side must be between ${limits.minImageSide} and ${limits.maxImageSide} pixels.`,
    );
  }
  return info;
}

export interface CheckedAudio {
  sampleRate: number;
  channels: number;
  seconds: number;
  mono: Float32Array;
}

export function checkAudio(bytes: Uint8Array, field: string, limits: MediaLimits): CheckedAudio {
  let audio;
  try {
    audio = decodeWav(bytes);
  } catch (error) {
    const reason = error instanceof WavFormatError ? error.message : 'unreadable';
    throw new PayloadError(field, `The ${field} field must be a 16-bit PCM WAV file (${reason}).`);
  }
  const { sampleRate, channels } = audio;
  if (sampleRate < limits.minSampleRate || sampleRate > limits.maxSampleRate) {
    throw new PayloadError(field, `The ${field} sample rate ${sampleRate} Hz is outside ${limits.minSampleRate}-${limits.maxSampleRate} Hz.`);
  }
  if (channels > limits.maxChannels) {
    throw new PayloadError(field, `The ${field} audio has ${channels} channels; at most ${limits.maxChannels} are accepted.`);
  }
  const mono = toMono(audio);
  const seconds = mono.length / sampleRate;
  if (seconds < limits.minAudioSeconds || seconds > limits.maxAudioSeconds) {
    throw new PayloadError(
      field,
      `The ${field} audio lasts ${seconds.toFixed(2)} s; it must last between ${limits.minAudioSeconds} and ${limits.maxAudioSeconds} s.`,
    );
  }
  return { sampleRate, channels, seconds, mono };
}
