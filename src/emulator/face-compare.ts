/**
 * Development-grade image comparison. It is NOT face recognition and claims no biometric accuracy:
 * it tells whether two pictures show the same scene (the same camera feed, the same photo
 * re-encoded or rescaled), so that demos and tests get a deterministic match for the same fixture
 * and a non-match for another one.
 *
 * Method: both images are decoded, turned to luma, reduced by area averaging to a small square
 * thumbnail, and compared with SSIM (structural similarity), which ignores uniform changes of
 * brightness and contrast such as JPEG re-encoding or a camera's exposure.
 */
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { ssim } from 'ssim.js';
import type { ImageInfo } from '../internal/media-sniff.js';
import { areaLuma } from '../internal/luma.js';

const THUMB = 48;

interface Rgba {
  data: Uint8Array | Uint8ClampedArray;
  width: number;
  height: number;
}

export function decodeImage(bytes: Uint8Array, type: ImageInfo['type']): Rgba {
  if (type === 'png') return PNG.sync.read(Buffer.from(bytes));
  return jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: 20, maxMemoryUsageInMB: 256 });
}

/** Luma thumbnail, as RGBA grey for ssim.js. */
export function thumbnail(image: Rgba, size = THUMB): Rgba {
  const luma = areaLuma(image, size, size);
  const out = new Uint8ClampedArray(size * size * 4);
  luma.forEach((value, cell) => out.set([value, value, value, 255], cell * 4));
  return { data: out, width: size, height: size };
}

/** SSIM of the two thumbnails, in [-1, 1]; 1 means identical structure. */
export function imageSimilarity(a: Rgba, b: Rgba): number {
  return ssim(thumbnail(a) as ImageData, thumbnail(b) as ImageData).mssim;
}
