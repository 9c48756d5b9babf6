/**
 * Frames under the light challenge's colours, for the light's tests: a rendered head (head.ts) lit
 * by a screen a forearm away, as its camera takes it (an exposure and a white balance that adjust
 * to the picture), and what an attacker could send instead: the same head unlit (a recording), its
 * frames under other colours, the recording behind a screen's glass that reflects the colours over
 * everything, one tint painted evenly over the face's outline, a flat print lit by the screen.
 * And the first model of the light on a real face's frames (`reflect`), which the real-light test
 * and the light-changes study share.
 */
import { inside, type Point } from '../../../src/server/liveness/geometry.js';
import type { FaceFound, FaceObserver } from '../../../src/server/liveness/judge.js';
import { LIGHT_LIMITS, linearOf, tintOf, type LightColour, type LightMeasures, type LitFace } from '../../../src/server/liveness/light.js';
import { render, toJpeg, toLinear, toSrgb, type Pose, type Rgba, type Shape } from './head.js';

/**
 * The camera's own adjustments to what it sees: its exposure brings the frame's mean brightness back
 * to `brightness`, and its white balance takes out `balance` of the frame's mean tint (a grey-world
 * balance, half-way: a webcam's settles over a second or two).
 */
export function camera(image: Rgba, brightness: number, balance = 0.5): Rgba {
  const mean = [0, 0, 0];
  const pixels = image.width * image.height;
  for (let i = 0; i < image.data.length; i += 4) for (let c = 0; c < 3; c++) mean[c]! += toLinear(image.data[i + c]!) / pixels;
  const grey = (mean[0]! + mean[1]! + mean[2]!) / 3;
  const luma = 0.2126 * mean[0]! + 0.7152 * mean[1]! + 0.0722 * mean[2]!;
  const gains = mean.map((m) => (grey / m) ** balance * (brightness / luma));
  const out = new Uint8ClampedArray(image.data.length);
  for (let i = 0; i < image.data.length; i += 4) {
    for (let c = 0; c < 3; c++) out[i + c] = toSrgb(toLinear(image.data[i + c]!) * gains[c]!);
    out[i + 3] = 255;
  }
  return { data: out, width: image.width, height: image.height };
}

/** The frame's mean brightness (linear luma): what a camera's exposure holds. */
export function brightnessOf(image: Rgba): number {
  let sum = 0;
  for (let i = 0; i < image.data.length; i += 4) sum += 0.2126 * toLinear(image.data[i]!) + 0.7152 * toLinear(image.data[i + 1]!) + 0.0722 * toLinear(image.data[i + 2]!);
  return sum / (image.width * image.height);
}

/**
 * The first model of the screen's light on a real face (real-light.test.ts's): `frame` as the
 * camera sees it with the screen showing `colour`, before the camera's own adjustments (`camera`),
 * the face's landmarks known: an ellipsoid on the face, its skin taking the light by its cosine to
 * the screen, a tenth as much on everything beyond it.
 */
export function reflect(frame: Rgba, landmarks: Point[], colour: LightColour, strength: number): Rgba {
  const jaw = landmarks.slice(0, 17);
  const cx = (jaw[0]!.x + jaw[16]!.x) / 2;
  const a = (jaw[16]!.x - jaw[0]!.x) / 2;
  // From the brows to the chin, centred a little above the nose: the face's ellipse, as head.ts's.
  const cy = (landmarks[27]!.y + landmarks[8]!.y) / 2 - 0.15 * a;
  const b = 1.4 * a;
  const rgb = linearOf(colour);
  const out = new Uint8ClampedArray(frame.data.length);
  for (let y = 0; y < frame.height; y++) {
    for (let x = 0; x < frame.width; x++) {
      const r2 = ((x - cx) / (1.05 * a)) ** 2 + ((y - cy) / b) ** 2;
      const facing = r2 < 1 ? Math.sqrt(1 - r2) : 0.1;
      const i = (y * frame.width + x) * 4;
      for (let c = 0; c < 3; c++) out[i + c] = toSrgb(toLinear(frame.data[i + c]!) * (1 + strength * facing * rgb[c]!));
      out[i + 3] = 255;
    }
  }
  return { data: out, width: frame.width, height: frame.height };
}

/** Adds `strength` of each colour's linear light to every pixel: a screen's glass reflecting it over the picture behind. */
export function glass(image: Rgba, colour: LightColour, strength: number): Rgba {
  const rgb = linearOf(colour);
  const out = new Uint8ClampedArray(image.data);
  for (let i = 0; i < out.length; i += 4) for (let c = 0; c < 3; c++) out[i + c] = toSrgb(toLinear(image.data[i + c]!) + strength * rgb[c]!);
  return { data: out, width: image.width, height: image.height };
}

/**
 * How a tint painted over a face is weighted: `hard` evenly inside the outline; `soft` evenly in its
 * middle, fading to nothing over the outer half towards the outline; `shaped` as an egg facing the
 * screen would take it (the cosine of an ellipsoid's surface, fitted to the outline): a paint that
 * follows a coarse shape of a head but not the face's own.
 */
export type PaintEdge = 'hard' | 'soft' | 'shaped';

/** Multiplies the light inside the face's outline (the jaw and the brows) by the colour, weighted by `edge`: one tint painted over it. */
export function paint(image: Rgba, outline: Point[], colour: LightColour, strength: number, edge: PaintEdge = 'hard'): Rgba {
  const rgb = linearOf(colour);
  const xs = outline.map((p) => p.x);
  const ys = outline.map((p) => p.y);
  const [cx, cy] = [(Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...ys) + Math.max(...ys)) / 2];
  const [a, b] = [(Math.max(...xs) - Math.min(...xs)) / 2, (Math.max(...ys) - Math.min(...ys)) / 2];
  const weight = (x: number, y: number) => {
    const r2 = ((x - cx) / a) ** 2 + ((y - cy) / b) ** 2;
    if (edge === 'shaped') return r2 < 1 ? Math.sqrt(1 - r2) : 0;
    if (!inside(outline, { x, y })) return 0;
    return edge === 'hard' ? 1 : Math.min(1, Math.max(0, 2 * (1 - Math.sqrt(r2))));
  };
  const out = new Uint8ClampedArray(image.data);
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const w = weight(x, y);
      if (!w) continue;
      const i = (y * image.width + x) * 4;
      for (let c = 0; c < 3; c++) out[i + c] = toSrgb(toLinear(image.data[i + c]!) * (1 + w * strength * rgb[c]!));
    }
  }
  return { data: out, width: image.width, height: image.height };
}

/**
 * A head (or a print) held close to the screen in one pose, rendered twice: by the room's light
 * alone, and with a white screen at `strength`, both in linear light. The screen's light adds
 * linearly, so a frame under any colour, at any strength, is their mix (`underColour`), and costs
 * no render.
 */
export interface LitPose {
  base: Float32Array;
  white: Float32Array;
  strength: number;
  width: number;
  height: number;
  /** The mean brightness the camera's exposure holds: the unlit head's. */
  brightness: number;
}

const linearPixels = (image: Rgba) => Float32Array.from(image.data, (v, i) => (i % 4 === 3 ? 1 : toLinear(v)));

/** The picture moved `dx`, `dy` pixels, its edge repeated where it uncovers: what a camera carried in a hand sees. */
function carried(pixels: Float32Array, width: number, height: number, dx: number, dy: number): Float32Array {
  const out = new Float32Array(pixels.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [sx, sy] = [Math.min(width - 1, Math.max(0, Math.round(x - dx))), Math.min(height - 1, Math.max(0, Math.round(y - dy)))];
      out.set(pixels.subarray((sy * width + sx) * 4, (sy * width + sx) * 4 + 4), (y * width + x) * 4);
    }
  }
  return out;
}

/**
 * `count` poses of a head held still in front of the screen: each a little off the last, as a
 * person holds; with `carry`, the whole picture `carry` pixels further sideways and half as far
 * down each frame, as a phone in a hand moves (its screen, the light, moves with its camera); with
 * `turn`, the head `turn` degrees further round each frame, for a person who turns it.
 */
export function litPoses(source: Rgba, landmarks: Point[], count: number, strength: number, random: () => number, shape: Shape = 'head', { carry = 0, turn = 0 } = {}): LitPose[] {
  const size = { width: 320, height: 240 };
  const jitter = (i: number): Pose => ({ yaw: (random() - 0.5) * 4 + i * turn, pitch: (random() - 0.5) * 4, shiftX: (random() - 0.5) * 3, shiftY: (random() - 0.5) * 3, distance: 0.7 });
  const brightness = brightnessOf(render(source, landmarks, shape, { distance: 0.7 }, size));
  return Array.from({ length: count }, (_, i) => {
    const pose = jitter(i);
    const moved = (image: Rgba) => carried(linearPixels(image), size.width, size.height, i * carry, (i * carry) / 2);
    const base = moved(render(source, landmarks, shape, pose, size));
    const white = moved(render(source, landmarks, shape, pose, size, { rgb: [1, 1, 1], strength }));
    return { base, white, strength, ...size, brightness };
  });
}

/** The frame the camera takes of `pose` with the screen showing `colour` (null: nothing the page shows) at `strength`, the pose's own by default. */
export function underColour(pose: LitPose, colour: LightColour | null, strength = pose.strength): Rgba {
  const rgb = colour ? linearOf(colour) : [0, 0, 0];
  const scale = strength / pose.strength;
  const data = new Uint8ClampedArray(pose.base.length);
  for (let i = 0; i < data.length; i += 4) {
    for (let c = 0; c < 3; c++) data[i + c] = toSrgb(pose.base[i + c]! + scale * rgb[c]! * (pose.white[i + c]! - pose.base[i + c]!));
    data[i + 3] = 255;
  }
  return camera({ data, width: pose.width, height: pose.height }, pose.brightness);
}

export const jpegOf = (image: Rgba) => toJpeg(image, 85);

/** What the face models find in frames under the light (JPEG'd here where not yet): the one face of each, or null where there is none or more. */
export async function observeLit(pool: FaceObserver, images: (Rgba | Uint8Array)[]): Promise<(LitFace | null)[]> {
  const found = (await pool.observe({ moves: [], light: images.map((image) => (image instanceof Uint8Array ? image : jpegOf(image))) })).light;
  return found.map((faces) => (faces.length === 1 ? { landmarks: (faces[0] as FaceFound).landmarks, colours: (faces[0] as FaceFound).colours! } : null));
}

/** A measure's spread, for the tables' margins: its minimum, 5th, 50th and 95th percentiles and maximum. */
export function spreadOf(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  return [0, 0.05, 0.5, 0.95, 1].map((p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!.toFixed(2)).join(' ');
}

/** A seeded generator: the same renders and sequences on every run. */
export function seeded(seed: number): () => number {
  return () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
}

/** The earlier colour nearest `colour`, by the tint it gives a face. */
export function nearestColour(earlier: readonly LightColour[], colour: LightColour): number {
  return earlier.reduce((best, other, k) => (tintDistance(other, colour) < tintDistance(earlier[best]!, colour) ? k : best), 0);
}

/** How far apart two colours' tints on a face lie (squared). */
export function tintDistance(a: LightColour, b: LightColour): number {
  const [x, y] = [tintOf(a), tintOf(b)];
  return x.reduce((sum, v, c) => sum + (v - y[c]!) ** 2, 0);
}

/** An attacker's answer to `asked` from an earlier session's frames: for each colour asked, the earlier frame under the nearest colour. */
export function earlierAnswer<T>(earlier: { asked: readonly LightColour[]; frames: readonly T[] }, asked: readonly LightColour[]): T[] {
  return asked.map((colour) => earlier.frames[nearestColour(earlier.asked, colour)]!);
}

/** The rules a presentation broke, for the tables. */
export const ruleBroken = (m: LightMeasures) =>
  [m.order < LIGHT_LIMITS.order && 'order', m.each < LIGHT_LIMITS.each && 'each', !(m.spread <= LIGHT_LIMITS.spread) && 'spread', m.gain < LIGHT_LIMITS.gain && 'gain', !(m.falloff <= LIGHT_LIMITS.falloff) && 'falloff', !(m.glare <= LIGHT_LIMITS.glare) && 'glare', m.turned > LIGHT_LIMITS.turned && 'turned', m.step > LIGHT_LIMITS.step && 'step'].filter((rule) => rule !== false);
