/**
 * The liveness rules on a real head: the fixtures' clip of a woman turning her head and coming back
 * towards frontal (head_turn_female.gif, 25 px between the eyes), and of a man holding still
 * (head_still_male.gif). Once she has turned as far as the widget asks, her nose's texture moves
 * against her face's by more than the rule asks, and her turn passes the judge, posted as the clip
 * has it and as the widget's camera and shutter take it; his stillness passes no movement.
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
import { framingsOf, throughWidget } from './widget-capture.js';

const pool = createFacePool({ workers: 1 });
after(() => pool.close());

/** Each frame of a clip, through the models: the one face found in it. */
async function clip(name: string): Promise<FaceFound[]> {
  const found = (await pool.observe({ moves: gifFrames(`${FIXTURES}liveness/${name}.gif`).map((frame) => toJpeg(frame, 92)), light: [] })).moves;
  assert.ok(found.every((faces) => faces.length === 1), 'one face in every frame');
  return found.map((faces) => faces[0]!);
}

/**
 * Her turns, answered as the widget would ask them: from each of her two frontal frames, each
 * frame turned a quarter of her jaw's width from it answers a turn that way; and each challenge of
 * two turns (one each way, in either order) answered by a pair of them, as a person answers.
 */
function turnsOf(turning: FaceFound[]) {
  // She turns one way, through frontal, to the other, and part of the way back.
  const yawOf = (face: FaceFound) => poseOf(face.landmarks).yaw;
  const starts = [...turning].sort((a, b) => Math.abs(yawOf(a)) - Math.abs(yawOf(b))).slice(0, 2);
  const said: string[] = [];
  const refused: Record<string, number> = {};
  let [answers, accepted, challenges, passed] = [0, 0, 0, 0];
  for (const front of starts) {
    const turned = turning.filter((face) => Math.abs(yawOf(face) - yawOf(front)) >= 0.25);
    // Her nose to the picture's right is a turn to her own left.
    const moveOf = (face: FaceFound) => (yawOf(face) > yawOf(front) ? 'left' : 'right');
    for (const face of turned) {
      const move = moveOf(face);
      const verdict = judge([[front], [face]], [move]);
      said.push(`${move} ${noseParallax(noseShifts(front, face), { x: move === 'left' ? 1 : -1, y: 0 }).toFixed(3)}${verdict.live ? '' : ` (${verdict.reason})`}`);
      answers++;
      if (verdict.live) accepted++;
      else refused[verdict.reason] = (refused[verdict.reason] ?? 0) + 1;
      // Whatever refuses her, it is never that she did not turn.
      assert.notEqual(verdict.live ? null : verdict.reason, 'move_not_seen');
    }
    for (const a of turned.filter((face) => moveOf(face) === 'left')) {
      for (const b of turned.filter((face) => moveOf(face) === 'right')) {
        for (const [x, y] of [[a, b], [b, a]] as const) {
          challenges++;
          if (judge([[front], [x], [y]], [moveOf(x), moveOf(y)]).live) passed++;
        }
      }
    }
  }
  return { answers, accepted, refused, said, challenges, passed };
}

describe('the liveness rules on a real head (the fixtures\' clips)', () => {
  let turning: FaceFound[];
  let still: FaceFound[];
  before(async () => ([turning, still] = [await clip('head_turn_female'), await clip('head_still_male')]));

  it('turned as far as asked, either way, her nose moves against her face beyond the rule in most frames, and those turns pass the judge', () => {
    const { answers, accepted, said } = turnsOf(turning);
    console.log(`# turns accepted ${accepted} of ${answers}; nose parallax: ${said.join(', ')} (the rule asks ${LIMITS.parallax})`);
    assert.ok(answers >= 20, `${answers} turns`);
    // At most one in twenty refused (the issue's BPCER): on 22 px between the eyes, a turn now and then loses too much of the far cheek to follow its texture.
    assert.ok(answers - accepted <= 0.05 * answers, `${accepted} of ${answers}`);
  });

  it('through the widget\'s camera and shutter, her face a third to two thirds of the frame\'s height: her challenges of two turns pass (BPCER at most 5 %), a turn alone less often', async () => {
    const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    const eyes = (face: FaceFound) => Math.hypot(face.landmarks[36]!.x - face.landmarks[45]!.x, face.landmarks[36]!.y - face.landmarks[45]!.y);
    // Her face at each share of the widget's 480 px: the oval's size, the smallest its gate takes,
    // and close to the camera.
    const shares = [0.3, 0.45, 0.6];
    const taken = await throughWidget(gifFrames(`${FIXTURES}liveness/head_turn_female.gif`), framingsOf(turning, shares));
    const rows: [string, FaceFound[], number][] = [['posted at the clip\'s own size', turning, turning.length]];
    for (const [i, frames] of taken.entries()) {
      // Close to the camera, her head leaves its view as she turns: those frames are no one's answer.
      const found = (await pool.observe({ moves: frames, light: [] })).moves.filter((faces) => faces.length === 1).map((faces) => faces[0]!);
      rows.push([`the widget's frames, her face ${shares[i]! * 100} % of their height`, found, frames.length]);
    }
    const table = rows.map(([what, faces, of]) => ({ what, eyes: mean(faces.map(eyes)), seen: `${faces.length} of ${of}`, ...turnsOf(faces) }));
    const bpcer = (all: number, ok: number) => `${((100 * (all - ok)) / all).toFixed(1)} %`;
    console.log(['# | framing | eyes apart (px) | frames with her face | turns | passed | BPCER a turn | refused for | challenges of two turns | passed | BPCER a challenge |', '# |---|---|---|---|---|---|---|---|---|---|']
      .concat(table.map((r) => `# | ${r.what} | ${r.eyes.toFixed(0)} | ${r.seen} | ${r.answers} | ${r.accepted} | ${bpcer(r.answers, r.accepted)} | ${Object.entries(r.refused).map(([why, n]) => `${why} ${n}`).join(', ')} | ${r.challenges} | ${r.passed} | ${bpcer(r.challenges, r.passed)} |`))
      .join('\n'));
    for (const row of table.slice(1)) {
      assert.ok(row.answers >= 10 && row.challenges >= 20, `${row.what}: ${row.answers} turns, ${row.challenges} challenges`);
      // A challenge is two movements, and a head shows its depth in either: a person passes.
      assert.ok(row.challenges - row.passed <= 0.05 * row.challenges, `${row.what}: ${row.passed} of ${row.challenges} challenges`);
      // A turn alone is judged on its one frame: at a third of the frame's height, the frames the
      // widget takes lose her nose's texture more often than the clip's own: 2 to 6 turns of 28 in
      // runs that differed only in when each frame was taken (see the liveness page). That is why
      // the handler asks two turns or nods, never one beside a move closer (judge.ts).
      assert.ok(row.accepted >= (2 / 3) * row.answers, `${row.what}: ${row.accepted} of ${row.answers} turns`);
    }
  });

  it('holding still, he makes no movement the judge accepts', () => {
    const front = still.at(-1)!;
    for (const face of still) for (const move of ['left', 'right', 'up', 'down'] as const) assert.equal(judge([[front], [face]], [move]).live, false);
  });
});
