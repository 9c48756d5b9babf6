/**
 * Frames of a head with real depth, for the liveness tests: a photo of a person is given a 3D shape
 * (an ellipsoid head the width of the jaw, with a nose ridge and tip standing out of it, placed on
 * the photo's own landmarks) and rendered as a pinhole camera sees it after the head turns, tilts or
 * comes closer, with a z-buffer. The same renderer with no depth is the exact geometry of a flat
 * picture (a print or a screen) moved in front of the camera: a homography of the photo. A bent
 * print is a cylinder.
 */
import jpeg from 'jpeg-js';
import type { Point } from '../../../src/server/liveness/geometry.js';

export interface Rgba {
  data: Uint8Array | Uint8ClampedArray;
  width: number;
  height: number;
}

/**
 * How the thing in front of the camera is shaped: a head, or a print flat, bent around an upright
 * axis (a cylinder), rolled as deeply as a face is round, or bent around a level axis.
 */
export type Shape = 'head' | 'flat' | 'bent' | 'rolled' | 'bent across';

export interface Pose {
  /** Degrees; positive turns the head to its own left (the viewer's right). */
  yaw?: number;
  /** Degrees; positive tilts the face up. */
  pitch?: number;
  /** Degrees of roll in the picture's plane. */
  roll?: number;
  /** The distance as a share of the first one: 0.75 is a quarter closer. */
  distance?: number;
  /** Sideways and up-down shift, in pixels of the frame. */
  shiftX?: number;
  shiftY?: number;
}

export const FRAME = { width: 640, height: 480 };

/**
 * A screen in front of the face, beside the camera, lighting it with one colour (linear red, green
 * and blue, 0 to 1) at `strength` times the room's light where the skin faces it square on; less
 * by the cosine where it turns away, and a tenth as much on the room a metre behind.
 */
export interface ScreenLight {
  rgb: readonly [number, number, number];
  strength: number;
}

/** An 8-bit sRGB value's linear light, 0 to 1, and back (clipped to white). */
const linearOf = (v: number) => (v / 255 <= 0.04045 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
// A pixel's byte looked up, the same number: the power took a third of the light tests' time.
const LINEAR = Float64Array.from({ length: 256 }, (_, v) => linearOf(v));
export const toLinear = (v: number) => (Number.isInteger(v) && v >= 0 && v <= 255 ? LINEAR[v]! : linearOf(v));
export const toSrgb = (l: number) => 255 * (l <= 0.0031308 ? 12.92 * l : 1.055 * Math.min(1, l) ** (1 / 2.4) - 0.055);
/** A value lit by `gain` (a multiplier of its linear light), back in sRGB. */
const lit = (v: number, gain: number) => toSrgb(toLinear(v) * gain);

/** The depth of each point of the photo, towards the camera, for a shape on these landmarks. */
function depthOf(shape: Shape, landmarks: Point[]) {
  const jaw = landmarks.slice(0, 17);
  const cx = (jaw[0]!.x + jaw[16]!.x) / 2;
  const a = (jaw[16]!.x - jaw[0]!.x) / 2;
  const cy = (landmarks[27]!.y + landmarks[8]!.y) / 2 - 0.15 * a;
  const b = 1.4 * a;
  const tip = landmarks[30]!;
  const bridge = landmarks[27]!;
  const gauss = (dx: number, dy: number, sx: number, sy: number) => Math.exp(-(dx * dx) / (2 * sx * sx) - (dy * dy) / (2 * sy * sy));
  return {
    centre: { x: cx, y: cy },
    a,
    depth(x: number, y: number): number | null {
      if (shape === 'flat') return 0;
      if (shape === 'bent') return -0.35 * a * ((x - cx) / a) ** 2;
      if (shape === 'rolled') return -0.8 * a * ((x - cx) / a) ** 2;
      if (shape === 'bent across') return -0.6 * a * ((y - cy) / a) ** 2;
      const r2 = ((x - cx) / (1.05 * a)) ** 2 + ((y - cy) / b) ** 2;
      if (r2 >= 1) return null;
      const head = 0.85 * a * Math.sqrt(1 - r2);
      const noseLine = bridge.x + ((tip.x - bridge.x) * (y - bridge.y)) / (tip.y - bridge.y || 1);
      const along = Math.min(1, Math.max(0, (y - bridge.y) / (tip.y - bridge.y || 1)));
      const ridge = y > bridge.y - 0.1 * a && y < tip.y + 0.1 * a ? 0.3 * a * along * gauss(x - noseLine, 0, 0.1 * a, 1) : 0;
      const nose = 0.32 * a * gauss(x - tip.x, y - tip.y, 0.12 * a, 0.1 * a);
      return head + Math.max(ridge, nose);
    },
  };
}

/** The photo, fitted into the frame, as the camera sees `shape` after `pose`. */
export function render(photo: Rgba, landmarks: Point[], shape: Shape, pose: Pose, size = FRAME, light?: ScreenLight): Rgba {
  const { centre, a, depth } = depthOf(shape, landmarks);
  // The photo fitted so that the face is about a third of the frame's width.
  const fit = (size.width * 0.32) / (2 * a);
  const focal = 1.1 * size.width;
  const distance = focal * (pose.distance ?? 1);
  const [yaw, pitch, roll] = [pose.yaw ?? 0, pose.pitch ?? 0, pose.roll ?? 0].map((d) => (d * Math.PI) / 180) as [number, number, number];
  // A head turns about the neck, behind its face; a picture about itself.
  const pivot = shape === 'head' ? 0.7 * a * fit : 0;
  const out = new Uint8ClampedArray(size.width * size.height * 4);
  const zbuffer = new Float32Array(size.width * size.height).fill(-Infinity);
  for (let i = 0; i < out.length; i += 4) out.set([40, 44, 48, 255], i);
  // A head turns in front of its own shoulders and room, which stay where they were: the photo,
  // unmoved, behind it. A face cut out onto grey looks to the passive model like the cut-out it is.
  if (shape === 'head') out.set(render(photo, landmarks, 'flat', { distance: pose.distance }, size, light && { ...light, strength: light.strength / 10 }).data);
  const step = 0.5 / fit;
  // Made once, not in the loop: the test loader names every function it makes, a property defined
  // each time (five sixths of a render's time, made per pixel).
  const at = (px: number, py: number, c: number) => photo.data[(py * photo.width + px) * 4 + c]!;
  for (let y = 0; y < photo.height; y += Math.min(1, step)) {
    for (let x = 0; x < photo.width; x += Math.min(1, step)) {
      const z = depth(x, y);
      if (z === null) continue;
      let X = (x - centre.x) * fit;
      let Y = (y - centre.y) * fit;
      let Z = z * fit + pivot;
      // Roll, then pitch (about the horizontal axis), then yaw (about the vertical).
      [X, Y] = [X * Math.cos(roll) - Y * Math.sin(roll), X * Math.sin(roll) + Y * Math.cos(roll)];
      [Y, Z] = [Y * Math.cos(pitch) - Z * Math.sin(pitch), Y * Math.sin(pitch) + Z * Math.cos(pitch)];
      [X, Z] = [X * Math.cos(yaw) + Z * Math.sin(yaw), -X * Math.sin(yaw) + Z * Math.cos(yaw)];
      Z -= pivot;
      const scale = focal / (distance - Z);
      const u = Math.round(size.width / 2 + (pose.shiftX ?? 0) + X * scale);
      const v = Math.round(size.height / 2 + (pose.shiftY ?? 0) + Y * scale);
      if (u < 0 || v < 0 || u >= size.width || v >= size.height) continue;
      const cell = v * size.width + u;
      if (Z < zbuffer[cell]!) continue;
      zbuffer[cell] = Z;
      // The photo read between its pixels (bilinear), as a lens sees a surface: enlarged in blocks, a
      // face looks like a screen's pixels to the passive model.
      const [x0, y0] = [Math.floor(x), Math.floor(y)];
      const [x1, y1] = [Math.min(x0 + 1, photo.width - 1), Math.min(y0 + 1, photo.height - 1)];
      const [wx, wy] = [x - x0, y - y0];
      const facing = light ? facingCamera(depth, x, y, z, [roll, pitch, yaw]) : 0;
      for (let c = 0; c < 3; c++) {
        const value = (at(x0, y0, c) * (1 - wx) + at(x1, y0, c) * wx) * (1 - wy) + (at(x0, y1, c) * (1 - wx) + at(x1, y1, c) * wx) * wy;
        out[cell * 4 + c] = light ? lit(value, 1 + light.strength * facing * light.rgb[c]!) : value;
      }
    }
  }
  return { data: out, width: size.width, height: size.height };
}

/** The cosine between the surface's normal at (x, y), after the pose's rotation, and the way to the camera. */
function facingCamera(depth: (x: number, y: number) => number | null, x: number, y: number, z: number, [roll, pitch, yaw]: [number, number, number]): number {
  const [right, below] = [depth(x + 1, y) ?? z, depth(x, y + 1) ?? z];
  let [X, Y, Z] = [z - right, z - below, 1];
  [X, Y] = [X * Math.cos(roll) - Y * Math.sin(roll), X * Math.sin(roll) + Y * Math.cos(roll)];
  [Y, Z] = [Y * Math.cos(pitch) - Z * Math.sin(pitch), Y * Math.sin(pitch) + Z * Math.cos(pitch)];
  [X, Z] = [X * Math.cos(yaw) + Z * Math.sin(yaw), -X * Math.sin(yaw) + Z * Math.cos(yaw)];
  return Math.max(0, Z / Math.hypot(X, Y, Z));
}

export function toJpeg(image: Rgba, quality = 85): Uint8Array {
  return jpeg.encode({ data: Buffer.from(image.data), width: image.width, height: image.height }, quality).data;
}

export function fromJpeg(bytes: Uint8Array): Rgba {
  return jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true });
}
