/**
 * The shutter: a video frame (or an image file) to a JPEG of at most `maxSide` pixels on its
 * longest side, as raw base64 without a data: prefix, re-encoded at lower quality until it fits the
 * byte budget. Never mirrored: the preview is, the picture is not.
 */
import { bytesToBase64 } from '../../core/base64.js';

export interface SnapshotOptions {
  maxSide?: number;
  /** Largest base64 length accepted, in characters. */
  maxBase64?: number;
}

export interface Snapshot {
  base64: string;
  /** The picture as drawn, to show for review without a data: or blob: URL a strict CSP would refuse. */
  canvas: HTMLCanvasElement;
  width: number;
  height: number;
  quality: number;
}

const QUALITIES = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4];

export async function snapshot(source: HTMLVideoElement | ImageBitmap, options: SnapshotOptions = {}): Promise<Snapshot> {
  const { maxSide = 640, maxBase64 = 200 * 1024 } = options;
  const [sourceWidth, sourceHeight] = source instanceof HTMLVideoElement ? [source.videoWidth, source.videoHeight] : [source.width, source.height];
  if (!sourceWidth || !sourceHeight) throw new Error('no frame to capture');
  const scale = Math.min(1, maxSide / Math.max(sourceWidth, sourceHeight));
  const width = Math.round(sourceWidth * scale);
  const height = Math.round(sourceHeight * scale);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  canvas.getContext('2d')!.drawImage(source, 0, 0, width, height);
  for (const quality of QUALITIES) {
    const base64 = await toBase64(canvas, quality);
    if (base64.length <= maxBase64 || quality === QUALITIES.at(-1)) return { base64, canvas, width, height, quality };
  }
  throw new Error('unreachable');
}

async function toBase64(canvas: HTMLCanvasElement, quality: number): Promise<string> {
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', quality));
  if (!blob) throw new Error('the browser could not encode a JPEG');
  return bytesToBase64(new Uint8Array(await blob.arrayBuffer()));
}
