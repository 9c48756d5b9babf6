/**
 * The light challenge's judge on real footage: the fixtures' webcam clips of a real person (400 x
 * 300, talking, coming closer and going back, turning a little), each 3.2 s of them cut into eight frames 0.4 s apart
 * as the widget takes them, each frame given the reflection of the colour asked: on the face, by
 * the cosine of its skin to the screen (an ellipsoid on the face the models find, so the light
 * falls off towards the ears and the jaw), a tenth as much on everything beyond it (the room, a
 * metre further), then the camera's exposure and white balance adjusting as a webcam's do. The same
 * windows unlit are the person's recording. Prints the table.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createFacePool } from '../../../src/server/node/face-pool.js';
import { judgeLight, LIGHT, measureLight, randomLight, type LightColour, type LitFace } from '../../../src/server/liveness/light.js';
import { eyeCentres, poseOf } from '../../../src/server/liveness/geometry.js';
import { FIXTURES } from '../helpers.js';
import type { Rgba } from './head.js';
import { brightnessOf, camera, earlierAnswer, observeLit, paint, reflect, ruleBroken, seeded, spreadOf, type PaintEdge } from './lit-frames.js';
import { litBySecondModel, secondWebcam } from './second-light.js';
import { videoFrames } from './video-frames.js';

const pool = createFacePool({ workers: 2 });
after(() => pool.close());
/** The screen's light on the face against the room's, as on the rendered heads' "indoors" (light.test.ts). */
const INDOOR = 0.3;
/** Challenges answered on each window of frames. */
const SEQUENCES = 3;

const observed = (images: (Rgba | Uint8Array)[]) => observeLit(pool, images);

/** Colours asked, and the frames under them by each model of the light: this file's, and second-light.ts's. */
interface Challenge {
  asked: LightColour[];
  first: (LitFace | null)[];
  second: (LitFace | null)[];
}
type Model = 'first' | 'second';
const MODELS: Record<Model, string> = { first: 'first model', second: 'second model' };
/**
 * The tints painted on her recording: even inside the outline (what the falloff rule is for, refused
 * every time on the rendered heads), with a soft edge, and shaped as an egg facing the screen.
 */
const PAINTS: PaintEdge[] = ['hard', 'soft', 'shaped'];
const PAINTED: Record<PaintEdge, string> = { hard: 'evenly inside the outline', soft: 'its edge soft', shaped: 'shaped as an egg facing the screen' };

interface Motion {
  motion: 'still' | 'moving' | 'turning';
  /** The farthest the yaw proxy went from the first frame. */
  turned: number;
}

/**
 * What the person does in a window, from the unlit frames' landmarks, apart from the judge's own
 * rules: turning (the yaw proxy 0.1 or more from the first frame, near what the film counts as a
 * turn), moving (the eyes 0.35 eye distances or more from where they were: closer, farther,
 * sideways, as a face does before a phone in a hand), or keeping still.
 */
function motionOf(faces: LitFace[]): Motion {
  const yaws = faces.map(({ landmarks }) => poseOf(landmarks).yaw);
  const turned = Math.max(...yaws.map((yaw) => Math.abs(yaw - yaws[0]!)));
  if (turned >= 0.1) return { motion: 'turning', turned };
  const [first, ...rest] = faces.map(({ landmarks }) => eyeCentres(landmarks));
  const size = Math.hypot(first![0].x - first![1].x, first![0].y - first![1].y);
  const moved = rest.some((eyes) => eyes.some((eye, k) => Math.hypot(eye.x - first![k]!.x, eye.y - first![k]!.y) >= 0.35 * size));
  return { motion: moved ? 'moving' : 'still', turned };
}

/** The judge's verdict on frames, and the rules they broke (for the table: a refusal may break several). */
function verdictOf(shown: (LitFace | null)[], asked: LightColour[]) {
  if (!shown.every(Boolean)) return { lit: false, reason: 'no face', broken: ['no face'] };
  const verdict = judgeLight(shown as LitFace[], asked);
  const measures = measureLight(shown as LitFace[], asked);
  return { lit: verdict.lit, reason: verdict.lit ? undefined : verdict.reason, broken: measures ? ruleBroken(measures) : ['no face region'] };
}

describe('the light challenge on real webcam footage, with the screen\'s reflection on the skin', () => {
  /** Each window: challenges answered on its frames under each model of the light, its frames unlit, and painted. */
  const windows: ({ at: string; challenges: Challenge[]; unlit: (LitFace | null)[]; painted: Map<PaintEdge, { asked: LightColour[]; frames: (LitFace | null)[] }>; faceWidth: number } & Motion)[] = [];
  before(async () => {
    const step = LIGHT.holdMs / 1000;
    const random = seeded(5);
    for (const [clip, skip] of [['webcam_closer_farther_1', [43, 52]], ['webcam_closer_farther_2', [0, 0]]] as const) {
      const frames = await videoFrames(`${FIXTURES}liveness/${clip}.mp4`, { step });
      const unlit = await observed(frames);
      for (let start = 0; start + LIGHT.colours <= frames.length; start += LIGHT.colours) {
        const seconds = start * step;
        // Her hand over her chin (the manifest): not a face held to the screen.
        if (seconds + LIGHT.colours * step > skip[0] && seconds < skip[1]) continue;
        const indices = Array.from({ length: LIGHT.colours }, (_, i) => start + i);
        const first = unlit[indices[0]!];
        if (!first || indices.some((i) => !unlit[i])) continue;
        const challenges = [];
        for (let k = 0; k < SEQUENCES; k++) {
          const asked = randomLight(LIGHT.colours, random);
          const second = secondWebcam(indices.map((i, n) => litBySecondModel(frames[i]!, unlit[i]!.landmarks, asked[n]!, INDOOR)), brightnessOf(frames[indices[0]!]!), random);
          challenges.push({ asked, first: await observed(indices.map((i, n) => camera(reflect(frames[i]!, unlit[i]!.landmarks, asked[n]!, INDOOR), brightnessOf(frames[i]!)))), second: await observed(second) });
        }
        // Her recording painted in the colours asked, inside the outline the models find in its first frame.
        const jaw = first.landmarks;
        const outline = [...jaw.slice(0, 17), ...jaw.slice(17, 27).reverse()];
        const painted = new Map<PaintEdge, { asked: LightColour[]; frames: (LitFace | null)[] }>();
        for (const edge of PAINTS) {
          const asked = randomLight(LIGHT.colours, random);
          painted.set(edge, { asked, frames: await observed(indices.map((i, n) => camera(paint(frames[i]!, outline, asked[n]!, INDOOR, edge), brightnessOf(frames[i]!)))) });
        }
        const faces = indices.map((i) => unlit[i]!);
        windows.push({ at: `${clip} ${seconds.toFixed(1)} s`, challenges, unlit: faces, painted, faceWidth: (jaw[16]!.x - jaw[0]!.x) / frames[0]!.width, ...motionOf(faces) });
      }
    }
  });

  /** Each window's challenges, judged on what `frames` makes of them: the k-th and the next. */
  const judged = (frames: (window: (typeof windows)[number], k: number) => { shown: (LitFace | null)[]; asked: LightColour[] }) => {
    const results: ({ at: string } & ReturnType<typeof verdictOf>)[] = [];
    for (const window of windows) {
      for (let k = 0; k < window.challenges.length; k++) {
        const { shown, asked } = frames(window, k);
        results.push({ at: window.at, ...verdictOf(shown, asked) });
      }
    }
    return results;
  };
  const next = (window: (typeof windows)[number], k: number) => window.challenges[(k + 1) % window.challenges.length]!;
  const rows: string[] = [];
  const row = (kind: string, results: ReturnType<typeof judged>, person: boolean) => {
    const accepted = results.filter((r) => r.lit).length;
    const reasons: Record<string, number> = {};
    for (const r of results) for (const why of r.lit ? [] : r.broken) reasons[why] = (reasons[why] ?? 0) + 1;
    const rate = person ? `BPCER ${((100 * (results.length - accepted)) / results.length).toFixed(1)} %` : `APCER ${((100 * accepted) / results.length).toFixed(1)} %`;
    rows.push(`# | ${kind} | ${results.length} | ${accepted} | ${rate} | ${Object.entries(reasons).map(([k, n]) => `${k} ${n}`).join(', ')} |`);
    return accepted;
  };

  // The clips' person talks, comes closer and goes back, and turns a little, on purpose. Each
  // frame's colours are read where they fall on the face, wherever the face is in the frame: a
  // person who moves closer, farther or sideways is judged by the reflection alone, as one who keeps
  // still. A head turned as far as the film counts a turn shows the screen another side of the
  // face: refused as light_moved.
  for (const [model, name] of Object.entries(MODELS) as [Model, string][]) {
    it(`the real person, lit by the colours asked in ordinary indoor light, keeping still or moving without turning, passes at least 95 % of the time (${name})`, () => {
      assert.ok(windows.length >= 12, `${windows.length} windows of ${LIGHT.colours} frames`);
      const results = judged((window, k) => ({ shown: window.challenges[k]![model], asked: window.challenges[k]!.asked }));
      const windowAt = (at: string) => windows.find((w) => w.at === at)!;
      const of = (motion: Motion['motion']) => results.filter((r) => windowAt(r.at).motion === motion);
      const count = (motion: Motion['motion']) => windows.filter((w) => w.motion === motion).length;
      const [still, moving, turning] = [of('still'), of('moving'), of('turning')];
      const accepted = row(`the real person, indoors, keeping still (${count('still')} windows), ${name}`, still, true) + row(`the real person, indoors, moving closer, farther or sideways (${count('moving')} windows), ${name}`, moving, true);
      row(`the real person, indoors, turning their head (${count('turning')} windows), ${name}`, turning, true);
      assert.ok(still.length >= 0.5 * results.length && moving.length > 0, `${still.length} still and ${moving.length} moving of ${results.length}`);
      // The margins: each measure's spread over these people (min, 5th, 50th, 95th percentile, max).
      const measured = windows.filter((w) => w.motion !== 'turning').flatMap((w) => w.challenges.map((c) => c[model].every(Boolean) && measureLight(c[model] as LitFace[], c.asked))).filter((m) => m !== false && m !== null);
      console.log((['order', 'each', 'spread', 'gain', 'falloff', 'glare'] as const).map((key) => `# ${name}, people: ${key} ${spreadOf(measured.map((m) => m[key]))}`).join('\n'));
      const refused = [...still, ...moving].filter((r) => !r.lit);
      // The falloff is read at each change, from two frames 0.4 s apart (light.ts): read over the
      // whole sequence, the second model's people reached 0.75 and 14 % of them were refused, as
      // each cell's colour moved with the talking face as much as with the light.
      assert.ok(accepted >= 0.95 * (still.length + moving.length), `${accepted} of ${still.length + moving.length}; refused at ${refused.map((r) => `${r.at} (${r.broken.join('+')})`).join(', ')}`);
      // Where the head clearly turned, the judge sees it.
      const turnedFar = turning.filter((r) => windowAt(r.at).turned >= 0.15);
      assert.ok(turnedFar.every((r) => r.reason === 'light_moved'), turnedFar.map((r) => `${r.at} ${r.reason ?? 'accepted'}`).join(', '));
    });

    it(`the person lit by another challenge's colours than the one asked: at most 2 % accepted (${name})`, () => {
      const results = judged((window, k) => ({ shown: window.challenges[k]![model], asked: next(window, k).asked }));
      assert.ok(row(`the person under another challenge's colours, ${name}`, results, false) <= 0.02 * results.length);
    });

    it(`an earlier session's frames, each the nearest in colour to the one asked: measured, the table says how often (${name})`, () => {
      const earlier = (window: (typeof windows)[number], k: number) => ({ asked: window.challenges[k]!.asked, frames: window.challenges[k]![model] });
      row(`an earlier session's frames, each the nearest in colour to the one asked, ${name}`, judged((window, k) => ({ shown: earlierAnswer(earlier(window, k), next(window, k).asked), asked: next(window, k).asked })), false);
    });
  }

  it('the same footage unlit (the person\'s recording): refused every time', () => {
    const results = judged((window, k) => ({ shown: window.unlit, asked: window.challenges[k]!.asked }));
    assert.equal(row('the same footage, no light (a recording)', results, false), 0);
  });

  // Known gaps, all three: on this footage (the face 18 to 30 % of the frame, talking and moving)
  // each cell's colour moves with the person as much as with the light, so the falloff read across
  // the face over the whole sequence spread from 0.15 to 1.1 for an even tint, where people on the
  // second model reached 0.89; read at each change, 0.38 to 0.97 (median 0.8), people to 0.93 (95th
  // percentile 0.70). The paint keeps the outline of her first frame while she talks and moves.
  // Reading it from bands of cells averaged first, or from the inner cells alone, did not separate
  // them either (the liveness page says so).
  it('her recording painted with one tint, evenly, its edge soft or shaped as an egg: measured, the table says how often (known gaps)', () => {
    for (const edge of PAINTS) {
      const results = windows.map((window) => {
        const { asked, frames } = window.painted.get(edge)!;
        return { at: window.at, ...verdictOf(frames, asked) };
      });
      row(`her recording painted with one tint, ${PAINTED[edge]}`, results, false);
    }
  });

  it('prints the table, each kind measured', () => {
    assert.equal(rows.length, 14, 'on each model the person still, moving and turning, another challenge and an earlier session; the recording; three paints');
    const widths = windows.map((w) => w.faceWidth);
    console.log([`# real webcam footage: ${windows.length} windows of ${LIGHT.colours} frames, the face ${Math.round(100 * Math.min(...widths))} to ${Math.round(100 * Math.max(...widths))} % of the frame's width, ${SEQUENCES} challenges each`, '# | presented to the light | presented | accepted | rate | refused for (a refusal may break several rules) |', '# |---|---|---|---|---|', ...rows].join('\n'));
  });
});
