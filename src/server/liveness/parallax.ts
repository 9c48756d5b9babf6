/**
 * Whether the nose moves against the face's own texture. A print bent around a cylinder is not
 * flat, and the landmark model, shown a bent face turned, places a nose where a head's would be:
 * landmarks alone cannot tell it from a head. The pixels can. Every point of a picture, bent or
 * not, moves with the sheet it is printed on, so the texture at the nose tip lands where the
 * texture around it (brows, eyes, mouth) says it should, within one smooth warp; a real nose stands
 * out of the face and lands elsewhere when the head turns or nods. Each point's texture is found
 * again in the later frame by normalised cross-correlation of a patch, pre-warped by the landmarks'
 * own fit, around where that fit puts it.
 */
import { eyeCentres, median, type Point } from './geometry.js';
import { solve } from './solve.js';

/** A face's surroundings in one frame, in grey levels, scaled so that its eyes are about 40 px apart. */
export interface Luma {
  data: Uint8Array;
  width: number;
  height: number;
  /** Where the crop starts in the frame, and crop pixels per frame pixel: crop = (frame - origin) * scale. */
  x0: number;
  y0: number;
  scale: number;
}

/**
 * The face around the nose, near enough for one smooth warp to carry it however a picture is bent:
 * brows, the nose's root and base, the eyes' corners, the mouth.
 */
const SURFACE = [19, 21, 22, 24, 27, 31, 32, 33, 34, 35, 36, 39, 40, 42, 45, 47, 48, 50, 51, 52, 54, 57];
/** The lower ridge and the tip: what stands out of it. */
const NOSE = [29, 30];
const FOLLOWING = {
  /** A surface point's texture is followed when its patch correlates at least this well. */
  score: 0.7,
  /** The share of the surface that must be followed to judge. */
  share: 0.45,
  /** The share of the surface points fitted worst, left out of the warp (a hidden cheek, a highlight). */
  drop: 0.15,
  /** Above this residual of the surface's own fit (in eye distances), the texture was not followed well enough to judge. */
  residual: 0.15,
};

type Warp = (p: Point) => Point;

/** The quadratic warp that best takes `from` onto `to` (least squares), about `centre` in units of `unit`. */
function quadraticFit(from: Point[], to: Point[], centre: Point, unit: number): Warp | null {
  const basis = (p: Point) => {
    const [x, y] = [(p.x - centre.x) / unit, (p.y - centre.y) / unit];
    return [1, x, y, x * x, y * y, x * y];
  };
  const rows = from.map(basis);
  const normal = (values: number[]) => solve(rows[0]!.map((_, i) => rows[0]!.map((__, j) => rows.reduce((s, r) => s + r[i]! * r[j]!, 0))), rows[0]!.map((_, i) => rows.reduce((s, r, k) => s + r[i]! * values[k]!, 0)));
  const [cx, cy] = [normal(to.map((p) => p.x)), normal(to.map((p) => p.y))];
  if (!cx || !cy) return null;
  return (p) => {
    const b = basis(p);
    return { x: b.reduce((s, v, k) => s + v * cx[k]!, 0), y: b.reduce((s, v, k) => s + v * cy[k]!, 0) };
  };
}

function sample(image: Luma, x: number, y: number): number {
  const [x0, y0] = [Math.floor(x), Math.floor(y)];
  if (x0 < 0 || y0 < 0 || x0 + 1 >= image.width || y0 + 1 >= image.height) return NaN;
  const [fx, fy] = [x - x0, y - y0];
  const i = y0 * image.width + x0;
  const d = image.data;
  return d[i]! * (1 - fx) * (1 - fy) + d[i + 1]! * fx * (1 - fy) + d[i + image.width]! * (1 - fx) * fy + d[i + image.width + 1]! * fx * fy;
}

/** The square of `image` around `centre` through the linear map `j` (its columns: where a step right and a step down go), row by row. */
function resample(image: Luma, centre: Point, half: number, j: readonly number[]): Float64Array {
  const side = 2 * half + 1;
  const values = new Float64Array(side * side);
  let k = 0;
  for (let dy = -half; dy <= half; dy++) {
    for (let dx = -half; dx <= half; dx++) values[k++] = sample(image, centre.x + j[0]! * dx + j[1]! * dy, centre.y + j[2]! * dx + j[3]! * dy);
  }
  // Off the crop: the mean of what is on it, which correlates with nothing.
  let [sum, count] = [0, 0];
  for (const v of values) if (!Number.isNaN(v)) [sum, count] = [sum + v, count + 1];
  for (let i = 0; i < values.length; i++) if (Number.isNaN(values[i]!)) values[i] = count ? sum / count : 0;
  return values;
}

/**
 * Where the texture around `from` in `a` lies in `b`, searched `search` steps about `guess` in the
 * steps of `j`, and how well it correlates there (normalised cross-correlation, -1 to 1); null
 * where there is no texture to follow. The neighbourhood in `b` is resampled once; each offset's
 * mean and spread come from running sums.
 */
function follow(a: Luma, b: Luma, from: Point, guess: Point, radius: number, search: number, j: readonly number[]): (Point & { score: number }) | null {
  const size = 2 * radius + 1;
  const template = resample(a, from, radius, [1, 0, 0, 1]);
  const mean = template.reduce((s, v) => s + v, 0) / template.length;
  let spread = 0;
  for (let i = 0; i < template.length; i++) spread += (template[i]! -= mean) ** 2;
  spread = Math.sqrt(spread);
  if (spread < 2 * size) return null;
  const side = 2 * (radius + search) + 1;
  const window = resample(b, guess, radius + search, j);
  // Sums of the window's values and squares over every rectangle from its corner.
  const [sums, squares] = [new Float64Array((side + 1) ** 2), new Float64Array((side + 1) ** 2)];
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const v = window[y * side + x]!;
      const at = (y + 1) * (side + 1) + x + 1;
      sums[at] = v + sums[at - 1]! + sums[at - side - 1]! - sums[at - side - 2]!;
      squares[at] = v * v + squares[at - 1]! + squares[at - side - 1]! - squares[at - side - 2]!;
    }
  }
  const box = (table: Float64Array, x: number, y: number) =>
    table[(y + size) * (side + 1) + x + size]! - table[y * (side + 1) + x + size]! - table[(y + size) * (side + 1) + x]! + table[y * (side + 1) + x]!;
  let best = { score: -Infinity, dx: 0, dy: 0 };
  for (let oy = 0; oy <= 2 * search; oy++) {
    for (let ox = 0; ox <= 2 * search; ox++) {
      const s = box(sums, ox, oy);
      const variance = box(squares, ox, oy) - (s * s) / template.length;
      if (variance <= 0) continue;
      let dot = 0;
      for (let ty = 0, k = 0; ty < size; ty++) {
        const row = (oy + ty) * side + ox;
        for (let tx = 0; tx < size; tx++) dot += template[k++]! * window[row + tx]!;
      }
      const score = dot / (spread * Math.sqrt(variance));
      if (score > best.score) best = { score, dx: ox - search, dy: oy - search };
    }
  }
  return { x: guess.x + j[0]! * best.dx + j[1]! * best.dy, y: guess.y + j[2]! * best.dx + j[3]! * best.dy, score: best.score };
}

const inCrop = (luma: Luma) => (p: Point): Point => ({ x: (p.x - luma.x0) * luma.scale, y: (p.y - luma.y0) * luma.scale });
const eyeDistance = (points: Point[]) => {
  const [l, r] = eyeCentres(points);
  return Math.hypot(l.x - r.x, l.y - r.y);
};

type Seen = { landmarks: Point[]; luma: Luma };

/**
 * Each point's texture in `front`, searched for in `later` within `search` of its eye distance about
 * where the landmarks' own warp carries it (compared through that warp's local linear map); null
 * where the landmarks give no warp.
 */
function follower(front: Seen, later: Seen, search: number) {
  const a = front.landmarks.map(inCrop(front.luma));
  const b = later.landmarks.map(inCrop(later.luma));
  const [unitA, unitB] = [eyeDistance(a), eyeDistance(b)];
  const predicted = quadraticFit(a, b, a[30]!, unitA);
  if (!predicted || !unitA || !unitB) return null;
  const radius = Math.max(3, Math.round(0.1 * unitA));
  const steps = Math.max(3, Math.round(search * unitB));
  // The local linear map of the landmarks' warp, by which each patch is compared.
  const jacobian = (p: Point) => {
    const [o, x, y] = [predicted(p), predicted({ x: p.x + 1, y: p.y }), predicted({ x: p.x, y: p.y + 1 })];
    return [x.x - o.x, y.x - o.x, x.y - o.y, y.y - o.y];
  };
  return { a, unitA, unitB, at: (i: number) => follow(front.luma, later.luma, a[i]!, predicted(a[i]!), radius, steps, jacobian(a[i]!)) };
}

/**
 * How well the face's own texture in one frame is found again in the next, where its landmarks say
 * it went: the median correlation of the surface's patches (null with fewer than half of them
 * textured enough to follow). One face, followed, keeps its texture from frame to frame (0.93 or
 * more on the fixtures' real clips at the widget's four frames a second); another person's face in
 * the same pose does not (0.83 at most, film.test.ts and the liveness judge's table). Under a
 * millisecond a pair of frames.
 */
export function textureKept(front: Seen, later: Seen): number | null {
  const following = follower(front, later, 0.08);
  if (!following) return null;
  const scores = SURFACE.flatMap((i) => following.at(i)?.score ?? []);
  return scores.length < SURFACE.length / 2 ? null : median(scores);
}

/**
 * How far the nose's texture (its ridge, its tip) moved beyond where the face's surface around it
 * says, in eye distances of the later frame: near 0 for any picture, flat or bent, whichever way
 * it is moved. Empty when the texture could not be followed well enough to judge. A few
 * milliseconds of CPU a frame.
 */
export function noseShifts(front: Seen, later: Seen): Point[] {
  const following = follower(front, later, 0.25);
  if (!following) return [];
  const { a, unitA, unitB } = following;
  const found = new Map<number, Point>();
  for (const i of [...SURFACE, ...NOSE]) {
    const point = following.at(i);
    if (point && (NOSE.includes(i) || point.score >= FOLLOWING.score)) found.set(i, point);
  }
  let surface = SURFACE.filter((i) => found.has(i));
  if (surface.length < SURFACE.length * FOLLOWING.share) return [];
  const fit = () => quadraticFit(surface.map((i) => a[i]!), surface.map((i) => found.get(i)!), a[30]!, unitA);
  const miss = (warp: Warp, i: number) => {
    const [p, q] = [warp(a[i]!), found.get(i)!];
    return { x: (q.x - p.x) / unitB, y: (q.y - p.y) / unitB };
  };
  const first = fit();
  if (!first) return [];
  const length = (v: Point) => Math.hypot(v.x, v.y);
  surface = [...surface].sort((i, j) => length(miss(first, i)) - length(miss(first, j))).slice(0, Math.ceil(surface.length * (1 - FOLLOWING.drop)));
  const smooth = fit();
  if (!smooth) return [];
  const residual = Math.sqrt(surface.reduce((s, i) => s + length(miss(smooth, i)) ** 2, 0) / surface.length);
  if (residual > FOLLOWING.residual) return [];
  return NOSE.filter((i) => found.has(i)).map((i) => miss(smooth, i));
}

/**
 * How far the nose moved beyond the face towards `direction` (a unit vector in the picture: where
 * a head turning or nodding as asked carries its nose): 0.06 to 0.3 for a head turned or nodded
 * 20-25°; 0 when nothing could be judged.
 */
export function noseParallax(shifts: Point[], direction: Point): number {
  return Math.max(0, ...shifts.map((shift) => shift.x * direction.x + shift.y * direction.y));
}
