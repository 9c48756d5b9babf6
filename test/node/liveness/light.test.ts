/**
 * The light challenge's judge (light.ts) on rendered heads of the fixtures' people, close to a
 * screen showing the colours asked, through the face models, against what an attacker could send
 * instead: a recording of the person (no light), that recording behind a screen's glass that
 * reflects the colours over everything, the recording with one tint painted over the face (evenly,
 * with a soft edge, and shaped as an egg facing the screen), the person's lit frames out of the
 * colours' order, frames lit by another challenge's colours, and an earlier session's frames chosen
 * to answer a later challenge. Prints the table, how people fare as the room's light grows against
 * the screen's, and the chance that an earlier session answers a later challenge.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createFacePool } from '../../../src/server/node/face-pool.js';
import type { FaceFound } from '../../../src/server/liveness/judge.js';
import { agreement, expectedPattern, judgeLight, LIGHT, LIGHT_LIMITS, measureLight, randomLight, type LightColour, type LightMeasures, type LitFace } from '../../../src/server/liveness/light.js';
import { landmarksOf, photo, PEOPLE } from './presentations.js';
import { earlierAnswer, glass, jpegOf, litPoses, paint, ruleBroken, seeded, tintDistance, underColour, type PaintEdge } from './lit-frames.js';
import type { Rgba } from './head.js';

const pool = createFacePool({ workers: 2 });
after(() => pool.close());
/** The screen's light on the face against the room's: 0.3 is a laptop at full brightness a forearm away in a room of about 650 lux. */
const INDOOR = 0.3;
/** Challenges a person indoors; and for each attack that needs frames of its own, and each other room. */
const COUNT = 8;
const ATTACKS = 2;
const ROOMS = [0.6, 0.15, 0.1];
const EDGES: PaintEdge[] = ['hard', 'soft', 'shaped'];
/** Pixels the picture moves each frame (of 320) for a phone held in a hand: 56 over the colours, a fifth of the frame. */
const CARRY = 8;

async function observed(images: Rgba[]): Promise<LitFace[]> {
  const found = (await pool.observe({ moves: [], light: images.map(jpegOf) })).light;
  return found.map((faces) => {
    assert.equal(faces.length, 1, 'one face in every rendered frame');
    const face = faces[0] as FaceFound;
    return { landmarks: face.landmarks, colours: face.colours! };
  });
}

interface Challenge {
  asked: LightColour[];
  frames: LitFace[];
}

type Result = { verdict: ReturnType<typeof judgeLight>; measures: LightMeasures | null };
const judged = (frames: LitFace[], asked: LightColour[]): Result => ({ verdict: judgeLight(frames, asked), measures: measureLight(frames, asked) });

describe('the light challenge on rendered heads (APCER per kind, BPCER, and the room\'s light)', () => {
  const random = seeded(3);
  const draw = () => randomLight(LIGHT.colours, random);
  const kinds = new Map<string, Result[]>();
  const add = (kind: string, result: Result) => kinds.set(kind, [...(kinds.get(kind) ?? []), result]);
  const people: { recording: LitFace[]; indoor: Challenge[]; rooms: Map<number, Challenge[]>; carried: Challenge[]; turning: Challenge[] }[] = [];

  before(async () => {
    for (const person of PEOPLE) {
      const source = photo(`${person}_1`);
      const landmarks = await landmarksOf(pool, source);
      // The head's poses, in a new order each challenge: any colour and room is a mix of their renders.
      const poses = litPoses(source, landmarks, LIGHT.colours, INDOOR, random);
      const shuffle = <T,>(list: T[]) => list.map((item) => [random(), item] as const).sort((a, b) => a[0] - b[0]).map(([, item]) => item);
      const under = (asked: (LightColour | null)[], strength = INDOOR) => shuffle(poses).map((pose, k) => underColour(pose, asked[k]!, strength));
      const challenges = async (strength: number, count: number, frames = (asked: LightColour[]) => under(asked, strength)) => {
        const list: Challenge[] = [];
        for (let i = 0; i < count; i++) {
          const asked = draw();
          list.push({ asked, frames: await observed(frames(asked)) });
        }
        return list;
      };
      // In their order: a phone carried in a hand moves on, a head turns on.
      const moving = (options: { carry?: number; turn?: number }) => {
        const inOrder = litPoses(source, landmarks, LIGHT.colours, INDOOR, random, 'head', options);
        return (asked: LightColour[]) => inOrder.map((pose, k) => underColour(pose, asked[k]!));
      };
      const unlit = under(Array(LIGHT.colours).fill(null));
      const recording = await observed(unlit);
      // The attacks made of the recording, following the colours asked: the outline where the models place it on its first frame.
      const outline = [...recording[0]!.landmarks.slice(0, 17), ...recording[0]!.landmarks.slice(17, 27).reverse()];
      for (let i = 0; i < ATTACKS; i++) {
        const asked = draw();
        add("the recording behind a screen's glass that reflects the colours", judged(await observed(unlit.map((frame, k) => glass(frame, asked[k]!, 0.05))), asked));
        for (const edge of EDGES) add(`the recording painted with one tint, ${edge === 'hard' ? 'evenly inside the outline' : edge === 'soft' ? 'its edge soft' : 'shaped as an egg facing the screen'}`, judged(await observed(unlit.map((frame, k) => paint(frame, outline, asked[k]!, INDOOR, edge))), asked));
      }
      const rooms = new Map<number, Challenge[]>();
      for (const strength of ROOMS) rooms.set(strength, await challenges(strength, ATTACKS));
      people.push({ recording, indoor: await challenges(INDOOR, COUNT), rooms, carried: await challenges(INDOOR, COUNT / 2, moving({ carry: CARRY })), turning: await challenges(INDOOR, 1, moving({ turn: 5 })) });
    }
    for (const { carried, turning } of people) {
      for (const { frames, asked } of carried) add(`person, indoors, the phone in a hand (the picture ${CARRY} px further each frame)`, judged(frames, asked));
      for (const { frames, asked } of turning) add('person, indoors, turning their head 5° a frame', judged(frames, asked));
    }
    for (const { recording, indoor } of people) {
      for (const [i, { asked, frames }] of indoor.entries()) {
        add("person, indoors (screen 0.3 of the room's light)", judged(frames, asked));
        add('a recording of the person, no light', judged(recording, asked));
        const order = [...frames.keys()].sort(() => random() - 0.5);
        if (order.some((k, j) => k !== j)) add("the person's frames under the colours, out of their order", judged(order.map((k) => frames[k]!), asked));
        const later = indoor[(i + 1) % indoor.length]!;
        add("the person's frames under another challenge's colours", judged(frames, later.asked));
        add("an earlier session's frames, each the nearest in colour to the one asked", judged(earlierAnswer({ asked, frames }, later.asked), later.asked));
      }
    }
  });

  const rate = (kind: string, results: Result[]) => {
    const accepted = results.filter((r) => r.verdict.lit).length;
    return { accepted, text: kind.startsWith('person') ? `BPCER ${((100 * (results.length - accepted)) / results.length).toFixed(1)} %` : `APCER ${((100 * accepted) / results.length).toFixed(1)} %` };
  };
  const table = (rows: [string, Result[]][]) =>
    rows.map(([kind, results]) => {
      const missed: Record<string, number> = {};
      for (const { measures } of results.filter((r) => !r.verdict.lit)) for (const rule of measures ? ruleBroken(measures) : ['no face region']) missed[rule] = (missed[rule] ?? 0) + 1;
      const { accepted, text } = rate(kind, results);
      return `# | ${kind} | ${results.length} | ${accepted} | ${text} | ${Object.entries(missed).map(([rule, n]) => `${rule} ${n}`).join(', ')} |`;
    });

  it('a person close to the screen in a room of about 650 lux passes at least 95 % of the time', () => {
    const person = kinds.get("person, indoors (screen 0.3 of the room's light)")!;
    const { accepted } = rate('person', person);
    assert.ok(accepted >= 0.95 * person.length, `${accepted} of ${person.length}`);
  });

  it('a person holding the phone in a hand passes as often; one who turns their head is told they moved', () => {
    const carried = [...kinds].find(([kind]) => kind.includes('phone in a hand'))![1];
    assert.ok(rate('person', carried).accepted >= 0.95 * carried.length, `${rate('person', carried).accepted} of ${carried.length}`);
    const turning = kinds.get('person, indoors, turning their head 5° a frame')!;
    assert.deepEqual(turning.map((r) => !r.verdict.lit && r.verdict.reason), turning.map(() => 'light_moved'));
  });

  it('every attack kind is refused every time, but the known gaps the table prints', () => {
    // Known gaps, printed and said on the liveness page: the falloff rule reads one line across the
    // face, which a soft edge falls off on too; the colours are matched one hue at a time, which an
    // earlier session's nearest frames come close to.
    const known = new Map([['its edge soft', 1], ['shaped as an egg', 1], ["an earlier session's frames", 1]]);
    for (const [kind, results] of kinds) {
      if (kind.startsWith('person')) continue;
      const most = [...known].find(([words]) => kind.includes(words))?.[1] ?? 0;
      const { accepted } = rate(kind, results);
      assert.ok(accepted <= most * results.length, `${kind}: ${accepted} of ${results.length}`);
    }
  });

  it('prints the spread of each measure per kind (min, 5th, 25th, 50th, 95th percentile, max): the margins', () => {
    const q = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return [0, 0.05, 0.25, 0.5, 0.95, 1].map((p) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!.toFixed(2)).join(' '); };
    for (const [kind, results] of kinds) {
      const ms = results.map((r) => r.measures).filter((m) => m !== null);
      assert.ok(ms.length > 0, `${kind}: measured`);
      console.log(`# ${kind}\n#   order ${q(ms.map((m) => m.order))}\n#   each ${q(ms.map((m) => m.each))}\n#   frame ${q(ms.map((m) => m.frame))}\n#   off ${q(ms.map((m) => m.off))}\n#   gain ${q(ms.map((m) => m.gain))}\n#   falloff ${q(ms.map((m) => m.falloff))}\n#   spread ${q(ms.map((m) => m.spread))}`);
    }
  });

  it('prints the table, and people as the room\'s light grows', () => {
    console.log(['# | presented to the light | presented | accepted | rate | refused for (a refusal may break several) |', '# |---|---|---|---|---|'].concat(table([...kinds])).join('\n'));
    const sweep = ROOMS.map((strength) => [`person, screen ${strength} of the room's light (about ${Math.round(200 / strength)} lux)`, people.flatMap((p) => p.rooms.get(strength)!.map(({ frames, asked }) => judged(frames, asked)))] as [string, Result[]]);
    console.log(['# | the room\'s light | presented | accepted | rate | refused for |', '# |---|---|---|---|---|'].concat(table(sweep)).join('\n'));
  });
});

describe('the chance that earlier colours answer a later challenge, with reflections free of noise', () => {
  // The frames' colours as the rule reads them, were the face's reflection exact: each frame's tint
  // is its colour's. So what is computed is the best an attacker's frames can do, before any noise.
  const DRAWS = 2000;
  const random = seeded(11);
  const draw = () => randomLight(LIGHT.colours, random);
  /** How often frames under `shown` colours, sent for `asked`, would follow the order asked closely enough. */
  const passing = (pairs: [LightColour[], LightColour[]][]) =>
    pairs.filter(([shown, asked]) => {
      const { order, each, spread } = agreement(expectedPattern(shown), asked);
      return order >= LIGHT_LIMITS.order && each >= LIGHT_LIMITS.each && spread <= LIGHT_LIMITS.spread;
    }).length / pairs.length;
  /** The earlier colours, each used once, in the order that lies nearest the colours asked. */
  const permutations = (n: number): number[][] => (n === 1 ? [[0]] : permutations(n - 1).flatMap((p) => Array.from({ length: n }, (_, i) => [...p.slice(0, i), n - 1, ...p.slice(i)])));
  const orders = permutations(LIGHT.colours);
  const eachOnce = (earlier: LightColour[], asked: LightColour[]) => {
    const cost = asked.map((colour) => earlier.map((other) => tintDistance(other, colour)));
    const total = (order: number[]) => order.reduce((sum, k, i) => sum + cost[i]![k]!, 0);
    const totals = orders.map(total);
    return orders[totals.indexOf(Math.min(...totals))]!.map((k) => earlier[k]!);
  };

  it('another challenge\'s colours pass for a new one at most 1 % of the time; an earlier session\'s nearest colours do nearly always (a known gap), printed', () => {
    const pairs = Array.from({ length: DRAWS }, () => [draw(), draw(), draw()] as const);
    const another = passing(pairs.map(([earlier, asked]) => [earlier, asked]));
    // The frames an earlier session's colours give, each the nearest: earlierAnswer's picks, as colours.
    const picks = (earlier: LightColour[], asked: LightColour[]) => earlierAnswer({ asked: earlier, frames: earlier }, asked);
    const nearest = passing(pairs.map(([earlier, asked]) => [picks(earlier, asked), asked]));
    const two = passing(pairs.map(([earlier, asked, more]) => [picks([...earlier, ...more], asked), asked]));
    const once = passing(pairs.slice(0, 300).map(([earlier, asked]) => [eachOnce(earlier, asked), asked]));
    console.log([
      `# the chance that frames under earlier colours pass the colours' rules (the order ${LIGHT_LIMITS.order}, each change ${LIGHT_LIMITS.each}, the changes' spread ${LIGHT_LIMITS.spread}) for a later challenge, reflections exact (${DRAWS} draws):`,
      `#   another challenge's colours, as they were: ${(100 * another).toFixed(1)} %`,
      `#   one earlier session, for each colour asked the frame under the nearest: ${(100 * nearest).toFixed(1)} %`,
      `#   the same, each earlier frame used once (300 draws): ${(100 * once).toFixed(1)} %`,
      `#   two earlier sessions, the nearest of their sixteen colours: ${(100 * two).toFixed(1)} %`,
    ].join('\n'));
    assert.ok(another <= 0.01, `another challenge: ${another}`);
  });
});
