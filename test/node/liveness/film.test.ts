/**
 * A live challenge judged as a film (film.ts), on the fixtures' real clips: the face worker follows
 * one face through every frame, and the film judge reads the whole of it. The woman of
 * head_turn_female.gif turns to her left, back through frontal and on to her right: filmed from her
 * frontal frame, she answers "left, then right" and not the reverse. A cut from her to another
 * person, a face swapped in while she is turned, a second face, and a man who holds still are each
 * refused. The CPU a frame costs, and the margins of the continuity rules (on the webcam clips too),
 * are printed.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { eyeCentres, poseOf } from '../../../src/server/liveness/geometry.js';
import { FILM_LIMITS, judgeFilm, type FilmFrame } from '../../../src/server/liveness/film.js';
import { textureKept } from '../../../src/server/liveness/parallax.js';
import type { Move } from '../../../src/server/liveness/judge.js';
import { createFacePool } from '../../../src/server/node/index.js';
import { FIXTURES } from '../helpers.js';
import { toJpeg } from './head.js';
import { gifFrames, videoFrames } from './video-frames.js';

const pool = createFacePool({ workers: 1 });
after(() => pool.close());

const jpegs = (name: string) => gifFrames(`${FIXTURES}liveness/${name}.gif`).map((frame) => toJpeg(frame, 92));

/** The film's frames through the worker, and the CPU each frame cost it. */
async function film(frames: Uint8Array[]): Promise<{ found: FilmFrame[]; cpuPerFrame: number }> {
  const { video } = await pool.observe({ moves: [], light: [], video: frames });
  assert.equal(video?.length, frames.length);
  return { found: video!, cpuPerFrame: pool.lastCpuMs / frames.length };
}

/** From one frame to the next: how far the face's middle moved (in eye distances) and how much its size changed. */
function steps(found: FilmFrame[]) {
  return found.slice(1).map((frame, i) => {
    const [a, b] = [found[i]!.landmarks!, frame.landmarks!];
    const [sa, sb] = [poseOf(a).size, poseOf(b).size];
    const middle = (marks: typeof a) => eyeCentres(marks).reduce((m, p) => ({ x: m.x + p.x / 2, y: m.y + p.y / 2 }), { x: 0, y: 0 });
    const [ma, mb] = [middle(a), middle(b)];
    return { jump: Math.hypot(mb.x - ma.x, mb.y - ma.y) / Math.max(sa, sb), resize: Math.max(sa, sb) / Math.min(sa, sb) };
  });
}

describe('a live challenge judged as a film, on real clips', () => {
  let female: Uint8Array[];
  let male: Uint8Array[];
  before(async () => {
    [female, male] = [jpegs('head_turn_female'), jpegs('head_still_male')];
    // The models warmed, so that the CPU printed is a check's, not the first one's.
    await film(female.slice(0, 4));
  });

  it('she, filmed from her frontal frame, answers her left then her right, and not the reverse; the CPU a frame is printed', async () => {
    const rows: string[] = [];
    for (const start of [8, 9]) {
      const { found, cpuPerFrame } = await film(female.slice(start));
      const said = (moves: Move[]) => judgeFilm(found, moves);
      const yaws = found.map((frame) => poseOf(frame.landmarks!).yaw.toFixed(2)).join(' ');
      rows.push(`# from frame ${start}: ${found.length} frames, ${cpuPerFrame.toFixed(1)} ms of CPU a frame; yaw ${yaws}`);
      assert.deepEqual(await said(['left', 'right']), { live: true, frontal: found.findIndex((frame) => Number.isFinite(frame.live)) });
      assert.deepEqual((await said(['left'])).live, true);
      const reverse = await said(['right', 'left']);
      assert.deepEqual([reverse.live, !reverse.live && reverse.reason], [false, 'move_not_seen']);
      // A nod she never made is not seen either.
      assert.equal((await said(['left', 'down'])).live, false);
      // The nose's texture is read a frame at a time, the event loop let through between frames.
      let ticks = 0;
      const timer = setInterval(() => ticks++, 0);
      await said(['left', 'right']);
      clearInterval(timer);
      assert.ok(ticks >= 2, `the event loop ran ${ticks} times while the film was judged`);
    }
    console.log(rows.join('\n'));
  });

  it('frame to frame, her face moves and grows within the continuity rule, with the margins printed', async () => {
    const { found } = await film(female.slice(8));
    const seen = steps(found);
    const [jump, resize] = [Math.max(...seen.map((s) => s.jump)), Math.max(...seen.map((s) => s.resize))];
    console.log(
      `# at 12.5 frames a second, her face's middle moves at most ${jump.toFixed(2)} eye distances a frame (the rule allows ${FILM_LIMITS.jump}) and its size changes at most ${resize.toFixed(2)} times (the rule ${FILM_LIMITS.resize})`,
    );
    assert.ok(jump < FILM_LIMITS.jump / 2 && resize < FILM_LIMITS.resize, `${jump} ${resize}`);
  });

  it('frame to frame, each real person keeps their texture at the widget\'s four frames a second, turning to profile, coming closer and going back; the margins printed', async () => {
    const webcam = async (clip: string) => (await videoFrames(`${FIXTURES}liveness/${clip}.mp4`, { step: 0.25, to: 20 })).map((frame) => toJpeg(frame, 85));
    const clips: [string, Uint8Array[]][] = [
      ['her turn, 12.5 frames a second', female],
      ['her turn, 4 a second', female.filter((_, i) => i % 3 === 0)],
      ['a man holding still, 4 a second', male.filter((_, i) => i % 3 === 0)],
      ["the webcam person's first 20 s, closer and farther (1), 4 a second", await webcam('webcam_closer_farther_1')],
      ["the webcam person's first 20 s, closer and farther (2), 4 a second", await webcam('webcam_closer_farther_2')],
    ];
    const rows: string[] = [];
    for (const [what, frames] of clips) {
      const { found } = await film(frames);
      const kept = found.slice(1).flatMap((frame, i) => {
        const [a, b] = [found[i]!, frame];
        return a.landmarks && a.luma && b.landmarks && b.luma ? [textureKept({ landmarks: a.landmarks, luma: a.luma }, { landmarks: b.landmarks, luma: b.luma })] : [];
      });
      const judged = kept.filter((k): k is number => k !== null);
      rows.push(`# ${what}: ${judged.length} of ${kept.length} steps judged, the texture kept ${Math.min(...judged).toFixed(2)} at least (median ${judged.sort((x, y) => x - y)[judged.length >> 1]!.toFixed(2)}; the rule ${FILM_LIMITS.texture})`);
      assert.ok(judged.length >= 0.9 * kept.length && judged.every((k) => k >= FILM_LIMITS.texture + 0.03), rows.at(-1));
    }
    console.log(rows.join('\n'));
  });

  it('a cut from her to another person, and his face swapped in while she is turned: refused as not the same person', async () => {
    const cut = await film([...female.slice(8, 14), ...male.slice(0, 10)]);
    const swapped = await film([...female.slice(8, 11), ...male.slice(0, 4), ...female.slice(15)]);
    for (const [what, { found }] of [
      ['a cut', cut],
      ['a swap', swapped],
    ] as const) {
      const verdict = await judgeFilm(found, ['left', 'right']);
      assert.deepEqual([verdict.live, !verdict.live && verdict.reason], [false, 'not_same_person'], what);
    }
  });

  it('two faces in the film, and a man who holds still: refused', async () => {
    const two = await film(jpegs('head_roll_two_people').slice(0, 12));
    const twoVerdict = await judgeFilm(two.found, ['left', 'right']);
    assert.deepEqual([twoVerdict.live, !twoVerdict.live && twoVerdict.reason], [false, 'several_faces']);
    const still = await film(male.slice(0, 20));
    for (const moves of [
      ['left', 'right'],
      ['up', 'down'],
      ['right', 'up'],
    ] as Move[][]) {
      const verdict = await judgeFilm(still.found, moves);
      assert.deepEqual([verdict.live, !verdict.live && verdict.reason], [false, 'move_not_seen'], moves.join());
    }
  });
});
