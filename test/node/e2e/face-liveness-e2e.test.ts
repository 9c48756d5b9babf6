/**
 * <face-verify> through the demo with its live check on: a camera the test draws shows a head with
 * real depth (test/node/liveness/head.ts) making each movement the handler asked for, as soon as
 * the widget shows it; the handler judges the frames with its face models, the service compares the
 * frontal one, and the host accepts the receipt. The same camera showing a flat picture moved as
 * asked is refused.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { LivenessMove } from '../../../src/core/protocol.js';
import { createFacePool } from '../../../src/server/node/index.js';
import { render, type Rgba, type Shape } from '../liveness/head.js';
import { GENUINE, landmarksOf, MOVES, photo } from '../liveness/presentations.js';
import { answerChallenge, canvasCamera } from './canvas-camera.js';
import { cspViolations, hostChecksReceipt, openInDemo, startDemo, type Demo } from './demo-browser.js';

const widget = 'face-verify';

/** What the camera sees of obama_1's photo as `shape`: front, and each movement. */
async function posesOf(shape: Shape): Promise<Record<'front' | LivenessMove, Rgba>> {
  const pool = createFacePool({ workers: 1 });
  try {
    const source = photo('obama_1');
    const landmarks = await landmarksOf(pool, source);
    const pose = (move: LivenessMove | null) => render(source, landmarks, shape, move ? GENUINE[move] : {});
    return { front: pose(null), ...Object.fromEntries(MOVES.map((move) => [move, pose(move)])) } as Record<'front' | LivenessMove, Rgba>;
  } finally {
    await pool.close();
  }
}

describe('<face-verify> live, end to end through the demo (a head drawn in 3D before the camera)', () => {
  let demo: Demo;
  let camera: Awaited<ReturnType<typeof canvasCamera>>;
  let head: Record<'front' | LivenessMove, Rgba>;
  let flat: Record<'front' | LivenessMove, Rgba>;
  before(async () => {
    [head, flat] = [await posesOf('head'), await posesOf('flat')];
    demo = await startDemo({ LIVENESS_LIGHT: '0' });
    camera = await canvasCamera(demo.page);
  });
  after(() => demo?.close());

  it('registers the live head, verifies it, and the host accepts the receipt; no file is offered', async () => {
    await openInDemo(demo.page, 'face', 'enroll');
    const enrolled = await answerChallenge(demo, camera, head);
    assert.equal(enrolled.outcome, 'enrolled');
    assert.equal(enrolled.asked.length, 2, `two movements asked: ${enrolled.asked}`);
    await openInDemo(demo.page, 'face', 'verify');
    assert.equal(await demo.page.evaluate((w) => document.querySelector<any>(w).shadowRoot.querySelector('[part~="upload"]'), widget), null);
    const verified = await answerChallenge(demo, camera, head);
    assert.match(verified.outcome, /^success:/);
    const checked = await hostChecksReceipt(demo, verified.outcome.slice('success:'.length), 'face');
    assert.deepEqual([checked.accepted, checked.claims?.sub, checked.claims?.mth], [true, 'omar', 'face']);
    // The page runs under the demo's strict CSP; the model detector's one known probe aside.
    assert.deepEqual((await cspViolations(demo.page)).filter((v) => v !== 'script-src wasm-eval'), []);
  });

  it('a flat picture of the same face, moved as asked: refused as not live', async () => {
    await openInDemo(demo.page, 'face', 'verify');
    const { outcome } = await answerChallenge(demo, camera, flat);
    assert.match(outcome, /^failure:liveness_failed:/);
  });
});
