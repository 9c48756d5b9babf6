/** A person (or an attacker) in front of the widget's camera, answering the handler's live challenges. */
import type { LivenessMove } from '../../../src/core/protocol.js';
import type { FacePool } from '../../../src/server/node/face-pool.js';
import { toJpeg, type Pose, type Shape } from './head.js';
import { filmFrames, filmPoses, GENUINE, landmarksOf, photo } from './presentations.js';
import { jpegOf, litPoses, seeded, underColour, type LitPose } from './lit-frames.js';

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
  /**
   * The film of a person who follows the arrows late, as the widget takes it: the frontal look (its
   * 4 frames), the first movement held on through half of the second's time (12 frames), then the
   * second (5): the first movement in most of the film.
   */
  late(moves: readonly LivenessMove[]): Film;
  /** The photo itself, base64, as a file would be posted. */
  still(): string;
  /** The frames of a light challenge: the head close to the screen, lit by each colour in turn (null: a recording, unlit). */
  lit(colours: readonly (string | null)[], options?: { shape?: Shape; strength?: number; carry?: number; turn?: number }): string[];
}

export async function presenter(pool: FacePool, person: string): Promise<Presenter> {
  const source = photo(person);
  const landmarks = await landmarksOf(pool, source);
  const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
  // Each pose drawn once for all of this person's answers: renders are slow, and a pose is a pose.
  const drawn = new Map<string, Uint8Array>();
  const litCache = new Map<string, LitPose[]>();
  const film = (poses: Pose[], shape: Shape = 'head'): Film => {
    const video = filmFrames(source, landmarks, shape, poses, drawn).map(b64);
    return { video, times: video.map((_, i) => i * 250) };
  };
  return {
    answer: (moves, shape) => film(filmPoses(moves), shape),
    late: ([first, second]) => film([...Array(4).fill({}), ...Array(12).fill(GENUINE[first!]), ...Array(5).fill(GENUINE[second!])]),
    still: () => Buffer.from(toJpeg(source, 90)).toString('base64'),
    lit: (colours, { shape = 'head', strength = 0.3, carry = 0, turn = 0 } = {}) => {
      // The same poses for every challenge (renders are slow; any colour is their mix): the frames differ by the colours alone.
      const key = `${shape} ${strength} ${carry} ${turn} ${colours.length}`;
      if (!litCache.has(key)) litCache.set(key, litPoses(source, landmarks, colours.length, strength, seeded(1), shape, { carry, turn }));
      return litCache.get(key)!.map((pose, i) => b64(jpegOf(underColour(pose, colours[i] ?? null))));
    },
  };
}

