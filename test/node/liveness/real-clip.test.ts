/**
 * The liveness rules on a real head: the fixtures' clip of a woman turning her head and coming back
 * towards frontal (head_turn_female.gif, 25 px between the eyes), and of a man holding still
 * (head_still_male.gif). Once she has turned as far as the widget asks, her nose's texture moves
 * against her face's by more than the rule asks, and her turn passes the judge; his stillness
 * passes no movement.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { poseOf } from '../../../src/server/liveness/geometry.js';
import { judge, LIMITS, type FaceFound } from '../../../src/server/liveness/judge.js';
import { noseParallax, noseShifts } from '../../../src/server/liveness/parallax.js';
import { createFacePool } from '../../../src/server/node/index.js';
import { FIXTURES } from '../helpers.js';
import { toJpeg } from './head.js';
import { gifFrames } from './video-frames.js';

const pool = createFacePool({ workers: 1 });
after(() => pool.close());

/** Each frame of a clip, through the models: the one face found in it. */
async function clip(name: string): Promise<FaceFound[]> {
  const found = await pool.observe(gifFrames(`${FIXTURES}liveness/${name}.gif`).map((frame) => toJpeg(frame, 92)));
  assert.ok(found.every((faces) => faces.length === 1), 'one face in every frame');
  return found.map((faces) => faces[0]!);
}

describe('the liveness rules on a real head (the fixtures\' clips)', () => {
  let turning: FaceFound[];
  let still: FaceFound[];
  before(async () => ([turning, still] = [await clip('head_turn_female'), await clip('head_still_male')]));

  it('turned as far as asked, either way, her nose moves against her face beyond the rule in most frames, and those turns pass the judge', () => {
    // She turns one way, through frontal, to the other, and part of the way back: each of her two
    // frontal frames is a start, each frame turned a quarter of her jaw's width from it an answer.
    const yawOf = (face: FaceFound) => poseOf(face.landmarks).yaw;
    const starts = [...turning].sort((a, b) => Math.abs(yawOf(a)) - Math.abs(yawOf(b))).slice(0, 2);
    const said: string[] = [];
    let [answers, accepted] = [0, 0];
    for (const front of starts) {
      for (const face of turning.filter((face) => Math.abs(yawOf(face) - yawOf(front)) >= 0.25)) {
        // Her nose to the picture's right is a turn to her own left.
        const move = yawOf(face) > yawOf(front) ? 'left' : 'right';
        const verdict = judge([[front], [face]], [move]);
        said.push(`${move} ${noseParallax(noseShifts(front, face), { x: move === 'left' ? 1 : -1, y: 0 }).toFixed(3)}${verdict.live ? '' : ` (${verdict.reason})`}`);
        answers++;
        if (verdict.live) accepted++;
        // Whatever refuses her, it is never that she did not turn.
        assert.notEqual(verdict.live ? null : verdict.reason, 'move_not_seen');
      }
    }
    console.log(`# turns accepted ${accepted} of ${answers}; nose parallax: ${said.join(', ')} (the rule asks ${LIMITS.parallax})`);
    assert.ok(answers >= 20, `${answers} turns`);
    // On 25 px between the eyes, a few turns lose too much of the far cheek to follow its texture.
    assert.ok(accepted >= 0.75 * answers, `${accepted} of ${answers}`);
  });

  it('holding still, he makes no movement the judge accepts', () => {
    const front = still.at(-1)!;
    for (const face of still) for (const move of ['left', 'right', 'up', 'down'] as const) assert.equal(judge([[front], [face]], [move]).live, false);
  });
});
