/**
 * What a camera sees of a person, or of an attack, answering a live challenge: genuine heads (a
 * fixture's photo given real depth, head.ts) making each movement, and the attacks of the liveness
 * page made from the same photos, each rendered as a 640 x 480 JPEG the way the widget sends it.
 */
import { readFileSync } from 'node:fs';
import type { LivenessMove } from '../../../src/core/protocol.js';
import type { Point } from '../../../src/server/liveness/geometry.js';
import { CHALLENGE_MOVES, type FaceFound } from '../../../src/server/liveness/judge.js';
import type { FacePool } from '../../../src/server/node/face-pool.js';
import { FIXTURES } from '../helpers.js';
import { fromJpeg, render, toJpeg, type Pose, type Rgba, type Shape } from './head.js';

/** The people of the fixtures' face photos, one photo each for the presentations and one to register. */
export const PEOPLE = ['obama', 'biden', 'rose_leslie', 'alex_lacamoire'] as const;

/** How far a person makes each movement; attackers with a picture go further, to look like one. */
export const GENUINE: Record<LivenessMove, Pose> = {
  left: { yaw: 25 },
  right: { yaw: -25 },
  up: { pitch: 20 },
  down: { pitch: -20 },
  closer: { distance: 0.72 },
};
export const FORCED: Record<LivenessMove, Pose> = {
  left: { yaw: 45 },
  right: { yaw: -45 },
  up: { pitch: 35 },
  down: { pitch: -35 },
  closer: { distance: 0.6 },
};

export function photo(name: string): Rgba {
  return fromJpeg(readFileSync(`${FIXTURES}faces/${name}.jpg`));
}

/** The frame the camera takes of `shape` in `pose`, as JPEG bytes. */
export function frame(source: Rgba, landmarks: Point[], shape: Shape, pose: Pose): Uint8Array {
  return toJpeg(render(source, landmarks, shape, pose), 85);
}

/** The movements the handler asks for (judge.ts): what each view shows. */
export const MOVES = CHALLENGE_MOVES;

/** The 68 landmarks the models find on a photo's face: where the head's depth is placed. */
export async function landmarksOf(pool: FacePool, source: Rgba): Promise<Point[]> {
  const [[found]] = (await pool.observe({ moves: [toJpeg(source, 92)], light: [] })).moves as [[FaceFound]];
  return found.landmarks;
}

/** What the models find in the camera's frames of `shape`: at the front, and after each movement. */
export type Views = Record<'front' | LivenessMove, FaceFound[]>;

export async function views(pool: FacePool, source: Rgba, landmarks: Point[], shape: Shape, poses: Record<LivenessMove, Pose>): Promise<Views> {
  const faces = (await pool.observe({ moves: [frame(source, landmarks, shape, {}), ...MOVES.map((move) => frame(source, landmarks, shape, poses[move]))], light: [] })).moves;
  return { front: faces[0]!, ...Object.fromEntries(MOVES.map((move, i) => [move, faces[i + 1]!])) } as Views;
}
