/**
 * Every presentation of the liveness page, answered to every challenge of two movements, through
 * the face models and the judge: what was accepted, per kind (APCER for attacks, 1 - BPCER for
 * people). Shared by the liveness test and `npm run bench`.
 */
import type { LivenessMove } from '../../../src/core/protocol.js';
import { judge, type FaceFound, type Verdict } from '../../../src/server/liveness/judge.js';
import type { FacePool } from '../../../src/server/node/face-pool.js';
import type { Pose, Shape } from './head.js';
import { FORCED, frame, GENUINE, landmarksOf, MOVES, PEOPLE, photo, views, type Views } from './presentations.js';

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
  | 'another person in a frame'
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

export async function presentAll(pool: FacePool, people: readonly string[] = PEOPLE): Promise<Tally[]> {
  const tallies = new Map<Kind, Tally>();
  const count = (kind: Kind, verdict: Verdict) => {
    const tally = tallies.get(kind) ?? { kind, presented: 0, accepted: 0, reasons: {} };
    tally.presented++;
    if (verdict.live) tally.accepted++;
    else tally.reasons[verdict.reason] = (tally.reasons[verdict.reason] ?? 0) + 1;
    tallies.set(kind, tally);
  };
  // Each person's presentations seen at once (the pool's workers and the drawing share the cores),
  // then judged in order: another person's frame is the one before.
  const seenAll = await Promise.all(
    people.map(async (person) => {
      const source = photo(`${person}_1`);
      const landmarks = await landmarksOf(pool, source);
      const seen = (shape: Shape, poses: Record<LivenessMove, Pose>) => views(pool, source, landmarks, shape, poses);
      const [head, still, kinds] = await Promise.all([
        seen('head', GENUINE),
        pool.observe({ moves: [0, 1, 2].map((i) => frame(source, landmarks, 'flat', { shiftX: i * 2 })), light: [] }).then(({ moves }) => moves),
        Promise.all(PICTURES.map(async ([kind, shape, poses]) => [kind, await seen(shape, poses)] as [Kind, Views])),
      ]);
      return { head, still, kinds };
    }),
  );
  let previous: FaceFound[] | null = null;
  for (const { head, still, kinds } of seenAll) {
    for (const [a, b] of CHALLENGES as [LivenessMove, LivenessMove][]) {
      count('person', judge([head.front, head[a], head[b]], [a, b]));
      count('photo held still', judge(still, [a, b]));
      for (const [kind, view] of kinds) count(kind, judge([view.front, view[a], view[b]], [a, b]));
      count('answer in the wrong order', judge([head.front, head[b], head[a]], [a, b]));
      if (previous) count('another person in a frame', judge([head.front, head[a], previous], [a, b]));
      count('a second face enters', judge([head.front, head[a], [...head[b], ...(previous ?? head.front)]], [a, b]));
    }
    previous = head.left;
  }
  return [...tallies.values()];
}

export function table(tallies: Tally[]): string {
  const rows = tallies.map(({ kind, presented, accepted, reasons }) => {
    const rate = `${((100 * accepted) / presented).toFixed(1)} %`;
    const why = Object.entries(reasons).map(([reason, n]) => `${reason} ${n}`).join(', ');
    return `| ${kind} | ${presented} | ${accepted} | ${kind === 'person' ? `BPCER ${((100 * (presented - accepted)) / presented).toFixed(1)} %` : `APCER ${rate}`} | ${why} |`;
  });
  return ['| presentation | presented | accepted | rate | refused for |', '|---|---|---|---|---|', ...rows].join('\n');
}
