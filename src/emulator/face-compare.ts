/**
 * The emulator's face comparison: by face embeddings (face-model.ts) when the recognition model is
 * installed, as real services do, and otherwise by picture similarity, which tells only whether two
 * pictures show the same scene (the same camera feed or photo, re-encoded or rescaled) and is NOT
 * face recognition.
 *
 * The fallback: both images are turned to luma, reduced by area averaging to a small square
 * thumbnail, and compared with SSIM (structural similarity), which ignores uniform changes of
 * brightness and contrast such as JPEG re-encoding or a camera's exposure.
 */
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { ssim } from 'ssim.js';
import type { ImageInfo } from '../core/media-sniff.js';
import { areaLuma } from '../core/luma.js';
import type { FaceEmbedder, Rgba } from './face-model.js';

const THUMB = 48;
const SSIM_MIN_SIMILARITY = 0.75;
/** face-api's own threshold; on the fixtures the same person scores 0.40-0.54, others 0.76 and above. */
export const FACE_MAX_DISTANCE = 0.6;

export interface FaceComparison {
  match: boolean;
  /** Why there is no match when a picture does not hold exactly one face. */
  problem?: 'no-face' | 'several-faces';
  /** For the log: the method, the score and the faces found. */
  detail: string;
}

export function decodeImage(bytes: Uint8Array, type: ImageInfo['type']): Rgba {
  if (type === 'png') return PNG.sync.read(Buffer.from(bytes));
  // The largest picture the limits let in (4096 x 4096, 16.8 MP) takes jpeg-js about 305 MB; at
  // 256 MB a 2 MB photo of 4096 x 3120 was refused as undecodable.
  return jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: 20, maxMemoryUsageInMB: 512 });
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

/** By embeddings with `embed`, or by picture similarity when there is no model. */
export async function compareFaces(registered: Rgba, query: Rgba, embed: FaceEmbedder | null): Promise<FaceComparison> {
  if (!embed) {
    const similarity = imageSimilarity(registered, query);
    return { match: similarity >= SSIM_MIN_SIMILARITY, detail: `picture similarity ${similarity.toFixed(3)} (no face model)` };
  }
  const [a, b] = [await embed(registered), await embed(query)];
  const counts = `faces ${a.length}/${b.length}`;
  if (a.length !== 1 || b.length !== 1) {
    const problem = a.length === 0 || b.length === 0 ? 'no-face' : 'several-faces';
    return { match: false, problem, detail: `face embeddings, ${counts}` };
  }
  const distance = Math.hypot(...a[0]!.map((v, i) => v - b[0]![i]!));
  return { match: distance <= FACE_MAX_DISTANCE, detail: `face embedding distance ${distance.toFixed(3)}, ${counts}` };
}
