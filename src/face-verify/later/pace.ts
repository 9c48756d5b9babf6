/**
 * Paces a live challenge's movements to the person, with no detector and no model: a few times a
 * second the preview's picture is drawn small, in grey, and compared inside the oval with the one
 * before and with the step's first. A movement is made once the picture lies far from where the
 * step began, beyond what the picture's own stillness (measured while the person looks straight)
 * gives, and has kept still there a moment: the person moved and is holding it. Which movement it
 * was is the host's to judge from the film; this only decides when to ask the next one. A person
 * who does not move is asked the next one at the step's limit, as before pacing.
 */
import { areaLuma, type Pixels } from '../../core/luma.js';

/** The grey picture compared: small enough to cost nothing, large enough to see a head turn. */
const GRID = { width: 48, height: 36 };

export const PACE = {
  everyMs: 125,
  /** Still this long after moving: the movement is held (three looks). */
  holdMs: 375,
  /**
   * Held: each of the last looks changed less than `still` times the stillness plus `stillAbove`
   * (mean grey levels of 255, inside the oval), and lay farther than `far` times it plus `farAbove`
   * from the step's first look. On the fixtures' real clips (pace.test.ts prints them): people
   * who keep still, smile, talk or shift on a webcam drift at most 0.79 of the way to `far` in a
   * step; a woman turning from frontal and held at 0.4 to 0.8 of her fullest turn lies 1.3 to 2.2
   * times as far.
   */
  still: 1.5,
  stillAbove: 1,
  far: 4,
  farAbove: 14,
};

/** The grey picture of `pixels`, its cells outside the oval (half the width and 0.84 of the height across) set to NaN. */
export function greyOval(pixels: Pixels): Float32Array {
  const grey = areaLuma(pixels, GRID.width, GRID.height);
  for (let cell = 0; cell < grey.length; cell++) {
    const [x, y] = [((cell % GRID.width) + 0.5) / GRID.width - 0.5, (Math.floor(cell / GRID.width) + 0.5) / GRID.height - 0.5];
    if ((x / 0.25) ** 2 + (y / 0.42) ** 2 > 1) grey[cell] = NaN;
  }
  return grey;
}

/** The mean change of grey from one picture to the next, inside the oval. */
export function change(a: Float32Array, b: Float32Array): number {
  let [sum, count] = [0, 0];
  for (let i = 0; i < a.length; i++) if (!Number.isNaN(a[i]!)) [sum, count] = [sum + Math.abs(a[i]! - b[i]!), count + 1];
  return count ? sum / count : 0;
}

/** One look at the picture: how much it changed since the look before, and since the step began. */
export interface Look {
  change: number;
  away: number;
}

/**
 * Whether `looks` (from the step's start) show a movement made and now held, for a picture whose
 * stillness is `stillness`: the last looks still, and all of them far from where the step began. A
 * person talking or shifting returns near to where they were; a head turned and held does not.
 */
export function madeMove(looks: readonly Look[], stillness: number, pace = PACE): boolean {
  const last = looks.slice(-Math.round(pace.holdMs / pace.everyMs));
  return (
    looks.length > last.length &&
    last.every(({ change, away }) => change < pace.still * stillness + pace.stillAbove && away > pace.far * stillness + pace.farAbove)
  );
}

/** A picture's stillness: the median of its changes from one look to the next while the person looks straight (0 before any look). */
export const stillnessOf = (changes: readonly number[]) => [...changes].sort((a, b) => a - b)[Math.floor(changes.length / 2)] ?? 0;

/** Watches `video`'s picture for as long as the challenge lasts: how still it is, then when each movement is made. */
export function watchPace(video: HTMLVideoElement) {
  const canvas = Object.assign(document.createElement('canvas'), GRID);
  const context = canvas.getContext('2d', { willReadFrequently: true })!;
  let [previous, start] = [null as Float32Array | null, null as Float32Array | null];
  let looks: Look[] = [];
  const look = () => {
    context.drawImage(video, 0, 0, GRID.width, GRID.height);
    const grey = greyOval(context.getImageData(0, 0, GRID.width, GRID.height));
    start ??= grey;
    if (previous) looks.push({ change: change(previous, grey), away: change(start, grey) });
    previous = grey;
  };
  const timer = setInterval(look, PACE.everyMs);
  let stillness = 0;
  return {
    /** The person looked straight since the last step: how much the picture changes when nothing moves. */
    still(): void {
      stillness = stillnessOf(looks.map((look) => look.change));
    },
    /** Resolves once a movement is made and held, after `minMs` and by `limitMs`, or when `going` turns false. */
    async made(minMs: number, limitMs: number, going: () => unknown): Promise<void> {
      [looks, start] = [[], previous];
      const started = performance.now();
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, PACE.everyMs));
        const spent = performance.now() - started;
        if (!going() || spent >= limitMs || (spent >= minMs && madeMove(looks, stillness))) return;
      }
    },
    stop: () => clearInterval(timer),
  };
}
