/**
 * The liveness check on frames, through the face models: every presentation of the liveness page
 * answered to every challenge (APCER per attack kind, BPCER for people, printed), and each rule of
 * the judge broken alone, so that each is seen to be the one that refuses.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { LivenessMove } from '../../../src/core/protocol.js';
import { judge, LIMITS, randomMoves } from '../../../src/server/liveness/judge.js';
import { createFacePool } from '../../../src/server/node/index.js';
import type { Shape } from './head.js';
import { CHALLENGES, presentAll, table, type Tally } from './presentation-attacks.js';
import { FORCED, GENUINE, landmarksOf, MOVES, PEOPLE, photo, views, type Views } from './presentations.js';

// Two workers: the presentations are seen several at once, while the drawing goes on beside them.
const pool = createFacePool({ workers: 2, maxQueue: 64 });
after(() => pool.close());

/** The frames of `person`'s photo as `shape`, moved as a person would or further, through the models. */
async function seen(person: string, shape: Shape, poses = GENUINE): Promise<Views> {
  const source = photo(person);
  return views(pool, source, await landmarksOf(pool, source), shape, poses);
}

/** Every challenge answered by each of `views`. */
const answersOf = (all: Views[]) => all.flatMap((view) => CHALLENGES.map(([a, b]) => ({ frames: [view.front, view[a!], view[b!]], moves: [a!, b!] })));

describe('the liveness judge, each rule alone', () => {
  let obama: Views;
  let biden: Views;
  let flat: Views[];
  let rolled: Views[];
  before(async () => {
    [obama, biden, flat, rolled] = await Promise.all([
      seen('obama_1', 'head'),
      seen('biden_1', 'head'),
      Promise.all(PEOPLE.map((person) => seen(`${person}_1`, 'flat', FORCED))),
      Promise.all(PEOPLE.map((person) => seen(`${person}_1`, 'rolled', FORCED))),
    ]);
  });

  it('a person making the movements asked is live', () => {
    assert.deepEqual(judge([obama.front, obama.left, obama.up], ['left', 'up']), { live: true, frontal: 0 });
  });

  it('a frame with no face, or with two', () => {
    assert.deepEqual(judge([obama.front, [], obama.up], ['left', 'up']), { live: false, reason: 'no_face', frame: 1 });
    assert.deepEqual(judge([obama.front, obama.left, [...obama.up, ...biden.up]], ['left', 'up']), { live: false, reason: 'several_faces', frame: 2 });
  });

  it('another person in one frame: the frontal frame of one, the movements of another', () => {
    assert.deepEqual(judge([biden.front, obama.left, obama.up], ['left', 'up']), { live: false, reason: 'not_same_person', frame: 1 });
    // Without the rule, another rule refuses too (another face's texture does not follow the first's): not this one.
    assert.notDeepEqual(judge([biden.front, obama.left, obama.up], ['left', 'up'], { ...LIMITS, samePerson: Infinity }), { live: false, reason: 'not_same_person', frame: 1 });
  });

  it('a start that is not frontal', () => {
    assert.deepEqual(judge([obama.right, obama.left, obama.front], ['left', 'closer']), { live: false, reason: 'not_frontal', frame: 0 });
    assert.notDeepEqual(judge([obama.right, obama.left, obama.front], ['left', 'closer'], { ...LIMITS, frontalYaw: Infinity }), { live: false, reason: 'not_frontal', frame: 0 });
  });

  it('the movements in another order, or one not made far enough', () => {
    assert.deepEqual(judge([obama.front, obama.up, obama.left], ['left', 'up']), { live: false, reason: 'move_not_seen', move: 'left', frame: 1 });
    for (const move of MOVES) {
      const other = move === 'up' ? 'down' : 'up';
      assert.deepEqual(judge([obama.front, obama.front, obama[other]], [move, other]), { live: false, reason: 'move_not_seen', move, frame: 1 }, move);
    }
  });

  it('a flat picture turned or nodded further than a person would is flat: no frame off one homography of the first', () => {
    // The movement rule refuses these first (a picture has no nose to move against its jaw), and the
    // texture rule and the passive layer would too: they are set aside to show this one. Alone, it
    // refuses most, not all: these pictures, turned further than a person turns, leave residuals of
    // 0.024 to 0.069 against its 0.065 (heads 0.089 to 0.121), and which side of it the last few
    // fall on moves with how the JPEG is decoded (all 48 under jpeg-js, 38 under mozjpeg).
    const landmarksOnly = { ...LIMITS, turn: 0, nod: 0, parallax: 0, live: 0 };
    const refused = answersOf(flat).filter(({ frames, moves }) => {
      const verdict = judge(frames, moves, landmarksOnly);
      return !verdict.live && verdict.reason === 'flat';
    });
    assert.ok(refused.length >= 36, `${refused.length} of ${answersOf(flat).length} presentations that keep every rule but depth`);
    for (const { frames, moves } of refused) assert.equal(judge(frames, moves, { ...landmarksOnly, depth: 0 }).live, true, 'refused by this rule alone');
  });

  it('a print rolled as round as a face and moved further than asked: off any homography, but its nose moves with its face', () => {
    const parallaxOnly = answersOf(rolled).filter(({ frames, moves }) => {
      const verdict = judge(frames, moves);
      return !verdict.live && verdict.reason === 'flat' && judge(frames, moves, { ...LIMITS, depth: 0, parallax: 0 }).live;
    });
    assert.ok(parallaxOnly.length >= 20, `${parallaxOnly.length} presentations that keep every rule but the texture's`);
    for (const { frames, moves } of parallaxOnly) {
      assert.equal(judge(frames, moves, { ...LIMITS, depth: 0 }).live, false, 'the landmarks show depth: the texture refuses');
      assert.equal(judge(frames, moves, { ...LIMITS, parallax: 0 }).live, true, 'refused by this rule alone');
    }
  });

  it('frames missing', () => {
    assert.deepEqual(judge([obama.front, obama.left], ['left', 'up']), { live: false, reason: 'frames_missing' });
  });

  it('challenges: two different turns or nods, every order possible, never a move closer', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const moves = randomMoves();
      assert.equal(new Set(moves).size, 2);
      assert.ok(!moves.includes('closer'), moves.join());
      seen.add(moves.join());
    }
    assert.equal(seen.size, CHALLENGES.length);
  });
});

describe('presentation attacks on the fixtures (APCER per kind, BPCER)', () => {
  let tallies: Tally[];
  before(async () => {
    tallies = await presentAll(pool);
    console.log(table(tallies));
  });
  const of = (kind: Tally['kind']) => tallies.find((tally) => tally.kind === kind)!;

  it('people making the movements are accepted', () => {
    const people = of('person');
    assert.ok(people.accepted >= 0.95 * people.presented, `BPCER ${people.presented - people.accepted} of ${people.presented}`);
  });

  for (const kind of [
    'photo held still',
    'flat picture moved as asked',
    'flat picture moved further',
    'bent print moved as asked',
    'bent print moved further',
    'print rolled as round as a face, moved further',
    'print bent across, moved further',
    'answer in the wrong order',
    'a cut to another person',
    // In the same place, size and pose, for the three frames a movement is held: its texture is not hers.
    'another person swapped in mid-movement',
    'a second face enters',
  ] as const) {
    it(`${kind}: none accepted`, () => {
      assert.ok(of(kind).presented >= 36);
      assert.equal(of(kind).accepted, 0, JSON.stringify(of(kind)));
    });
  }

});
