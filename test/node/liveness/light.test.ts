/**
 * The light challenge's judge (light.ts) on rendered heads of the fixtures' people, close to a
 * screen showing the colours asked, through the face models, against what an attacker could send
 * instead: a recording of the person (no light), that recording behind a screen's glass that
 * reflects the colours over everything, the recording with one tint painted over the face's
 * outline, the person's lit frames out of the colours' order, and frames lit by another sequence
 * (an earlier challenge's, replayed). Prints the table, and how people fare as the room's light
 * grows against the screen's.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createFacePool } from '../../../src/server/node/face-pool.js';
import type { FaceFound } from '../../../src/server/liveness/judge.js';
import { judgeLight, LIGHT_LIMITS, measureLight, PALETTE, randomLight, type LightColour, type LightMeasures, type LitFace } from '../../../src/server/liveness/light.js';
import { landmarksOf, photo, PEOPLE } from './presentations.js';
import { glass, jpegOf, litFrames, paint, seeded } from './lit-frames.js';
import type { Rgba } from './head.js';

const pool = createFacePool({ workers: 2 });
/** The rules a presentation broke, for the table. */
const ruleBroken = (m: LightMeasures) =>
  [m.order < LIGHT_LIMITS.order && 'order', m.each < LIGHT_LIMITS.each && 'each', m.gain < LIGHT_LIMITS.gain && 'gain', !(m.falloff <= LIGHT_LIMITS.falloff) && 'falloff', !(m.glare <= LIGHT_LIMITS.glare) && 'glare', m.moved > LIGHT_LIMITS.moved && 'moved'].filter((rule) => rule !== false);
after(() => pool.close());

const COLOURS = Object.keys(PALETTE) as LightColour[];
/** Renders of each colour (and of none) per person and strength, each a different small pose. */
const TAKES = 2;
/** The screen's light on the face against the room's: 0.3 is a laptop at full brightness a forearm away in a room of about 650 lux. */
const INDOOR = 0.3;
const SWEEP = [0.6, INDOOR, 0.2, 0.1];

type Takes = Map<LightColour | 'none', LitFace[]>;

async function observed(images: Rgba[]): Promise<LitFace[]> {
  const found = (await pool.observe({ moves: [], light: images.map(jpegOf) })).light;
  return found.map((faces) => {
    assert.equal(faces.length, 1, 'one face in every rendered frame');
    const face = faces[0] as FaceFound;
    return { landmarks: face.landmarks, colours: face.colours! };
  });
}

describe('the light challenge on rendered heads (APCER per kind, BPCER, and the room\'s light)', () => {
  const people: { takes: Map<number, Takes>; painted: Takes; glazed: Takes }[] = [];
  before(async () => {
    for (const [p, person] of PEOPLE.entries()) {
      const random = seeded(p + 1);
      const source = photo(`${person}_1`);
      const landmarks = await landmarksOf(pool, source);
      const takes = new Map<number, Takes>();
      let unlit: Rgba[] = [];
      for (const strength of SWEEP) {
        const byColour: Takes = new Map();
        const frames = litFrames(source, landmarks, COLOURS.flatMap((colour) => Array<LightColour>(TAKES).fill(colour)), strength, random);
        const found = await observed(frames);
        COLOURS.forEach((colour, i) => byColour.set(colour, found.slice(i * TAKES, (i + 1) * TAKES)));
        if (strength === INDOOR) {
          unlit = litFrames(source, landmarks, Array(TAKES).fill(null), strength, random);
          byColour.set('none', await observed(unlit));
        }
        takes.set(strength, byColour);
      }
      // The attacks made of the recording: the outline where the models place it on its first frame.
      const outline = (({ landmarks }) => [...landmarks.slice(0, 17), ...landmarks.slice(17, 27).reverse()])(takes.get(INDOOR)!.get('none')![0]!);
      const [painted, glazed]: [Takes, Takes] = [new Map(), new Map()];
      for (const colour of COLOURS) {
        painted.set(colour, await observed(unlit.map((frame) => paint(frame, outline, colour, INDOOR))));
        glazed.set(colour, await observed(unlit.map((frame) => glass(frame, colour, 0.05))));
      }
      people.push({ takes, painted, glazed });
    }
  });

  /** Each kind's presentations: for each person, `count` challenges, each frame one of the takes under its colour. */
  function present(count: number, frames: (person: (typeof people)[number], asked: LightColour[], pick: <T>(list: T[]) => T) => LitFace[]) {
    const random = seeded(99);
    const pick = <T,>(list: T[]) => list[Math.floor(random() * list.length)]!;
    const results = [];
    for (const person of people) {
      for (let i = 0; i < count; i++) {
        const asked = randomLight(undefined, (n) => Math.floor(random() * n));
        const shown = frames(person, asked, pick);
        results.push({ verdict: judgeLight(shown, asked), measures: measureLight(shown, asked) });
      }
    }
    return results;
  }
  const COUNT = 30;
  const lit = (strength: number) => (person: (typeof people)[number], colours: LightColour[], pick: <T>(list: T[]) => T) => colours.map((colour) => pick(person.takes.get(strength)!.get(colour)!));
  const shuffled = (colours: LightColour[], random: () => number) => {
    for (;;) {
      const order = [...colours].sort(() => random() - 0.5);
      if (order.join() !== colours.join() && order.every((colour, i) => i === 0 || colour !== order[i - 1])) return order;
    }
  };
  const reorder = seeded(7);
  /** Another sequence than the one asked. */
  const another = (asked: LightColour[]) => {
    for (;;) {
      const colours = randomLight(undefined, (n) => Math.floor(reorder() * n));
      if (colours.join() !== asked.join()) return colours;
    }
  };
  const kinds: [string, ReturnType<typeof present>][] = [];
  const table = (rows: [string, ReturnType<typeof present>][]) =>
    rows.map(([kind, results]) => {
      const accepted = results.filter((r) => r.verdict.lit).length;
      const rate = kind.startsWith('person') ? `BPCER ${((100 * (results.length - accepted)) / results.length).toFixed(1)} %` : `APCER ${((100 * accepted) / results.length).toFixed(1)} %`;
      const missed: Record<string, number> = {};
      for (const { measures } of results.filter((r) => !r.verdict.lit)) {
        const rules = measures ? ruleBroken(measures) : ['no face region'];
        for (const rule of rules) missed[rule] = (missed[rule] ?? 0) + 1;
      }
      return `# | ${kind} | ${results.length} | ${accepted} | ${rate} | ${Object.entries(missed).map(([rule, n]) => `${rule} ${n}`).join(', ')} |`;
    });

  it('a person close to the screen in a room of about 650 lux passes at least 95 % of the time', () => {
    const person = present(COUNT, lit(INDOOR));
    kinds.push(['person, indoors (screen 0.3 of the room\'s light)', person]);
    const accepted = person.filter((r) => r.verdict.lit).length;
    assert.ok(accepted >= 0.95 * person.length, `${accepted} of ${person.length}`);
  });

  for (const [kind, frames, most] of [
    ['a recording of the person, no light', (person, asked, pick) => asked.map(() => pick(person.takes.get(INDOOR)!.get('none')!)), 0],
    ['the recording behind a screen\'s glass that reflects the colours', (person, asked, pick) => asked.map((colour) => pick(person.glazed.get(colour)!)), 0],
    ['the recording painted with one tint over the face\'s outline', (person, asked, pick) => asked.map((colour) => pick(person.painted.get(colour)!)), 0],
    ['the person\'s frames under the colours, out of their order', (person, asked, pick) => lit(INDOOR)(person, shuffled(asked, reorder), pick), 0],
    ['the person under another sequence (an earlier challenge\'s light)', (person, asked, pick) => lit(INDOOR)(person, another(asked), pick), 0.02],
  ] as [string, Parameters<typeof present>[1], number][]) {
    it(`${kind}: ${most ? `at most ${most * 100} %` : 'none'} accepted`, () => {
      const results = present(COUNT, frames);
      kinds.push([kind, results]);
      const accepted = results.filter((r) => r.verdict.lit).length;
      assert.ok(accepted <= most * results.length, `${accepted} of ${results.length}`);
    });
  }

  it('prints the table, and people as the room\'s light grows', () => {
    console.log(['# | presented to the light | presented | accepted | rate | refused for (a refusal may break several) |', '# |---|---|---|---|---|'].concat(table(kinds)).join('\n'));
    const sweep = SWEEP.map((strength) => [`person, screen ${strength} of the room's light (about ${Math.round(200 / strength)} lux)`, present(COUNT, lit(strength))] as [string, ReturnType<typeof present>]);
    console.log(['# | the room\'s light | presented | accepted | rate | refused for |', '# |---|---|---|---|---|'].concat(table(sweep)).join('\n'));
  });
});
