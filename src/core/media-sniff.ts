/**
 * Header-only checks of base64 media: what type, what size, without decoding the whole payload.
 * Runtime-agnostic (atob, DataView), so the host handler can run on any Fetch-API server.
 */
import { readWavHeader, type WavHeader } from './wav.js';

/**
 * What the service is known to take (demo/pages/emulator.md, live quirks); the handler checks it
 * before paying for a comparison. A recording's rate is a telephone's to a studio's: beyond it, the
 * digits' recogniser took a quarter of a second of CPU over one second of audio at 200 kHz, and
 * more than ten minutes over one second at 1 MHz, the process's voice checks queued behind it.
 */
export const SAMPLE_BOUNDS = { minImageSide: 64, maxImageSide: 4096, minAudioSeconds: 1, maxAudioSeconds: 30, minAudioRate: 8_000, maxAudioRate: 48_000 } as const;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Why a string is not acceptable raw base64 of at most `maxBytes`, or undefined when it is. */
export function base64Problem(value: string, maxBytes: number): string | undefined {
  if (value.length === 0) return 'is empty';
  if (value.startsWith('data:')) return 'must be raw base64 without a data: prefix';
  if (value.length > Math.ceil(maxBytes / 3) * 4) return `must not be larger than ${maxBytes} bytes`;
  if (value.length % 4 !== 0 || !BASE64.test(value)) return 'is not valid base64';
  return undefined;
}

/** The bytes of a base64 string, in a plain loop: a tenth of the time of a mapping callback per byte. */
export function fromBase64(value: string): Uint8Array<ArrayBuffer> {
  const binary = atob(value);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Decodes only the first bytes of a base64 string: enough for any header. */
export function base64Prefix(value: string, bytes = 96 * 1024): Uint8Array {
  return fromBase64(value.slice(0, Math.ceil(bytes / 3) * 4));
}

export interface ImageInfo {
  type: 'jpeg' | 'png';
  width: number;
  height: number;
}

export function sniffImage(bytes: Uint8Array): ImageInfo | undefined {
  if (bytes[0] === 0x89) return pngInfo(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return jpegInfo(bytes);
  return undefined;
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

export interface WavInfo extends WavHeader {
  seconds: number;
}

/** The WAV header of a base64 payload, with the duration its full length implies. */
export function sniffWav(base64: string): WavInfo {
  const header = readWavHeader(base64Prefix(base64, 4096));
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  const totalBytes = (base64.length / 4) * 3 - padding;
  const dataBytes = Math.min(header.dataBytes, totalBytes - header.dataOffset);
  return { ...header, seconds: dataBytes / (header.sampleRate * header.channels * 2) };
}
