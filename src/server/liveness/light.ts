/**
 * The light challenge: colours the handler chooses after the movements' nonce, shown by the widget
 * on the screen in front of the person's face, and a frame taken under each. A recording made before
 * the challenge cannot carry colours chosen after it. What is judged is the face's own reflection:
 * the skin facing the screen (the nose and inner cheeks) takes each colour in turn, in the order
 * asked, against the room far behind, which barely does; and the skin turned away from the screen
 * (towards the jaw's outline) takes it less, as light falls off with the angle. A screen's glass
 * washes face and room alike; one tint painted over the face's outline is as strong at its edge as
 * at its middle; a recording shows none.
 *
 * Colours are compared in logarithms of linear light with each frame's own mean taken out, so that
 * the camera's exposure cancels, and the face's against the room's, so that a camera's white balance
 * moving between frames cancels too. Pure arithmetic: the frames' colour grids come from the face
 * models' workers.
 */
import { eyeCentres, inside, type Point } from './geometry.js';
import { secureRandom } from './random.js';

/**
 * The screen's colours, as linear red, green and blue at full brightness: far apart in hue, so that
 * a face under one is not a face under another. No saturated red (WCAG 2.3.1 counts red as a red
 * share of 0.8 or more): magenta, the reddest, is 0.5.
 */
export const PALETTE = {
  '#ffffff': [1, 1, 1],
  '#0000ff': [0, 0, 1],
  '#00ff00': [0, 1, 0],
  '#ffff00': [1, 1, 0],
  '#00ffff': [0, 1, 1],
  '#ff00ff': [1, 0, 1],
} as const satisfies Record<string, readonly [number, number, number]>;
export type LightColour = keyof typeof PALETTE;

/**
 * Four colours of 600 ms: 1.7 changes a second at most, under WCAG's three, and 2.4 s for the person
 * to hold still, close to the screen. Each differs from the one before: 6 x 5^3 = 750 sequences.
 */
export const LIGHT = { colours: 4, holdMs: 600 };

/** A face's surroundings in a grid of mean linear colours, from the worker: grid cell (u, v) covers frame pixels from (x0 + u * cell, y0 + v * cell). */
export interface ColourGrid {
  /** Red, green and blue of each cell, row by row; NaN where the cell lies outside the frame. */
  data: ArrayLike<number>;
  size: number;
  x0: number;
  y0: number;
  cell: number;
}

export interface LitFace {
  landmarks: Point[];
  colours: ColourGrid;
}

export type LightVerdict = { lit: true } | { lit: false; reason: 'light_not_seen' | 'light_moved' };

/**
 * Measured on rendered heads of the fixtures' people a forearm from a screen (light.test.ts, the
 * liveness page), 240 challenges a kind: people's faces follow the colours' order at 0.93 or more
 * (5th percentile; a recording -0.6 to 0.6, another sequence up to 0.6), their cheeks' far sides
 * take 0.45 to 0.81 of what the middle takes where one tint painted on takes 0.86 to 1.03, and a
 * screen's glass shows darker cells changing more, at 0.79 to 0.96, where skin shows -0.37 to 0.3.
 */
export const LIGHT_LIMITS = {
  /** The face's colours against the colours asked, over the whole sequence: the order was followed. */
  order: 0.8,
  /** The same, from each frame to the next: each frame was taken under its own colour. */
  each: 0.3,
  /** The reflection's strength, as a share of what `EXPECTED` would give: enough light to judge. */
  gain: 0.15,
  /** The skin turned away from the screen takes at most this share of what the middle takes: a reflection falls off. */
  falloff: 0.68,
  /** Darker cells changing more than brighter ones at most this much (a correlation): not a reflection on glass. */
  glare: 0.5,
  /** The eyes moved less than this share of their distance between the first frame and any other. */
  moved: 0.35,
};

/** The screen's light on a face close to it, as a share of the room's light, that the expected pattern is shaped for. */
const EXPECTED = 0.3;

type Rgb = [number, number, number];

/** Logarithms of a colour with their mean taken out: what is left when the exposure changes. */
function chroma([r, g, b]: readonly number[]): Rgb {
  const logs = [r, g, b].map((v) => Math.log(Math.max(v!, 1e-4))) as Rgb;
  const mean = (logs[0] + logs[1] + logs[2]) / 3;
  return logs.map((v) => v - mean) as Rgb;
}

const minus = (a: Rgb, b: Rgb): Rgb => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: Rgb, b: Rgb) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

/** Each frame's vector less the frames' mean. */
function centred(vectors: Rgb[]): Rgb[] {
  const mean = [0, 1, 2].map((c) => vectors.reduce((sum, v) => sum + v[c]!, 0) / vectors.length) as Rgb;
  return vectors.map((v) => minus(v, mean));
}

/**
 * The grid's cells in three regions, from the first frame's landmarks (each frame's grid is placed
 * on its own face, so a cell is the same place on the face in every frame): the middle (the nose
 * and the inner cheeks, facing the screen), across the face (inside its outline, between the eyes'
 * and the mouth's height, each cell with its (x / half the jaw's width)^2: 0 on the nose's line, 1
 * at the outline, where the cheek has turned from the screen) and the room (beyond the head, level
 * with it and above: the shoulders face the screen too).
 */
function regionsOf({ landmarks, colours: grid }: LitFace) {
  const [left, right] = eyeCentres(landmarks);
  const eyes = Math.hypot(left.x - right.x, left.y - right.y);
  const centre = { x: (landmarks[27]!.x + landmarks[33]!.x) / 2, y: (landmarks[27]!.y + landmarks[33]!.y) / 2 };
  const from = (p: Point) => Math.hypot(p.x - centre.x, p.y - centre.y) / eyes;
  const outline = [...landmarks.slice(0, 17), ...landmarks.slice(17, 27).reverse()];
  const [axis, half] = [(landmarks[0]!.x + landmarks[16]!.x) / 2, Math.abs(landmarks[16]!.x - landmarks[0]!.x) / 2];
  const [top, bottom] = [(left.y + right.y) / 2, (landmarks[48]!.y + landmarks[54]!.y) / 2];
  const regions = { middle: [] as number[], room: [] as number[], across: new Map<number, number>() };
  for (let cell = 0; cell < grid.size * grid.size; cell++) {
    const p = { x: grid.x0 + ((cell % grid.size) + 0.5) * grid.cell, y: grid.y0 + (Math.floor(cell / grid.size) + 0.5) * grid.cell };
    if (p.y >= top && p.y <= bottom && inside(outline, p)) regions.across.set(cell, ((p.x - axis) / half) ** 2);
    if (from(p) <= 0.55) regions.middle.push(cell);
    else if (from(p) >= 1.8 && p.y <= centre.y + 0.5 * eyes) regions.room.push(cell);
  }
  return regions;
}

/** A cell's colour in one frame, or null outside it. */
function colourAt(grid: ColourGrid, cell: number): Rgb | null {
  const rgb = [0, 1, 2].map((c) => grid.data[cell * 3 + c]!) as Rgb;
  return rgb.every(Number.isFinite) ? rgb : null;
}

/** The mean colour of some cells, in each frame; null where one frame has none of them. */
function meansOf(frames: LitFace[], cells: number[]): Rgb[] | null {
  const means = frames.map(({ colours }) => {
    const found = cells.map((cell) => colourAt(colours, cell)).filter((rgb) => rgb !== null);
    return found.length ? ([0, 1, 2].map((c) => found.reduce((sum, rgb) => sum + rgb[c]!, 0) / found.length) as Rgb) : null;
  });
  return means.every((mean) => mean !== null) ? (means as Rgb[]) : null;
}

/** Two series' means, and their sums of products about them. */
function moments(xs: number[], ys: number[]) {
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  const [mx, my] = [mean(xs), mean(ys)];
  let [xy, xx, yy] = [0, 0, 0];
  for (let i = 0; i < xs.length; i++) [xy, xx, yy] = [xy + (xs[i]! - mx) * (ys[i]! - my), xx + (xs[i]! - mx) ** 2, yy + (ys[i]! - my) ** 2];
  return { mx, my, xy, xx, yy };
}

/** The least-squares line through points: its value at 0 and its slope. */
function line(xs: number[], ys: number[]): { at0: number; slope: number } {
  const { mx, my, xy, xx } = moments(xs, ys);
  const slope = xx ? xy / xx : 0;
  return { at0: my - slope * mx, slope };
}

/** Pearson's correlation of two series. */
function correlation(xs: number[], ys: number[]): number {
  const { xy, xx, yy } = moments(xs, ys);
  return xx && yy ? xy / Math.sqrt(xx * yy) : 0;
}

/** How each frame's colour should move, from the colours shown: the screen's light added to the room's. */
export function expectedPattern(colours: readonly LightColour[]): Rgb[] {
  return centred(colours.map((colour) => chroma(PALETTE[colour].map((c) => 1 + EXPECTED * c))));
}

/** How much a region follows the pattern: its correlation with it, and its slope on it. */
function follows(observed: Rgb[], expected: Rgb[]) {
  const [xy, xx, yy] = observed.reduce(([xy, xx, yy], o, i) => [xy + dot(o, expected[i]!), xx + dot(o, o), yy + dot(expected[i]!, expected[i]!)], [0, 0, 0]);
  return { correlation: xx > 0 ? xy / Math.sqrt(xx * yy) : 0, gain: xy / yy };
}

/** What the judge reads from the frames, for the rules and for the tests' tables. */
export interface LightMeasures {
  /** The middle's colours against the colours asked, over the sequence. */
  order: number;
  /** The lowest of the same, from each frame to the next. */
  each: number;
  /** The middle's slope on the expected pattern. */
  gain: number;
  /** The gain at the face's outline as a share of the gain on the nose's line, on a straight line through the cells across the face. */
  falloff: number;
  /** How much more the face's darker cells change than its brighter ones (a correlation): a screen's glass. */
  glare: number;
  /** The farthest either eye moved from the first frame, in eye distances. */
  moved: number;
}

export function measureLight(frames: LitFace[], colours: readonly LightColour[]): LightMeasures | null {
  const [first] = frames.map((frame) => eyeCentres(frame.landmarks));
  const size = Math.hypot(first![0].x - first![1].x, first![0].y - first![1].y);
  const moved = Math.max(...frames.map(({ landmarks }) => Math.max(...eyeCentres(landmarks).map((eye, i) => Math.hypot(eye.x - first![i]!.x, eye.y - first![i]!.y))))) / size;
  const regions = regionsOf(frames[0]!);
  const [middle, room] = [meansOf(frames, regions.middle), meansOf(frames, regions.room)];
  if (!middle || !room || regions.across.size < 2) return null;
  // Against the room: a camera's white balance moves face and room alike.
  const against = (colours: Rgb[]) => centred(colours.map((rgb, i) => minus(chroma(rgb), chroma(room[i]!))));
  const expected = expectedPattern(colours);
  const inMiddle = follows(against(middle), expected);
  // Each change of colour, the middle's colour changed with it: white between two colours opposite
  // in hue is expected no different from their mean, so frames are not judged alone.
  const steps = (vectors: Rgb[]) => vectors.slice(1).map((v, i) => minus(v, vectors[i]!));
  const expectedSteps = steps(expected);
  const each = Math.min(...steps(against(middle)).map((m, i) => dot(m, expectedSteps[i]!) / (Math.sqrt(dot(m, m) * dot(expectedSteps[i]!, expectedSteps[i]!)) || 1)));
  // Cell by cell: each cell's own gain, and how bright it is.
  const gainsOf = (cells: number[]) => cells.flatMap((cell) => {
    const seen = frames.map(({ colours }) => colourAt(colours, cell));
    if (!seen.every((rgb) => rgb !== null)) return [];
    const brightness = (seen as Rgb[]).reduce((sum, [r, g, b]) => sum + 0.2126 * r + 0.7152 * g + 0.0722 * b, 0) / seen.length;
    return [{ cell, gain: follows(against(seen as Rgb[]), expected).gain, brightness }];
  });
  // Across the face at the eyes' to the mouth's height, the gain against (x / half the jaw)^2: a
  // straight line through every cell, which the few cells at the outline's edge move little.
  const across = gainsOf([...regions.across.keys()]);
  const fit = line(across.map((c) => regions.across.get(c.cell)!), across.map((c) => c.gain));
  const falloff = (fit.at0 + fit.slope) / fit.at0;
  // Skin multiplies the light that falls on it: a dark cell and a bright one change alike. A
  // screen's glass adds its reflection to the picture behind: the darker the cell, the more it changes.
  const face = gainsOf([...new Set([...regions.middle, ...regions.across.keys()])]);
  const glare = -correlation(face.map((cell) => Math.log(cell.brightness)), face.map((cell) => cell.gain));
  return { order: inMiddle.correlation, each, gain: inMiddle.gain, falloff, glare, moved };
}

/** Whether the frames, taken under `colours` in order, show a face reflecting them. */
export function judgeLight(frames: LitFace[], colours: readonly LightColour[], limits = LIGHT_LIMITS): LightVerdict {
  const measures = measureLight(frames, colours);
  if (measures && measures.moved > limits.moved) return { lit: false, reason: 'light_moved' };
  if (!measures) return { lit: false, reason: 'light_not_seen' };
  const { order, each, gain, falloff, glare } = measures;
  if (!(order >= limits.order && each >= limits.each && gain >= limits.gain && falloff <= limits.falloff && glare <= limits.glare)) return { lit: false, reason: 'light_not_seen' };
  return { lit: true };
}

/** Colours for one challenge: `count` of the palette, each different from the one before. */
export function randomLight(count = LIGHT.colours, random: (n: number) => number = secureRandom): LightColour[] {
  const all = Object.keys(PALETTE) as LightColour[];
  const colours: LightColour[] = [];
  while (colours.length < count) {
    const choices = all.filter((colour) => colour !== colours.at(-1));
    colours.push(choices[random(choices.length)]!);
  }
  return colours;
}
