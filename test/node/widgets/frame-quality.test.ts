import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import jpeg from 'jpeg-js';
import { createRequire } from 'node:module';
import { measureFrame, qualityProblems, THRESHOLDS, type FaceBox, type Pixels } from '../../../src/face-verify/later/frame-quality.js';
import { FIXTURES as FIXTURE_DIR, mjpegFrames } from '../helpers.js';
import { gifFrames, videoFrames } from '../liveness/video-frames.js';
// @ts-expect-error: a JavaScript module of the Node entry, without types.
import { loadWeights, modelDirOf } from '../../../src/server/node/face-weights.mjs';

const FIXTURES = ['obama_1', 'obama_2', 'biden_1', 'biden_2', 'rose_leslie_1', 'rose_leslie_2', 'alex_lacamoire_1', 'alex_lacamoire_2', 'noface_coffee', 'noface_rocket', 'two_faces_obama_biden'];

const frame = (name: string): Pixels => jpeg.decode(mjpegFrames(name)[0]!, { useTArray: true });

/** A box blur of the given radius: what a moving or unfocused camera gives. */
function blurred({ data, width, height }: Pixels, radius = 4): Pixels {
  const out = new Uint8ClampedArray(data.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < 3; c++) {
        let sum = 0;
        let n = 0;
        for (let dy = -radius; dy <= radius; dy++) {
          for (let dx = -radius; dx <= radius; dx++) {
            const xx = Math.min(width - 1, Math.max(0, x + dx));
            const yy = Math.min(height - 1, Math.max(0, y + dy));
            sum += data[(yy * width + xx) * 4 + c]!;
            n++;
          }
        }
        out[(y * width + x) * 4 + c] = sum / n;
      }
      out[(y * width + x) * 4 + 3] = 255;
    }
  }
  return { data: out, width, height };
}

const exposed = ({ data, width, height }: Pixels, gain: number, offset = 0): Pixels => ({
  width,
  height,
  data: Uint8ClampedArray.from(data as ArrayLike<number>, (v, i) => (i % 4 === 3 ? 255 : v * gain + offset)),
});

const light = (pixels: Pixels) => qualityProblems(measureFrame(pixels), pixels).filter((p) => p !== 'blurry');

describe('frame quality on the fixture frames', () => {
  for (const name of FIXTURES) {
    it(`${name}: passes as it is; refused when blurred, dark or washed out`, () => {
      const original = frame(name);
      assert.deepEqual(qualityProblems(measureFrame(original), original), []);
      assert.deepEqual(qualityProblems(measureFrame(blurred(original)), original), ['blurry']);
      assert.deepEqual(light(exposed(original, 0.25)), ['too-dark']);
      assert.deepEqual(light(exposed(original, 0.3, 200)), ['too-bright']);
    });
  }
});

describe('frame quality on real people (the fixtures\' webcam clips and clips of people)', () => {
  it('every frame passes the light and sharpness gate: the challenge starts by itself', async () => {
    const clips = {
      'webcam 1': await videoFrames(`${FIXTURE_DIR}liveness/webcam_closer_farther_1.mp4`, { step: 1 }),
      'webcam 2': await videoFrames(`${FIXTURE_DIR}liveness/webcam_closer_farther_2.mp4`, { step: 1 }),
      'a woman turning': gifFrames(`${FIXTURE_DIR}liveness/head_turn_female.gif`),
      'a man holding still': gifFrames(`${FIXTURE_DIR}liveness/head_still_male.gif`),
    };
    for (const [clip, frames] of Object.entries(clips)) {
      const sharpness = frames.map((f) => measureFrame(f).sharpness);
      console.log(`# ${clip}: ${frames.length} frames, sharpness ${Math.min(...sharpness).toFixed(0)} to ${Math.max(...sharpness).toFixed(0)}`);
      for (const [i, f] of frames.entries()) assert.deepEqual(qualityProblems(measureFrame(f), f), [], `${clip}, frame ${i}`);
    }
  });
});

/**
 * The Tiny Face Detector at 224 px, as `modelFaceDetector` runs it in the page (the demo's), here on
 * TensorFlow.js's WASM backend: the boxes the gate places the face by.
 */
async function tinyDetector(): Promise<(frame: Pixels) => Promise<FaceBox[]>> {
  const require = createRequire(import.meta.url);
  const faceapi = require('@vladmandic/face-api/dist/face-api.node-wasm.js');
  const tf = require('@tensorflow/tfjs');
  await tf.setBackend('wasm');
  loadWeights(faceapi, faceapi.nets.tinyFaceDetector, modelDirOf(require), 'tiny_face_detector_model');
  const options = new faceapi.TinyFaceDetectorOptions({ inputSize: 224, scoreThreshold: 0.5 });
  return async ({ data, width, height }) => {
    const rgb = new Float32Array(width * height * 3);
    for (let i = 0; i < width * height; i++) for (let c = 0; c < 3; c++) rgb[i * 3 + c] = data[i * 4 + c]!;
    const input = tf.tensor3d(rgb, [height, width, 3]);
    try {
      return (await faceapi.detectAllFaces(input, options)).map(({ box }: { box: FaceBox }) => ({ x: box.x, y: box.y, width: box.width, height: box.height }));
    } finally {
      input.dispose();
    }
  };
}

describe('face placement on a real webcam (the fixtures\' webcam person, with the demo\'s detector)', () => {
  it('near and far back, every frame (one may miss) is placed well: the challenge starts by itself; the margins printed', async () => {
    const detect = await tinyDetector();
    for (const clip of [1, 2]) {
      const frames = await videoFrames(`${FIXTURE_DIR}liveness/webcam_closer_farther_${clip}.mp4`, { step: 1 });
      const placed: string[] = [];
      let [lowest, smallest, good] = [0, 1, 0];
      for (const f of frames) {
        const faces = await detect(f);
        const problems = qualityProblems(measureFrame(f), f, faces);
        if (!problems.length) good++;
        else placed.push(problems.join('+'));
        if (faces.length !== 1) continue;
        lowest = Math.max(lowest, (faces[0]!.y + faces[0]!.height / 2) / f.height);
        smallest = Math.min(smallest, faces[0]!.height / f.height);
      }
      console.log(`# webcam ${clip}: ${good} of ${frames.length} frames good${placed.length ? ` (else ${placed.join(', ')})` : ''}; the face's middle down to ${lowest.toFixed(2)} of the height (the gate allows ${(0.5 + THRESHOLDS.offCentre.y).toFixed(2)}), its height down to ${smallest.toFixed(2)} (${THRESHOLDS.minFaceHeight})`);
      assert.ok(good >= frames.length - 1, `webcam ${clip}: ${placed.join(', ')}`);
    }
  });
});

describe('face placement', () => {
  const size = { width: 640, height: 480 };
  const sharp = { brightness: 120, sharpness: 500 };
  const box = (cx: number, cy: number, h: number) => ({ x: cx - h * 0.4, y: cy - h / 2, width: h * 0.8, height: h });
  it('accepts one face, centred, at a good distance', () => {
    assert.deepEqual(qualityProblems(sharp, size, [box(320, 240, 220)]), []);
  });
  it('says what is wrong with the face', () => {
    assert.deepEqual(qualityProblems(sharp, size, []), ['no-face']);
    assert.deepEqual(qualityProblems(sharp, size, [box(200, 240, 200), box(440, 240, 200)]), ['several-faces']);
    assert.deepEqual(qualityProblems(sharp, size, [box(560, 240, 200)]), ['off-centre']);
    assert.deepEqual(qualityProblems(sharp, size, [box(320, 400, 200)]), ['off-centre'], 'a face at the bottom of the frame');
    assert.deepEqual(qualityProblems(sharp, size, [box(320, 340, 200)]), [], 'a face low in a webcam\'s frame, still in the oval');
    assert.deepEqual(qualityProblems(sharp, size, [box(320, 240, 80)]), ['too-far']);
    assert.deepEqual(qualityProblems(sharp, size, [box(320, 240, 460)]), ['too-close']);
  });
  it('skips the face checks when no detector is available', () => {
    assert.deepEqual(qualityProblems(sharp, size, undefined), []);
  });
});
