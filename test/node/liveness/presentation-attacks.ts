/**
 * Every presentation of the liveness page, filmed answering every challenge of two movements as the
 * widget films it, through the face worker and the film judge: what was accepted, per kind (APCER
 * for attacks, 1 - BPCER for people). Shared by the liveness test and `npm run bench`.
 */
import { readFileSync } from 'node:fs';
import type { LivenessMove } from '../../../src/core/protocol.js';
import { judgeFilm } from '../../../src/server/liveness/film.js';
import type { Verdict } from '../../../src/server/liveness/judge.js';
import type { FacePool } from '../../../src/server/node/face-pool.js';
import { FIXTURES } from '../helpers.js';
import { fromJpeg, toJpeg, type Pose, type Shape } from './head.js';
import { FILM, filmFrames, filmPoses, FORCED, GENUINE, landmarksOf, MOVES, PEOPLE, photo } from './presentations.js';

/** Every challenge the handler can ask: two different turns or nods, in order. */
export const CHALLENGES = MOVES.flatMap((a) => MOVES.filter((b) => b !== a).map((b) => [a, b] as LivenessMove[]));

export type Kind =
  | 'person'
  | 'photo held still'
  | 'flat picture moved as asked'
  | 'flat picture moved further'
  | 'bent print moved as asked'
  | 'bent print moved further'
  | 'print rolled as round as a face, moved further'
  | 'print bent across, moved further'
  | 'answer in the wrong order'
  | 'a cut to another person'
  | 'another person swapped in mid-movement'
  | 'a second face enters';

export interface Tally {
  kind: Kind;
  presented: number;
  accepted: number;
  /** How many were refused for each reason. */
  reasons: Record<string, number>;
}

/** The pictures presented, each as it is shaped and moved. */
const PICTURES: [Kind, Shape, Record<LivenessMove, Pose>][] = [
  ['flat picture moved as asked', 'flat', GENUINE],
  ['flat picture moved further', 'flat', FORCED],
  ['bent print moved as asked', 'bent', GENUINE],
  ['bent print moved further', 'bent', FORCED],
  ['print rolled as round as a face, moved further', 'rolled', FORCED],
  ['print bent across, moved further', 'bent across', FORCED],
];

/** The fixtures' photo of two people, as a film's frame: a second face in the picture. */
function twoFaces(): Uint8Array {
  const photo = fromJpeg(readFileSync(`${FIXTURES}faces/two_faces_obama_biden.jpg`));
  const scale = Math.min(FILM.width / photo.width, FILM.height / photo.height);
  const [width, height] = [Math.round(photo.width * scale), Math.round(photo.height * scale)];
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      data.set(photo.data.subarray((Math.floor(y / scale) * photo.width + Math.floor(x / scale)) * 4, (Math.floor(y / scale) * photo.width + Math.floor(x / scale)) * 4 + 4), (y * width + x) * 4);
  return toJpeg({ data, width, height }, 85);
}

export async function presentAll(pool: FacePool, people: readonly string[] = PEOPLE): Promise<Tally[]> {
  const tallies = new Map<Kind, Tally>();
  const count = (kind: Kind, verdict: Verdict) => {
    const tally = tallies.get(kind) ?? { kind, presented: 0, accepted: 0, reasons: {} };
    tally.presented++;
    if (verdict.live) tally.accepted++;
    else tally.reasons[verdict.reason] = (tally.reasons[verdict.reason] ?? 0) + 1;
    tallies.set(kind, tally);
  };
  const judged = async (kind: Kind, frames: Uint8Array[], moves: LivenessMove[]) => {
    const { video } = await pool.observe({ moves: [], light: [], video: frames });
    count(kind, await judgeFilm(video!, moves));
  };
  const second = twoFaces();
  const cast = await Promise.all(
    people.map(async (person) => {
      const source = photo(`${person}_1`);
      // Each pose drawn once for all the challenges' films.
      return { source, landmarks: await landmarksOf(pool, source), drawn: new Map<string, Uint8Array>() };
    }),
  );
  for (const [n, { source, landmarks, drawn }] of cast.entries()) {
    // The one before is the other person of a cut or a swap.
    const other = cast[(n + cast.length - 1) % cast.length]!;
    const film = (shape: Shape, moves: LivenessMove[], poses = GENUINE) => filmFrames(source, landmarks, shape, filmPoses(moves, poses), drawn);
    // A photo held up, trembling a little in the hand: the same film whatever is asked.
    const still = filmFrames(source, landmarks, 'flat', filmPoses(['left', 'up']).map((_, i) => ({ roll: (i % 3) - 1 })), drawn);
    const { video: held } = await pool.observe({ moves: [], light: [], video: still });
    // A challenge at a time: its films are seen at once, within the pool's queue.
    for (const [a, b] of CHALLENGES) {
      const moves = [a!, b!];
      const head = film('head', moves);
      const theirs = filmFrames(other.source, other.landmarks, 'head', filmPoses(moves), other.drawn);
      count('photo held still', await judgeFilm(held!, moves));
      await Promise.all([
        judged('person', head, moves),
        ...PICTURES.map(([kind, shape, poses]) => judged(kind, film(shape, moves, poses), moves)),
        judged('answer in the wrong order', film('head', [b!, a!]), moves),
        // Frames 0-8: the front and the first movement; then the other person makes the second.
        judged('a cut to another person', [...head.slice(0, 9), ...theirs.slice(9)], moves),
        // The other person's face, in the same pose, for the three frames of the first movement held.
        judged(
          'another person swapped in mid-movement',
          head.map((frame, i) => (i >= 4 && i <= 6 ? theirs[i]! : frame)),
          moves,
        ),
        // The detector looks at every fourth frame: the second face shows from the 8th to the 12th.
        judged(
          'a second face enters',
          head.map((frame, i) => (i >= 8 && i <= 12 ? second : frame)),
          moves,
        ),
      ]);
    }
  }
  return [...tallies.values()];
}

export function table(tallies: Tally[]): string {
  const rows = tallies.map(({ kind, presented, accepted, reasons }) => {
    const rate = `${((100 * accepted) / presented).toFixed(1)} %`;
    const why = Object.entries(reasons)
      .map(([reason, n]) => `${reason} ${n}`)
      .join(', ');
    return `| ${kind} | ${presented} | ${accepted} | ${kind === 'person' ? `BPCER ${((100 * (presented - accepted)) / presented).toFixed(1)} %` : `APCER ${rate}`} | ${why} |`;
  });
  return ['| presentation | presented | accepted | rate | refused for |', '|---|---|---|---|---|', ...rows].join('\n');
}
