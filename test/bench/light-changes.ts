// A study for the light challenge's next step, not a budget: read at each change of colour (the
// frame just before it and the one just after, 0.1 s apart, between which a face barely moves)
// rather than one frame a colour, does the screen's reflection tell a person from an earlier
// session's frames? The fixtures' real webcam clips at 10 frames a second, each window of 3.2 s
// lit by eight colours of 0.4 s under both models of the light (the real-light test's and
// second-light.ts's), read by the face models' workers. An earlier session's frames answer a new
// challenge three ways: for each change asked, the last frame under the earlier colour nearest the
// one before and the first under the earlier colour nearest the one after (A); a frame from the
// middle of each (B); the earlier session's own change nearest the one asked, its frames 0.1 s
// apart as a person's (C). Prints each reading's spread, how many pass today's rules, and how many
// pass a pair of limits (and today's rules too).
// The widget fades each colour in over 0.2 s (for photosensitive people), so a frame 0.1 s after a
// change sees half of it: `AFTER=2` reads each change from the frame 0.2 s into the new colour, after
// the fade, 0.3 s from the one before it, as a widget keeping its fade could take them (`AFTER=1`:
// 0.2 s apart, as after a fade of 0.1 s; `AFTER=3`: the last frame under each colour, 0.4 s apart,
// the widget's own frames, which the judge reads at looser limits, light.ts's `each` and `spread`).
// "Today's rules" are the judge's as they are, that reading included.
// Usage: [AFTER=2] node --import tsx test/bench/light-changes.ts   (about eleven minutes on two cores)
import { createFacePool } from '../../src/server/node/face-pool.js';
import { judgeLight, LIGHT, measureLight, randomLight, strayOf, type LightColour, type LitFace } from '../../src/server/liveness/light.js';
import { FIXTURES } from '../node/helpers.js';
import type { Rgba } from '../node/liveness/head.js';
import { brightnessOf, camera, nearestColour, observeLit, reflect, seeded, spreadOf, tintDistance } from '../node/liveness/lit-frames.js';
import { litBySecondModel, secondWebcam } from '../node/liveness/second-light.js';
import { videoFrames } from '../node/liveness/video-frames.js';

/** Frames a colour at 10 a second. */
const PER = 4;
const INDOOR = 0.3;
const pool = createFacePool({ workers: 2 });
const observed = (images: (Rgba | Uint8Array)[]) => observeLit(pool, images);

type Frame = LitFace | null | undefined;
interface Session { asked: LightColour[]; frames: Frame[] }
/** Which frame under a colour stands after its change: 0 the first, 0.1 s after the frame before it. */
const AFTER = Number(process.env.AFTER ?? 0);
/** Each change's frames: the last under colour i, and the `AFTER`-th under colour i + 1. */
const changesOf = (session: Session) => session.asked.slice(1).map((_, i) => [session.frames[PER * i + PER - 1], session.frames[PER * (i + 1) + AFTER]] as const);

/**
 * Each change read from its two frames alone (the judge's measures of two frames: `each`, the
 * change's cosine with the change asked, and `gain`); over the challenge the lowest cosine and how
 * far one change's gain strays from the others' (the judge's `spread`).
 */
function readChanges(pairs: (readonly [Frame, Frame])[], asked: LightColour[]) {
  const measures = pairs.map(([before, after], i) => (before && after ? measureLight([before, after], [asked[i]!, asked[i + 1]!]) : null));
  if (measures.some((m) => !m)) return null;
  return { change: Math.min(...measures.map((m) => m!.each)), spread: strayOf(measures.map((m) => m!.gain)) };
}

/**
 * Answers from an earlier session's frames to the colours `asked`: for each colour, the earlier
 * colour whose frames stand in for it (`blocks`), and for each change the two frames sent.
 */
const ATTACKS: Record<string, (earlier: Session, asked: LightColour[]) => { blocks: number[]; pairs: (readonly [Frame, Frame])[] }> = {
  'A: nearest colours, the frames at their edges': (earlier, asked) => {
    const blocks = asked.map((colour) => nearestColour(earlier.asked, colour));
    return { blocks, pairs: blocks.slice(1).map((block, i) => [earlier.frames[PER * blocks[i]! + PER - 1], earlier.frames[PER * block + AFTER]] as const) };
  },
  'B: nearest colours, frames from their middles': (earlier, asked) => {
    const blocks = asked.map((colour) => nearestColour(earlier.asked, colour));
    return { blocks, pairs: blocks.slice(1).map((block, i) => [earlier.frames[PER * blocks[i]! + 1], earlier.frames[PER * block + 1]] as const) };
  },
  'C: the earlier change nearest the one asked': (earlier, asked) => {
    const changes = changesOf(earlier);
    const chosen = asked.slice(1).map((colour, i) => {
      const distance = (j: number) => tintDistance(earlier.asked[j]!, asked[i]!) + tintDistance(earlier.asked[j + 1]!, colour);
      return changes.reduce((best, _, j) => (distance(j) < distance(best) ? j : best), 0);
    });
    return { blocks: [chosen[0]!, ...chosen.map((j) => j + 1)], pairs: chosen.map((j) => changes[j]!) };
  },
};

/** Today's rules on one frame a colour, the last of its four (the widget takes one 0.32 s into a colour's 0.4 s). */
const today = (frames: Frame[], asked: LightColour[]) => frames.every(Boolean) && judgeLight(frames as LitFace[], asked).lit;

const readings: Record<string, { change: number; spread: number; today: boolean }[]> = {};
const random = seeded(7);
const window = LIGHT.colours * PER;
for (const [clip, hand] of [['webcam_closer_farther_1', [43, 52]], ['webcam_closer_farther_2', [0, 0]]] as const) {
  // In parts: one long seek through the clip outlasts the browser's protocol timeout.
  const frames: Rgba[] = [];
  for (let from = 0; ; from += 6.4) {
    const part = await videoFrames(`${FIXTURES}liveness/${clip}.mp4`, { step: 0.1, from, to: from + 6.35 });
    frames.push(...part);
    if (part.length < 64) break;
  }
  const unlit = await observed(frames);
  for (let start = 0; start + window <= frames.length; start += window) {
    // Her hand over her chin (the fixtures' manifest): not a face held to the screen.
    if ((start + window) / 10 > hand[0] && start / 10 < hand[1]) continue;
    const at = Array.from({ length: window }, (_, i) => start + i);
    if (at.some((i) => !unlit[i])) continue;
    for (const model of ['first', 'second'] as const) {
      const sessions: Session[] = [];
      for (let k = 0; k < 3; k++) {
        const asked = randomLight(LIGHT.colours, random);
        const colour = (j: number) => asked[Math.floor(j / PER)]!;
        const lit = model === 'first'
          ? at.map((i, j) => camera(reflect(frames[i]!, unlit[i]!.landmarks, colour(j), INDOOR), brightnessOf(frames[i]!)))
          : secondWebcam(at.map((i, j) => litBySecondModel(frames[i]!, unlit[i]!.landmarks, colour(j), INDOOR)), brightnessOf(frames[start]!), random);
        sessions.push({ asked, frames: await observed(lit) });
      }
      sessions.forEach((session, k) => {
        const add = (kind: string, reading: ReturnType<typeof readChanges>, passesToday: boolean) => reading && (readings[`${kind}, ${model} model`] ??= []).push({ ...reading, today: passesToday });
        const { asked, frames } = session;
        add('the person', readChanges(changesOf(session), asked), today(asked.map((_, i) => frames[PER * i + PER - 1]), asked));
        // Each session answered from the one before it on the same window: the same face, the same moments.
        const earlier = sessions[(k + 2) % 3]!;
        for (const [name, answer] of Object.entries(ATTACKS)) {
          const { blocks, pairs } = answer(earlier, asked);
          add(`earlier frames, ${name}`, readChanges(pairs, asked), today(blocks.map((block) => earlier.frames[PER * block + PER - 1]), asked));
        }
      });
    }
  }
}
await pool.close();

const LIMITS = [[0.85, 0.4], [0.9, 0.3], [0.9, 0.25]] as const;
console.log(`Each change read from frames ${((AFTER + 1) / 10).toFixed(1)} s apart.`);
console.log(`| presented | challenges | lowest change agreement (min, 5th, median, 95th, max) | gains' spread | passing today's rules | ${LIMITS.map(([c, s]) => `passing ${c} and ${s} (and today's)`).join(' | ')} |`);
console.log(`|---|---|---|---|---|${LIMITS.map(() => '---|').join('')}`);
for (const [kind, values] of Object.entries(readings)) {
  const passing = LIMITS.map(([cosine, gains]) => {
    const changes = values.filter((v) => v.change >= cosine && v.spread <= gains);
    return `${changes.length} (${changes.filter((v) => v.today).length})`;
  });
  console.log(`| ${kind} | ${values.length} | ${spreadOf(values.map((v) => v.change))} | ${spreadOf(values.map((v) => v.spread))} | ${values.filter((v) => v.today).length} | ${passing.join(' | ')} |`);
}
