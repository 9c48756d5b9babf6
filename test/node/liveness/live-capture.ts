/** A person (or an attacker) in front of the widget's camera, answering the handler's live challenges. */
import type { LivenessMove } from '../../../src/core/protocol.js';
import type { FacePool } from '../../../src/server/node/face-pool.js';
import { toJpeg, type Shape } from './head.js';
import type { LightColour } from '../../../src/server/liveness/light.js';
import { filmFrames, filmPoses, landmarksOf, photo } from './presentations.js';
import { jpegOf, litFrames } from './lit-frames.js';

/** A filmed answer: its frames (base64 JPEG) and when each was taken. */
export interface Film {
  video: string[];
  times: number[];
}

export interface Presenter {
  /**
   * The film answering `moves`, as the widget takes it four times a second: the frontal look, then
   * for each movement the head half way, there for three frames, half way back and frontal again.
   */
  answer(moves: readonly LivenessMove[], shape?: Shape): Film;
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
    answer: (moves, shape = 'head') => {
      const video = filmFrames(source, landmarks, shape, filmPoses(moves)).map(b64);
      return { video, times: video.map((_, i) => i * 250) };
    },
    still: () => Buffer.from(toJpeg(source, 90)).toString('base64'),
    lit: (colours, { shape = 'head', strength = 0.3, drift = 0 } = {}) => {
      let seed = 1;
      const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
      return litFrames(source, landmarks, colours as (LightColour | null)[], strength, random, shape, drift).map((frame) => b64(jpegOf(frame)));
    },
  };
}

