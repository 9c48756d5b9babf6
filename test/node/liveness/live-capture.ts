/** A person (or an attacker) in front of the widget's camera, answering the handler's live challenges. */
import type { LivenessMove } from '../../../src/core/protocol.js';
import type { FacePool } from '../../../src/server/node/face-pool.js';
import { toJpeg, type Shape } from './head.js';
import type { LightColour } from '../../../src/server/liveness/light.js';
import { frame, GENUINE, landmarksOf, photo } from './presentations.js';
import { jpegOf, litFrames } from './lit-frames.js';

export interface Presenter {
  /** The frames answering `moves`: the frontal one, then one per movement, base64 JPEG. */
  answer(moves: readonly LivenessMove[], shape?: Shape): string[];
  /** The photo itself, base64, as a file would be posted. */
  still(): string;
  /** The frames of a light challenge: the head close to the screen, lit by each colour in turn (null: a recording, unlit). */
  lit(colours: readonly (string | null)[], options?: { shape?: Shape; strength?: number; drift?: number }): string[];
}

export async function presenter(pool: FacePool, person: string): Promise<Presenter> {
  const source = photo(person);
  const landmarks = await landmarksOf(pool, source);
  const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
  return {
    answer: (moves, shape = 'head') => [
      b64(frame(source, landmarks, shape, {})),
      ...moves.map((move) => b64(frame(source, landmarks, shape, GENUINE[move]))),
    ],
    still: () => Buffer.from(toJpeg(source, 90)).toString('base64'),
    lit: (colours, { shape = 'head', strength = 0.3, drift = 0 } = {}) => {
      let seed = 1;
      const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
      return litFrames(source, landmarks, colours as (LightColour | null)[], strength, random, shape, drift).map((frame) => b64(jpegOf(frame)));
    },
  };
}

