/**
 * Payload checks the emulator applies before comparing samples: the real service's limits are
 * undocumented, so these are the safe envelope from DESIGN §2 (raw base64, JPEG/PNG, 16-bit PCM WAV).
 */
import { decodeWav, toMono, WavFormatError } from '../internal/wav.js';

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
  minImageSide: 64,
  maxImageSide: 4096,
  maxAudioBytes: 5 * 1024 * 1024,
  minAudioSeconds: 1,
  maxAudioSeconds: 30,
  minSampleRate: 8000,
  maxSampleRate: 48000,
  maxChannels: 2,
};

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export function decodeBase64Field(value: unknown, field: string, maxBytes: number): Buffer {
  if (typeof value !== 'string' || value.length === 0) {
    throw new PayloadError(field, `The ${field} field is required and must be a base64 string.`);
  }
  if (value.startsWith('data:')) {
    throw new PayloadError(field, `The ${field} field must be raw base64 without a data: prefix.`);
  }
  if (value.length > Math.ceil(maxBytes / 3) * 4) {
    throw new PayloadError(field, `The ${field} field must not be larger than ${maxBytes} bytes.`);
  }
  if (value.length % 4 !== 0 || !BASE64.test(value)) {
    throw new PayloadError(field, `The ${field} field is not valid base64.`);
  }
  return Buffer.from(value, 'base64');
}

export type ImageType = 'jpeg' | 'png';

export interface ImageInfo {
  type: ImageType;
  width: number;
  height: number;
}

/** Reads the type and size from the headers alone, so that a bomb is refused before decoding. */
export function inspectImage(bytes: Uint8Array, field: string, limits: MediaLimits): ImageInfo {
  const info = bytes[0] === 0x89 && bytes[1] === 0x50 ? pngInfo(bytes) : bytes[0] === 0xff && bytes[1] === 0xd8 ? jpegInfo(bytes) : undefined;
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

function pngInfo(bytes: Uint8Array): ImageInfo | undefined {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length < 24 || signature.some((b, i) => bytes[i] !== b)) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { type: 'png', width: view.getUint32(16), height: view.getUint32(20) };
}

function jpegInfo(bytes: Uint8Array): ImageInfo | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 2;
  while (offset + 9 < bytes.length) {
    if (bytes[offset] !== 0xff) return undefined;
    const marker = bytes[offset + 1]!;
    // SOF0..SOF15 carry the frame size, except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { type: 'jpeg', height: view.getUint16(offset + 5), width: view.getUint16(offset + 7) };
    }
    offset += 2 + view.getUint16(offset + 2);
  }
  return undefined;
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
