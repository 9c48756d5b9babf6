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

/** The frame the camera takes of `shape` in `pose`, as JPEG bytes (640 x 480 by default). */
export function frame(source: Rgba, landmarks: Point[], shape: Shape, pose: Pose, size?: { width: number; height: number }): Uint8Array {
  return toJpeg(render(source, landmarks, shape, pose, size), 85);
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

/** The widget's film frames: 480 px wide (LIVE_FRAMES.filmSide). */
export const FILM = { width: 480, height: 360 };

/** A pose half way from the frontal look. */
export function halfway(pose: Pose): Pose {
  return Object.fromEntries(Object.entries(pose).map(([key, value]) => [key, key === 'distance' ? (1 + (value as number)) / 2 : (value as number) / 2]));
}

/**
 * The poses of a film answering `moves`, four frames a second as the widget takes them: the
 * frontal look, then for each movement the head half way, there for three frames, half way back
 * and frontal again (15 frames for two movements).
 */
export function filmPoses(moves: readonly LivenessMove[], poses: Record<LivenessMove, Pose> = GENUINE): Pose[] {
  return [{}, {}, {}, ...moves.flatMap((move) => [halfway(poses[move]), poses[move], poses[move], poses[move], halfway(poses[move]), {}])];
}

/**
 * A film's frames of `shape` in each pose, as JPEG bytes at the film's size; each pose drawn once,
 * in this film or in any other of the same source given the same `drawn`.
 */
export function filmFrames(source: Rgba, landmarks: Point[], shape: Shape, poses: Pose[], drawn = new Map<string, Uint8Array>()): Uint8Array[] {
  return poses.map((pose) => {
    const key = `${shape} ${JSON.stringify(pose)}`;
    if (!drawn.has(key)) drawn.set(key, frame(source, landmarks, shape, pose, FILM));
    return drawn.get(key)!;
  });
}
