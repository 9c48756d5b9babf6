/**
 * The quality gate's measures, on a frame reduced to at most 320 px wide and within the region the
 * face guide marks: mean luma (too dark, too bright) and the variance of its Laplacian (blur). Pure functions of pixels, so they run off the
 * critical path and are tested on real fixture frames.
 */
import { areaLuma, type Pixels } from '../../core/luma.js';

export type { Pixels };

export interface FrameMeasures {
  /** Mean luma, 0-255. */
  brightness: number;
  /** Variance of the 4-neighbour Laplacian of luma: low when blurred. */
  sharpness: number;
}

/** A box the detector found, in the frame's own coordinates. */
export interface FaceBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export type QualityProblem = 'too-dark' | 'too-bright' | 'blurry' | 'no-face' | 'several-faces' | 'off-centre' | 'too-far' | 'too-close';

export const THRESHOLDS = {
  minBrightness: 60,
  maxBrightness: 215,
  /**
   * Real webcams are soft: the fixtures' webcam clips measure 49 to 111 and their clips of people
   * 84 to 119, while the fixtures' photos blurred by a 9 px box measure 7.6 to 38.5. At 50 the gate
   * kept real people from starting a live challenge by themselves.
   */
  minSharpness: 40,
  /**
   * The face's middle within an ellipse around the frame's, of these half-widths as shares of the
   * frame's width and height: the oval drawn, as the detector's box (brows to chin) sits in it. A
   * webcam on top of a screen sees a face low in its frame: the fixtures' webcam person's box
   * middle sits at 0.59 to 0.71 of the height, which a circle of 0.18 refused 5 frames of 85.
   */
  offCentre: { x: 0.2, y: 0.28 },
  /** The face's height as a share of the frame's height. */
  minFaceHeight: 0.25,
  maxFaceHeight: 0.8,
};

const MAX_WIDTH = 320;
/** The region measured: where the face guide asks the face to be, not the background around it. */
const REGION = { x: 0.25, y: 0.15, width: 0.5, height: 0.7 };

/** The size a frame is measured at: at most 320 px wide, same shape. */
export function lumaGridSize(width: number, height: number): { width: number; height: number } {
  const scale = Math.min(1, MAX_WIDTH / width);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** Luma of the frame, area-averaged down to at most 320 px wide. */
export function lumaGrid(pixels: Pixels): { luma: Float32Array; width: number; height: number } {
  const { width, height } = lumaGridSize(pixels.width, pixels.height);
  return { luma: areaLuma(pixels, width, height), width, height };
}

export function measureFrame(pixels: Pixels): FrameMeasures {
  const { luma, width, height } = lumaGrid(pixels);
  const [x0, x1] = [Math.max(1, Math.floor(width * REGION.x)), Math.min(width - 1, Math.ceil(width * (REGION.x + REGION.width)))];
  const [y0, y1] = [Math.max(1, Math.floor(height * REGION.y)), Math.min(height - 1, Math.ceil(height * (REGION.y + REGION.height)))];
  let total = 0;
  let sum = 0;
  let sumSquares = 0;
  let n = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const i = y * width + x;
      const laplacian = luma[i - 1]! + luma[i + 1]! + luma[i - width]! + luma[i + width]! - 4 * luma[i]!;
      total += luma[i]!;
      sum += laplacian;
      sumSquares += laplacian * laplacian;
      n++;
    }
  }
  const mean = n ? sum / n : 0;
  return { brightness: n ? total / n : 0, sharpness: n ? sumSquares / n - mean * mean : 0 };
}

/** Whether the face's middle lies within the ellipse of half-widths `within` (shares of the frame) around the frame's middle. */
export function centred(face: FaceBox, frame: { width: number; height: number }, within: { x: number; y: number }): boolean {
  const dx = (face.x + face.width / 2) / frame.width - 0.5;
  const dy = (face.y + face.height / 2) / frame.height - 0.5;
  return (dx / within.x) ** 2 + (dy / within.y) ** 2 <= 1;
}

/**
 * What stands between this frame and a good capture, most important first. `faces` is what a
 * detector found, or undefined when no detector is available (then the face checks are skipped).
 */
export function qualityProblems(measures: FrameMeasures, frame: { width: number; height: number }, faces?: FaceBox[]): QualityProblem[] {
  const problems: QualityProblem[] = [];
  if (measures.brightness < THRESHOLDS.minBrightness) problems.push('too-dark');
  else if (measures.brightness > THRESHOLDS.maxBrightness) problems.push('too-bright');
  if (measures.sharpness < THRESHOLDS.minSharpness) problems.push('blurry');
  if (faces) {
    if (faces.length === 0) problems.push('no-face');
    else if (faces.length > 1) problems.push('several-faces');
    else {
      const face = faces[0]!;
      if (!centred(face, frame, THRESHOLDS.offCentre)) problems.push('off-centre');
      const share = face.height / frame.height;
      if (share < THRESHOLDS.minFaceHeight) problems.push('too-far');
      else if (share > THRESHOLDS.maxFaceHeight) problems.push('too-close');
    }
  }
  return problems;
}
