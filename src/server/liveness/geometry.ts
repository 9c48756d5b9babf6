/**
 * What the frames of a live challenge show, from each face's 68 landmarks (the iBUG layout: 0-16 the
 * jaw, 27-30 the nose bridge to its tip, 36-47 the eyes, 8 the chin): where the head points, how
 * large it is, and whether it has depth. A flat picture (a print, a screen) turned, tilted or moved
 * in front of a camera is a plane, so its landmarks in any frame are one homography of its
 * landmarks in another; a head is not flat, and the nose moves against the cheeks and the outline
 * when it turns. Pure arithmetic, for any runtime; the landmarks come from a model elsewhere.
 */

import { solve } from './solve.js';

/** The middle value (the mean of the two middle ones for an even count): what one outlier cannot move. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export interface Point {
  x: number;
  y: number;
}

/** Where a face points and how large it is, in proxies that need no camera calibration. */
export interface Pose {
  /** The nose tip's offset from the middle of the jaw, as a share of the jaw's width: positive is the picture's right. */
  yaw: number;
  /** How far down the nose tip sits between the eyes and the chin (0 at the eyes, 1 at the chin). */
  pitch: number;
  /** The distance between the eyes' centres, in pixels. */
  size: number;
}

const mean = (points: Point[]): Point => ({ x: points.reduce((s, p) => s + p.x, 0) / points.length, y: points.reduce((s, p) => s + p.y, 0) / points.length });
const distance = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);

export function eyeCentres(landmarks: Point[]): [Point, Point] {
  return [mean(landmarks.slice(36, 42)), mean(landmarks.slice(42, 48))];
}

export function poseOf(landmarks: Point[]): Pose {
  const [left, right] = eyeCentres(landmarks);
  const jawLeft = landmarks[0]!;
  const jawRight = landmarks[16]!;
  const tip = landmarks[30]!;
  const eyes = mean([left, right]);
  const chin = landmarks[8]!;
  return {
    yaw: (tip.x - (jawLeft.x + jawRight.x) / 2) / (jawRight.x - jawLeft.x || 1),
    pitch: (tip.y - eyes.y) / (chin.y - eyes.y || 1),
    size: distance(left, right),
  };
}

/** Moves points so their centre is 0 and their mean distance from it √2 (Hartley), for a stable fit. */
function normalizer(points: Point[]) {
  const c = mean(points);
  const spread = points.reduce((s, p) => s + distance(p, c), 0) / points.length || 1;
  const k = Math.SQRT2 / spread;
  return (p: Point): Point => ({ x: (p.x - c.x) * k, y: (p.y - c.y) * k });
}

/**
 * The homography that best takes `from` onto `to` (least squares, h33 = 1, on normalised points),
 * and how far each point lands from where it should, as root mean square in units of the first
 * face's eye distance. A flat picture moved lands within the model's noise; a head turned does not.
 */
export function planarResidual(from: Point[], to: Point[]): number {
  const [nf, nt] = [normalizer(from), normalizer(to)];
  const [f, t] = [from.map(nf), to.map(nt)];
  const rows: number[][] = [];
  const rhs: number[] = [];
  f.forEach((p, i) => {
    const q = t[i]!;
    rows.push([p.x, p.y, 1, 0, 0, 0, -p.x * q.x, -p.y * q.x]);
    rhs.push(q.x);
    rows.push([0, 0, 0, p.x, p.y, 1, -p.x * q.y, -p.y * q.y]);
    rhs.push(q.y);
  });
  // Normal equations: 8 unknowns.
  const ata = Array.from({ length: 8 }, (_, i) => Array.from({ length: 8 }, (_, j) => rows.reduce((s, r) => s + r[i]! * r[j]!, 0)));
  const atb = Array.from({ length: 8 }, (_, i) => rows.reduce((s, r, k) => s + r[i]! * rhs[k]!, 0));
  const h = solve(ata, atb);
  if (!h) return Infinity;
  // Residuals measured in the normalised frame of `to`, then in eye distances of `to`.
  const [le, re] = eyeCentres(to);
  const unit = distance(nt(le), nt(re)) || 1;
  const squared = f.map((p, i) => {
    const w = h[6]! * p.x + h[7]! * p.y + 1;
    const x = (h[0]! * p.x + h[1]! * p.y + h[2]!) / w;
    const y = (h[3]! * p.x + h[4]! * p.y + h[5]!) / w;
    return (x - t[i]!.x) ** 2 + (y - t[i]!.y) ** 2;
  });
  return Math.sqrt(squared.reduce((s, v) => s + v, 0) / squared.length) / unit;
}

/** Whether a point lies inside a polygon (even-odd rule). */
export function inside(polygon: Point[], p: Point): boolean {
  let odd = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [a, b] = [polygon[i]!, polygon[j]!];
    if (a.y > p.y !== b.y > p.y && p.x < ((b.x - a.x) * (p.y - a.y)) / (b.y - a.y) + a.x) odd = !odd;
  }
  return odd;
}
