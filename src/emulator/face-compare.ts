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

/** Luma thumbnail, area-averaged so that scaling the source changes it very little. */
export function thumbnail(image: Rgba, size = THUMB): Rgba {
  const sums = new Float64Array(size * size);
  const counts = new Uint32Array(size * size);
  const { data, width, height } = image;
  for (let y = 0; y < height; y++) {
    const row = Math.min(size - 1, Math.floor((y * size) / height)) * size;
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const cell = row + Math.min(size - 1, Math.floor((x * size) / width));
      sums[cell]! += 0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!;
      counts[cell]!++;
    }
  }
  const out = new Uint8ClampedArray(size * size * 4);
  for (let cell = 0; cell < sums.length; cell++) {
    const luma = counts[cell] ? sums[cell]! / counts[cell]! : 0;
    out.set([luma, luma, luma, 255], cell * 4);
  }
  return { data: out, width: size, height: size };
}

/** SSIM of the two thumbnails, in [-1, 1]; 1 means identical structure. */
export function imageSimilarity(a: Rgba, b: Rgba): number {
  return ssim(thumbnail(a) as ImageData, thumbnail(b) as ImageData).mssim;
}
