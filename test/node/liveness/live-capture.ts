/** A person (or an attacker) in front of the widget's camera, answering the handler's live challenges. */
import type { LivenessChallenge, LivenessMove } from '../../../src/core/protocol.js';
import type { FaceFound } from '../../../src/server/liveness/judge.js';
import type { FacePool } from '../../../src/server/node/face-pool.js';
import { toJpeg, type Shape } from './head.js';
import { FORCED, frame, GENUINE, photo } from './presentations.js';

export interface Presenter {
  /** The frames answering `moves`: the frontal one, then one per movement, base64 JPEG. */
  answer(moves: readonly LivenessMove[], shape?: Shape, forced?: boolean): string[];
  /** The photo itself, base64, as a file would be posted. */
  still(): string;
}

export async function presenter(pool: FacePool, person: string): Promise<Presenter> {
  const source = photo(person);
  const [[found]] = (await pool.observe([toJpeg(source, 92)])) as [[FaceFound]];
  const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
  return {
    answer: (moves, shape = 'head', forced = false) => [
      b64(frame(source, found.landmarks, shape, {})),
      ...moves.map((move) => b64(frame(source, found.landmarks, shape, (forced ? FORCED : GENUINE)[move]))),
    ],
    still: () => Buffer.from(toJpeg(source, 90)).toString('base64'),
  };
}

export type { LivenessChallenge };
