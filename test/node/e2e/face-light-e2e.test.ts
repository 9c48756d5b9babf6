/**
 * <face-verify> with the light challenge (on by default), end to end through the demo (under
 * its strict CSP): a head drawn in 3D before a canvas camera follows the movements, comes close to
 * the screen at the warning, starts the colours, and is lit by whichever colour the page shows at
 * that moment (test/node/liveness/head.ts: by the cosine of its skin to the screen, the room behind
 * a tenth as much, through a camera's exposure). The handler judges the reflection with its face
 * models. The same person's recording, close but lit by nothing the page shows, is refused.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createFacePool } from '../../../src/server/node/index.js';
import { FRAME, render } from '../liveness/head.js';
import { brightnessOf, camera as exposed, glass, paint } from '../liveness/lit-frames.js';
import { GENUINE, landmarksOf, MOVES, photo } from '../liveness/presentations.js';
import { answerChallenge, canvasCamera, type CanvasCamera, type LightMix, type Poses } from './canvas-camera.js';
import { cspViolations, hostChecksReceipt, openInDemo, startDemo, type Demo } from './demo-browser.js';

/** A laptop's screen a forearm from the face, in ordinary indoor light (the liveness page's "indoors"). */
const INDOORS = 0.3;

/**
 * obama_1's photo as a head: front, each movement, close to the screen, and close under the
 * screen's light (any colour is a mix, canvas-camera.ts); and what an attacker shows under each
 * colour instead: the recording behind a screen's glass that reflects it over everything, and the
 * recording with one tint painted over the face's outline.
 */
async function scene(): Promise<{ poses: Poses; lit: LightMix; glazed: LightMix; painted: LightMix }> {
  const pool = createFacePool({ workers: 1 });
  try {
    const source = photo('obama_1');
    const landmarks = await landmarksOf(pool, source);
    const pose = (move: keyof typeof GENUINE | null) => render(source, landmarks, 'head', move ? GENUINE[move] : {});
    const close = render(source, landmarks, 'head', { distance: 0.7 }, FRAME);
    const brightness = brightnessOf(close);
    const recorded = exposed(close, brightness);
    // The jaw, then the brows back: the face's outline where the models place it.
    const points = await landmarksOf(pool, recorded);
    const outline = [...points.slice(0, 17), ...points.slice(17, 27).reverse()];
    const poses = { front: pose(null), ...Object.fromEntries(MOVES.map((move) => [move, pose(move)])), close: recorded } as Poses;
    return {
      poses,
      lit: { base: close, white: render(source, landmarks, 'head', { distance: 0.7 }, FRAME, { rgb: [1, 1, 1], strength: INDOORS }), brightness },
      glazed: { base: recorded, white: glass(recorded, '#ffffff', 0.05) },
      painted: { base: recorded, white: paint(recorded, outline, '#ffffff', INDOORS) },
    };
  } finally {
    await pool.close();
  }
}

describe('<face-verify> with the light challenge, end to end through the demo', () => {
  let demo: Demo;
  let camera: CanvasCamera;
  let poses: Poses;
  let lit: LightMix;
  let attacks: Record<string, LightMix>;
  before(async () => {
    let glazed, painted;
    ({ poses, lit, glazed, painted } = await scene());
    attacks = { 'behind a screen’s glass that reflects the colours': glazed, 'painted with one tint over the face’s outline': painted };
    demo = await startDemo();
    camera = await canvasCamera(demo.page);
  });
  after(() => demo?.close());

  it('a person lit by the colours the page shows registers and verifies; the host accepts the receipt', async () => {
    await camera.underLight(lit);
    await openInDemo(demo.page, 'face', 'enroll');
    assert.equal((await answerChallenge(demo, camera, poses)).outcome, 'enrolled');
    await openInDemo(demo.page, 'face', 'verify');
    // What the words under the oval say while the colours show, the demo's face detector watching.
    await demo.page.evaluate(() => {
      const seen = new Set<string>();
      Object.assign(window, { lightWords: seen });
      setInterval(() => {
        const root = document.querySelector('face-verify')?.shadowRoot;
        if (root?.querySelector('.lighting')) seen.add(root.querySelector('[part~="feedback"]')?.textContent?.trim() ?? '');
      }, 50);
    });
    const { outcome } = await answerChallenge(demo, camera, poses);
    assert.match(outcome, /^success:/);
    const words = await demo.page.evaluate(() => [...(window as any).lightWords]);
    assert.deepEqual(words, ['Keep still, close to the screen, until the colours end.'], 'close to the screen, the person is never told to come back to the oval');
    const checked = await hostChecksReceipt(demo, outcome.slice('success:'.length), 'face');
    assert.deepEqual([checked.accepted, checked.claims?.mth], [true, 'face']);
    assert.deepEqual((await cspViolations(demo.page)).filter((v) => v !== 'script-src wasm-eval'), []);
  });

  it('the same person’s recording, answering every movement and coming close but not lit by the page, is refused: light not seen', async () => {
    await camera.underLight(null);
    await openInDemo(demo.page, 'face', 'verify');
    assert.equal((await answerChallenge(demo, camera, poses)).outcome, 'failure:liveness_failed:light_not_seen');
  });

  for (const attack of ['behind a screen’s glass that reflects the colours', 'painted with one tint over the face’s outline']) {
    it(`the recording ${attack}, following the colours the page shows, is refused`, async () => {
      await camera.underLight(attacks[attack]!);
      await openInDemo(demo.page, 'face', 'verify');
      assert.match((await answerChallenge(demo, camera, poses)).outcome, /^failure:liveness_failed:light_/);
    });
  }
});
