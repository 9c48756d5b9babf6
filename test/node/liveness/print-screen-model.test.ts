/**
 * The passive layer (MiniFASNet, print-screen-model.mjs): its ONNX files are the ones the
 * repository's script makes from the published weights, and on media it did not learn from it tells
 * live faces from screens and prints. What each presentation scores, frame by frame and as the judge
 * takes it (the mean of a challenge's frames), is printed as a table: real media first (the
 * Silent-Face samples, the fixtures' clips of real people), then what is simulated here (a real
 * clip replayed on a screen, replay.ts).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LIMITS } from '../../../src/server/liveness/judge.js';
import { createFacePool } from '../../../src/server/node/index.js';
import { FIXTURES } from '../helpers.js';
import { fromJpeg, toJpeg, type Rgba } from './head.js';
import { onScreen, printed } from './replay.js';
import { PEOPLE, photo } from './presentations.js';
import { gifFrames, videoFrames } from './video-frames.js';

const MODELS = new URL('../../../models/minifasnet/', import.meta.url);
const pool = createFacePool({ workers: 1 });
after(() => pool.close());

/** The Silent-Face samples are stored sideways with an EXIF orientation of 6: turned upright, as a camera gives them. */
function upright(image: Rgba): Rgba {
  const { width: w, height: h } = image;
  const data = new Uint8ClampedArray(w * h * 4);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) data.set(image.data.subarray((y * w + x) * 4, (y * w + x) * 4 + 4), (x * h + (h - 1 - y)) * 4);
  return { data, width: h, height: w };
}

/** How live the one face in each picture looks (a picture with no face or several scores nothing). */
async function scores(images: Rgba[]): Promise<(number | null)[]> {
  const found = (await pool.observe({ moves: images.map((image) => toJpeg(image, 85)), light: [] })).moves;
  return found.map((faces) => (faces.length === 1 ? faces[0]!.live : null));
}

interface Row {
  presentation: string;
  kind: 'real' | 'simulated';
  genuine: boolean;
  frames: (number | null)[];
}

/** Consecutive frames taken three at a time, as a challenge's answer; the judge's mean of each (a single picture is its own). */
const answers = (frames: (number | null)[]) => {
  const faces = frames.filter((score): score is number => score !== null);
  if (frames.length < 3) return faces;
  return Array.from({ length: Math.floor(faces.length / 3) }, (_, i) => (faces[3 * i]! + faces[3 * i + 1]! + faces[3 * i + 2]!) / 3);
};

function table(rows: Row[]): string {
  const lines = rows.map(({ presentation, kind, genuine, frames }) => {
    const seen = frames.filter((score): score is number => score !== null);
    const refused = seen.filter((score) => score < LIMITS.live).length;
    const triples = answers(frames);
    const passed = triples.filter((mean) => mean >= LIMITS.live).length;
    const rate = genuine ? `BPCER ${((100 * (triples.length - passed)) / triples.length).toFixed(1)} %` : `APCER ${((100 * passed) / triples.length).toFixed(1)} %`;
    const range = seen.length ? `${Math.min(...seen).toFixed(2)} to ${Math.max(...seen).toFixed(2)}` : '-';
    const without = frames.length - seen.length;
    return `| ${presentation} | ${kind} | ${frames.length}${without ? ` (${without} without one face)` : ''} | ${range} | ${refused} | ${triples.length} | ${passed} | ${rate} |`;
  });
  return ['| presentation | media | frames | score a frame | frames under the line | answers (3 frames, or the picture) | passed | rate |', '|---|---|---|---|---|---|---|---|', ...lines].join('\n');
}

describe('the passive print and screen model', () => {
  it('its ONNX files are those of SHA256SUMS', () => {
    const sums = readFileSync(new URL('SHA256SUMS', MODELS), 'utf8').trim().split('\n');
    assert.equal(sums.length, 2);
    for (const line of sums) {
      const [sum, file] = line.split(/\s+/);
      assert.equal(createHash('sha256').update(readFileSync(new URL(file!, MODELS))).digest('hex'), sum, file);
    }
  });

  // PyTorch is for the conversion alone: installed where the weights are turned into ONNX (.ci/run does), never at run time.
  const python = spawnSync('python3', ['-c', 'import torch, onnx, onnxruntime'], { stdio: 'ignore' }).status === 0;
  it('the repository\'s script makes the same files again from the weights (but for the rounding of the folded batch norms)', { skip: python ? false : 'PyTorch, onnx and onnxruntime are not installed for python3 (pip install torch==2.13.0+cpu onnx==1.23.1 onnxruntime==1.30.0)' }, () => {
    const out = mkdtempSync(join(tmpdir(), 'minifasnet-'));
    try {
      // The script fails unless its files are the shipped ones: byte for byte, or (on a machine that
      // rounds the folded batch norms otherwise) the same graphs with every weight within 1e-6 of its tensor's largest.
      const written = execFileSync('python3', [new URL('export.py', MODELS).pathname, '--out', out, `${FIXTURES}liveness/models-minifasnet`], { encoding: 'utf8' });
      const shipped = readFileSync(new URL('SHA256SUMS', MODELS), 'utf8');
      if (written !== shipped) {
        console.log(`# ${written.split('\n')[0]}`);
        assert.match(written, /^The shipped files but for the batch norms' rounding/);
        return;
      }
      for (const file of ['minifasnet-v2-2.7.onnx', 'minifasnet-v1se-4.0.onnx']) assert.deepEqual(readFileSync(join(out, file)), readFileSync(new URL(file, MODELS)), file);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  const rows: Row[] = [];
  before(async () => {
    const sample = (name: string) => upright(fromJpeg(readFileSync(`${FIXTURES}liveness/${name}.jpg`)));
    rows.push({ presentation: 'Silent-Face: a live woman (T1)', kind: 'real', genuine: true, frames: await scores([sample('live_T1')]) });
    rows.push({ presentation: 'Silent-Face: a printed poster (F1)', kind: 'real', genuine: false, frames: await scores([sample('print_poster_F1')]) });
    rows.push({ presentation: 'Silent-Face: a tablet replay (F2)', kind: 'real', genuine: false, frames: await scores([sample('screen_replay_F2')]) });
    const webcam = [
      ...(await videoFrames(`${FIXTURES}liveness/webcam_closer_farther_1.mp4`, { step: 2 })),
      ...(await videoFrames(`${FIXTURES}liveness/webcam_closer_farther_2.mp4`, { step: 2 })),
    ];
    rows.push({ presentation: 'a person on a webcam (two clips, a frame every 2 s)', kind: 'real', genuine: true, frames: await scores(webcam) });
    rows.push({ presentation: 'a woman turning her head (480 x 270)', kind: 'real', genuine: true, frames: await scores(gifFrames(`${FIXTURES}liveness/head_turn_female.gif`)) });
    rows.push({ presentation: 'a man holding still (480 x 270)', kind: 'real', genuine: true, frames: await scores(gifFrames(`${FIXTURES}liveness/head_still_male.gif`).filter((_, i) => i % 2 === 0)) });
    // The webcam clip replayed on a screen held to the camera: a monitor filling the view (1 and 1.6
    // screen pixels a camera pixel) and a phone's dense screen (2.6), at a slight angle, a lamp's glare moving on the glass.
    const replayed = webcam.filter((_, i) => i % 2 === 0);
    for (const density of [1, 1.6, 2.6]) {
      const shown = replayed.map((frame, i) => onScreen(frame, { density, angle: 1 + (i % 4), seed: i, glare: { x: 0.2 + 0.05 * (i % 10), y: 0.3, strength: 40 + 5 * (i % 7) } }));
      rows.push({ presentation: `the webcam clip replayed on a screen (${density} screen pixels a camera pixel)`, kind: 'simulated', genuine: false, frames: await scores(shown) });
    }
    // Printed: measured, not asserted. This simulation of ink and paper is not what the model learnt
    // prints from (the real poster above is), and prints are refused by the depth rules (liveness-judge.test.ts).
    rows.push({ presentation: 'the fixtures\' photos printed (a halftone, paper\'s tone)', kind: 'simulated', genuine: false, frames: await scores(PEOPLE.map((person) => printed(photo(`${person}_1`)))) });
    console.log(`# the passive layer alone (the judge refuses a mean under ${LIMITS.live}):\n${table(rows)}`);
  });

  const row = (presentation: string) => rows.find((r) => r.presentation.startsWith(presentation))!;

  it('the Silent-Face samples: the live woman passes, the printed poster and the tablet replay do not', () => {
    assert.ok(row('Silent-Face: a live woman').frames[0]! >= 0.9, `T1 ${row('Silent-Face: a live woman').frames[0]}`);
    // Well under the line, not at it: the poster scores 0.18 to 0.25 as the landmarks fall a pixel
    // either way (SSD's box or the tiny detector's, at 416 or 320 px).
    for (const attack of ['Silent-Face: a printed poster', 'Silent-Face: a tablet replay']) assert.ok(row(attack).frames[0]! < 0.6 * LIMITS.live, `${attack} ${row(attack).frames[0]}`);
  });

  it('real people on a webcam and in the clips pass it, every answer of three frames', () => {
    for (const presentation of ['a person on a webcam', 'a woman turning', 'a man holding still']) {
      const triples = answers(row(presentation).frames);
      assert.ok(triples.length >= 6, presentation);
      assert.ok(triples.every((mean) => mean >= LIMITS.live), `${presentation}: ${triples.map((mean) => mean.toFixed(2)).join(' ')}`);
    }
  });

  it('the same person replayed on a screen does not, any answer of three frames', () => {
    for (const replay of rows.filter((r) => r.presentation.startsWith('the webcam clip replayed'))) {
      const triples = answers(replay.frames);
      assert.ok(triples.length >= 3, `${replay.presentation}: ${triples.length} answers with a face in each frame`);
      assert.ok(triples.every((mean) => mean < LIMITS.live), `${replay.presentation}: ${triples.map((mean) => mean.toFixed(2)).join(' ')}`);
    }
  });
});
