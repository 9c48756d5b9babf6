/**
 * The live challenge's pacing (pace.ts) on the fixtures' real clips, framed as the widget's gate
 * frames a face (its height about 0.45 of the picture's) and looked at eight times a second: a
 * person who has not moved never ends a step early, and a real head turn is many times beyond the
 * stillness. Prints the margins.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { change, greyOval, madeMove, PACE, stillnessOf, type Look } from '../../../src/face-verify/later/pace.js';
import { createFacePool } from '../../../src/server/node/index.js';
import { poseOf } from '../../../src/server/liveness/geometry.js';
import { FIXTURES } from '../helpers.js';
import { toJpeg, type Rgba } from '../liveness/head.js';
import { gifFrames, videoFrames } from '../liveness/video-frames.js';

const pool = createFacePool({ workers: 1 });
after(() => pool.close());

/** The yaw of the face in each of `frames` (geometry.ts's proxy). */
const yaws = async (frames: Rgba[]) => (await pool.observe({ moves: frames.map((frame) => toJpeg(frame, 92)), light: [] })).moves.map(([face]) => poseOf(face!.landmarks).yaw);

/** `frames` cut to a 4:3 picture round the first frame's face, the face 0.45 of its height, as the gate frames one. */
async function framed(frames: Rgba[]): Promise<Rgba[]> {
  const face = (await pool.observe({ moves: [toJpeg(frames[0]!, 92)], light: [] })).moves[0]![0];
  const [xs, ys] = [face!.landmarks.map((p) => p.x), face!.landmarks.map((p) => p.y)];
  const [cx, cy] = [(Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...ys) + Math.max(...ys)) / 2];
  const height = Math.round((Math.max(...ys) - Math.min(...ys)) / 0.45);
  const width = Math.round((height * 4) / 3);
  return frames.map(({ data, width: w, height: h }) => {
    const out = new Uint8ClampedArray(width * height * 4);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const from = (Math.min(h - 1, Math.max(0, Math.round(cy - height / 2 + y))) * w + Math.min(w - 1, Math.max(0, Math.round(cx - width / 2 + x)))) * 4;
        out.set(data.subarray(from, from + 4), (y * width + x) * 4);
      }
    }
    return { data: out, width, height };
  });
}

const LOOKS = { frontal: Math.round(800 / PACE.everyMs), limit: Math.round(2500 / PACE.everyMs), hold: Math.round(PACE.holdMs / PACE.everyMs) };

/** The looks of a step begun at `start`, `count` of them, as watchPace takes them. */
const stepLooks = (grey: Float32Array[], start: number, count: number): Look[] =>
  Array.from({ length: count }, (_, k) => ({ change: change(grey[start + k]!, grey[start + k + 1]!), away: change(grey[start]!, grey[start + k + 1]!) }));

/** A clip's pictures, and the stillness before each: the median change over the frontal look's looks before it. */
function watched(frames: Rgba[]) {
  const grey = frames.map(greyOval);
  const changes = grey.slice(1).map((g, i) => change(grey[i]!, g));
  return { grey, changes, stillnessAt: (start: number) => stillnessOf(changes.slice(start - LOOKS.frontal, start)) };
}

/**
 * A step begun at each look in turn: those that would end before their limit, and the farthest
 * any held stretch of looks (still for the hold) lay from where its step began, against the threshold.
 */
function steps(frames: Rgba[]) {
  const { grey, stillnessAt } = watched(frames);
  const ended: number[] = [];
  let farthest = 0;
  for (let start = LOOKS.frontal; start + LOOKS.limit < grey.length; start++) {
    const stillness = stillnessAt(start);
    const looks = stepLooks(grey, start, LOOKS.limit);
    for (let n = LOOKS.hold + 1; n <= LOOKS.limit; n++) {
      const held = looks.slice(n - LOOKS.hold, n);
      if (held.every((look) => look.change < PACE.still * stillness + PACE.stillAbove)) farthest = Math.max(farthest, Math.min(...held.map((look) => look.away)) / (PACE.far * stillness + PACE.farAbove));
    }
    if (looks.some((_, n) => madeMove(looks.slice(0, n + 1), stillness))) ended.push(start);
  }
  return { ended, farthest, count: grey.length - LOOKS.frontal - LOOKS.limit };
}

describe('pacing a live challenge to the person, on real clips', () => {
  it('people who do not make a movement (keeping still, smiling, talking, shifting on a webcam) never end a step before its limit', async () => {
    const clips: [string, Rgba[]][] = [
      ['the still man', await framed(gifFrames(`${FIXTURES}liveness/head_still_male.gif`))],
      ...(await Promise.all(
        ['webcam_closer_farther_1', 'webcam_closer_farther_2'].map(async (clip) => [`${clip}, its first 20 s`, await videoFrames(`${FIXTURES}liveness/${clip}.mp4`, { step: PACE.everyMs / 1000, to: 20 })] as [string, Rgba[]]),
      )),
    ];
    const results: [string, number[]][] = [];
    for (const [name, frames] of clips) {
      const { ended, farthest, count } = steps(frames);
      console.log(`  ${name}: ${ended.length} of ${count} steps ended early; held at most ${farthest.toFixed(2)} of the way to "far"`);
      results.push([name, ended]);
    }
    assert.deepEqual(results.filter(([, ended]) => ended.length), []);
  });

  it('a real head turn from frontal, moderate (0.4 of her fullest) or full, then held: the step ends on the hold, not before', async () => {
    // At 12.5 frames a second, each frame a look (80 ms, the widget's are 125): she turns one way
    // and the other without stopping, so her stillness is the still man's.
    const clip = gifFrames(`${FIXTURES}liveness/head_turn_female.gif`);
    const [{ grey }, yaw] = [watched(await framed(clip)), await yaws(clip)];
    const stillness = stillnessOf(watched(await framed(gifFrames(`${FIXTURES}liveness/head_still_male.gif`))).changes);
    const front = yaw.indexOf(yaw.reduce((a, b) => (Math.abs(b) < Math.abs(a) ? b : a)));
    const fullest = Math.max(...yaw.map((y) => Math.abs(y - yaw[front]!)));
    const far = PACE.far * stillness + PACE.farAbove;
    const rows: string[] = [];
    for (let to = front + 1; to < grey.length; to++) {
      const share = Math.abs(yaw[to]! - yaw[front]!) / fullest;
      if (share < 0.4) continue;
      // The step begun at her frontal look, through her turn to this frame, then held there as still as the still man.
      const looks = stepLooks(grey, front, to - front);
      rows.push(`${share.toFixed(2)}: ${(looks.at(-1)!.away / far).toFixed(1)}`);
      assert.equal(madeMove(looks.slice(0, -1), stillness), false, 'still turning');
      const held = Array.from({ length: LOOKS.hold }, () => ({ change: stillness, away: looks.at(-1)!.away }));
      assert.equal(madeMove([...looks, ...held], stillness), true, `held at ${share.toFixed(2)} of her fullest turn`);
    }
    console.log(`  the turning woman, held at each share of her fullest turn: how many times "far" she lies from frontal: ${rows.join(', ')}`);
    assert.ok(rows.length >= 5);
  });

  it('a movement not yet held, or come back to where it began, is not made', () => {
    const [still, away] = [{ change: 0.5, away: 20 }, { change: 9, away: 20 }];
    assert.equal(madeMove([away, still, still, still], 0.5), true, 'moved, then held three looks');
    assert.equal(madeMove([away, still, still], 0.5), false, 'held two looks only');
    assert.equal(madeMove([away, { change: 9, away: 1 }, { change: 0.5, away: 1 }, { change: 0.5, away: 1 }, { change: 0.5, away: 1 }], 0.5), false, 'back where it began');
  });
});
