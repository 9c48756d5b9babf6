// A worker thread that finds faces: `@vladmandic/face-api` (MIT) on TensorFlow.js's WASM backend,
// whose binary ships in its npm package (nothing is downloaded at run time): the tiny face detector
// finds each face (SSD MobileNet where it finds none), the 68-landmark model places its points, and
// the ResNet-34 recognition model embeds it as 128 numbers; MiniFASNet (print-screen-model.mjs)
// says how live each face's pixels look. The models load once, on the first message. Each message
// is a list of JPEG or PNG pictures; the answer is what was found in each, and the CPU time it took.
//
// Plain JavaScript, so that Node runs it as it is in a worker thread, from the source as from the
// build (a worker does not inherit the loader that runs the TypeScript tests). Its messages are
// typed in face-pool.ts.
import { parentPort } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { PNG } from 'pngjs';
import { loadWeights, modelDirOf } from './face-weights.mjs';
import { loadJpegDecoder } from './jpeg-decoder.mjs';
import { loadPrintScreenModel } from './print-screen-model.mjs';
import { registerFasterCopies } from './tfjs-wasm-copies.mjs';

async function load() {
  const require = createRequire(import.meta.url);
  // The package's WASM build: its `main` needs the native tfjs-node, which this package avoids.
  const faceapi = require('@vladmandic/face-api/dist/face-api.node-wasm.js');
  const tf = require('@tensorflow/tfjs');
  await tf.setBackend('wasm');
  await tf.ready();
  registerFasterCopies(tf);
  const modelDir = modelDirOf(require);
  const loadNet = (net, name) => loadWeights(faceapi, net, modelDir, name);
  loadNet(faceapi.nets.tinyFaceDetector, 'tiny_face_detector_model');
  loadNet(faceapi.nets.faceLandmark68Net, 'face_landmark_68_model');
  loadNet(faceapi.nets.faceRecognitionNet, 'face_recognition_model');
  // The tiny detector at 320 first: 65 ms a frame, against 126 at 416 and SSD MobileNet's 530; on
  // the fixtures' rendered heads it finds every face, and its landmarks pass more of the real
  // clip's turns than at 416 (27 of 28 against 25 of 27). SSD MobileNet, loaded on first need (its weights and its 512 px
  // working set cost 100 MB), where it finds none: a head turned further than asked, a face at
  // the frame's edge.
  const quick = new faceapi.TinyFaceDetectorOptions({ inputSize: 320, scoreThreshold: 0.5 });
  // Under the light challenge's colours the face is close and fills much of the frame: the tiny
  // detector finds it at 224 (multiples of 32 only), at half its cost at 320.
  const close = new faceapi.TinyFaceDetectorOptions({ inputSize: 224, scoreThreshold: 0.5 });
  const thorough = new faceapi.SsdMobilenetv1Options({ minConfidence: 0.5 });
  const detect = async (input, { near = false, describe = true } = {}) => {
    const run = (options) => {
      const found = faceapi.detectAllFaces(input, options).withFaceLandmarks();
      return describe ? found.withFaceDescriptors() : found;
    };
    for (const options of near ? [close, quick] : [quick]) {
      const faces = await run(options);
      if (faces.length) return faces;
    }
    if (!faceapi.nets.ssdMobilenetv1.isLoaded) loadNet(faceapi.nets.ssdMobilenetv1, 'ssd_mobilenetv1_model');
    return run(thorough);
  };
  const livenessOf = await loadPrintScreenModel();
  const decodeJpeg = await loadJpegDecoder();
  const decode = async (bytes) => {
    try {
      return bytes[0] === 0x89 ? PNG.sync.read(Buffer.from(bytes)) : await decodeJpeg(bytes);
    } catch (error) {
      throw Object.assign(new Error(`unreadable picture: ${error?.message ?? error}`), { unreadable: true });
    }
  };
  /** The models' input for one picture, disposed of after `use`. */
  const withTensor = async (image, use) => {
    const { rgb, side } = squareRgbOf(image);
    const input = tf.tensor3d(rgb, [side, side, 3], 'float32');
    try {
      return await use(input);
    } finally {
      input.dispose();
    }
  };
  /**
   * The 68 landmarks in a box around where they were in the frame before: the landmark model on
   * that crop alone, without the detector (12 ms a frame where the detector and landmarks take 69,
   * on the fixtures' real clip; the landmarks land within 0.04 eye distances of the detector's).
   */
  const follow = async (input, previous) => {
    const first = await followFrom(input, previous);
    // A head that moved far since the last frame (a quick turn or nod, four frames a second) sits
    // off the box: the landmarks found there are found again from where they landed; if they move
    // on again, the box is lost, and the detector finds the face anew.
    if (!moved(previous, first)) return { faces: null, landmarks: first };
    const second = await followFrom(input, first);
    return moved(first, second) ? detectNear(input, previous) : { faces: null, landmarks: second };
  };
  /** The faces the tiny detector finds (how many), and the landmarks of the one nearest `previous`, or null. */
  const detectNear = async (input, previous) => {
    // The tiny detector alone: a head turned to profile may escape it, and is followed still (the
    // judge weighs a frame where it found none); SSD MobileNet would cost half a second to load.
    const detected = (await faceapi.detectAllFaces(input, quick).withFaceLandmarks()).map((face) => face.landmarks.positions.map(({ x, y }) => ({ x, y })));
    return { faces: detected.length, landmarks: nearest(detected, previous) };
  };
  const followFrom = async (input, previous) => {
    const box = followBox(previous, input.shape[0]);
    const [crop] = await faceapi.extractFaceTensors(input, [new faceapi.Rect(box.x, box.y, box.width, box.height)]);
    try {
      const found = await faceapi.nets.faceLandmark68Net.detectLandmarks(crop);
      const [width, height] = [crop.shape[1], crop.shape[0]];
      return found.positions.map(({ x, y }) => ({ x: box.x + (x * box.width) / width, y: box.y + (y * box.height) / height }));
    } finally {
      crop.dispose();
    }
  };
  /** The 128-number embedding of the face at `landmarks`, cropped as face-api aligns it (their box, a fifth wider and taller). */
  const describeAt = async (input, landmarks) => {
    const { left, right, top, bottom } = bounds(landmarks);
    const [width, height] = [1.2 * (right - left), 1.2 * (bottom - top)];
    const [crop] = await faceapi.extractFaceTensors(input, [new faceapi.Rect(left - 0.1 * (right - left), top - 0.1 * (bottom - top), width, height)]);
    try {
      return Array.from(await faceapi.computeFaceDescriptor(crop));
    } finally {
      crop.dispose();
    }
  };
  /**
   * A challenge filmed: the faces found in its first frame and in every DETECT_EVERY-th (how many,
   * and which is followed: the one nearest the last place), the followed face's landmarks in every
   * frame and its surroundings in grey; then, in each third of the film, its embedding where it faces
   * the camera most and where it is furthest from that, and the passive model's score where it faces it.
   */
  const track = async (frames, opening) => {
    const images = [];
    const found = [];
    let previous = null;
    for (const [i, bytes] of frames.entries()) {
      const image = await decode(bytes);
      images.push(image);
      const { faces, landmarks } = await withTensor(image, async (input) => {
        if (previous && i % DETECT_EVERY !== 0) return follow(input, previous);
        const found = await detectNear(input, previous);
        return found.landmarks || !previous ? found : { faces: found.faces, landmarks: (await follow(input, previous)).landmarks };
      });
      previous = landmarks;
      found.push({ faces, landmarks, luma: landmarks ? lumaAround(image, landmarks) : null, descriptor: [], live: NaN });
    }
    const { frontal, furthest } = described(found, opening);
    for (const i of new Set([...frontal, ...furthest])) {
      const { landmarks } = found[i];
      found[i].descriptor = await withTensor(images[i], (input) => describeAt(input, landmarks));
      if (frontal.includes(i)) [found[i].live] = await livenessOf(images[i], [faceBox(landmarks)]);
    }
    return found;
  };
  /**
   * @param {Uint8Array} bytes
   * @param {{ lit?: boolean, describe?: boolean }} options `lit`: a frame under the light challenge,
   * judged on its colours only (no passive model); `describe`: run the recognition model.
   */
  const find = async (bytes, { lit = false, describe = true } = {}) => {
    const image = await decode(bytes);
    const { rgb, side } = squareRgbOf(image);
    const input = tf.tensor3d(rgb, [side, side, 3], 'float32');
    try {
      const faces = await detect(input, { near: lit, describe });
      const found = faces.map((face) => ({ face, landmarks: face.landmarks.positions.map(({ x, y }) => ({ x, y })) }));
      const live = lit ? [] : await livenessOf(image, found.map(({ landmarks }) => faceBox(landmarks)));
      return found.map(({ face, landmarks }, i) => ({
        landmarks,
        descriptor: describe ? Array.from(face.descriptor) : [],
        luma: lumaAround(image, landmarks),
        // Only the light's frames are judged on their colours: the others spare the grid's memory.
        ...(lit ? { colours: coloursAround(image, landmarks) } : {}),
        live: live[i] ?? NaN,
      }));
    } finally {
      input.dispose();
    }
  };
  return { find, track };
}

/** A filmed challenge's frames between two runs of the detector (each run 47 ms, a frame followed 12). */
const DETECT_EVERY = 4;

/**
 * Where to look for the face in the next frame: its landmarks' box, a quarter larger, square, a
 * little above their middle (the brows' room), within the models' square input of `side` pixels.
 */
function followBox(landmarks, side) {
  const { left, right, top, bottom } = bounds(landmarks);
  const size = Math.min(side, 1.25 * Math.max(right - left, bottom - top, 8));
  const [cx, cy] = [(left + right) / 2, (top + bottom) / 2 - 0.1 * (bottom - top)];
  const clamp = (start) => Math.min(side - size, Math.max(0, start));
  return { x: clamp(cx - size / 2), y: clamp(cy - size / 2), width: size, height: size };
}

/** Whether the landmarks' box moved by more than a tenth of its size, or changed size by as much, from one frame to the next. */
function moved(before, after) {
  const [a, b] = [bounds(before), bounds(after)];
  const size = Math.max(a.right - a.left, a.bottom - a.top);
  const shift = Math.hypot((b.left + b.right - a.left - a.right) / 2, (b.top + b.bottom - a.top - a.bottom) / 2);
  return shift > 0.1 * size || Math.abs(Math.max(b.right - b.left, b.bottom - b.top) / size - 1) > 0.1;
}

/** Of the faces a detector found, the one nearest the face followed so far (the only one, or none, at the start). */
function nearest(faces, previous) {
  if (!faces.length) return null;
  if (!previous) return faces[0];
  const centre = (points) => ({ x: points.reduce((s, p) => s + p.x, 0) / points.length, y: points.reduce((s, p) => s + p.y, 0) / points.length });
  const at = centre(previous);
  return faces.reduce((best, face) => (Math.hypot(centre(face).x - at.x, centre(face).y - at.y) < Math.hypot(centre(best).x - at.x, centre(best).y - at.y) ? face : best));
}

/**
 * In each third of the film, the frame where the face looks straightest at the camera (its nose tip
 * nearest the jaw's middle, and as far down between the eyes and the chin as in the film's opening:
 * the judge's yaw and pitch, geometry.ts), where the recognition and passive models are surest and
 * the judge measures the movements from; and the frame furthest from it, a movement's, so that the
 * person who makes the movements is the one who faces the camera.
 *
 * The level is the frontal look's (the film's `opening` frames, else its first sixth), not the whole
 * film's: a person who holds a nod longer than asked, or follows the arrows late, nods in more than
 * half the frames, and a nodded frame would then pass for the frontal one.
 */
function described(found, opening = Math.ceil(found.length / 6)) {
  const pose = (p) => {
    const eyes = (p[36].y + p[39].y + p[42].y + p[45].y) / 4;
    return { yaw: (p[30].x - (p[0].x + p[16].x) / 2) / (p[16].x - p[0].x || 1), pitch: (p[30].y - eyes) / (p[8].y - eyes || 1) };
  };
  const poses = found.map((frame) => frame.landmarks && pose(frame.landmarks));
  const ahead = poses.slice(0, Math.max(1, opening)).filter(Boolean);
  const pitches = (ahead.length ? ahead : poses.filter(Boolean)).map((p) => p.pitch).sort((a, b) => a - b);
  const level = pitches.length ? (pitches[(pitches.length - 1) >> 1] + pitches[pitches.length >> 1]) / 2 : 0;
  const off = (p) => Math.abs(p.yaw) + Math.abs(p.pitch - level);
  const [frontal, furthest] = [[], []];
  for (let third = 0; third < 3; third++) {
    const [from, to] = [Math.floor((third * found.length) / 3), Math.floor(((third + 1) * found.length) / 3)];
    const seen = poses.map((p, i) => i).filter((i) => i >= from && i < to && poses[i]);
    if (!seen.length) continue;
    frontal.push(seen.reduce((best, i) => (off(poses[i]) < off(poses[best]) ? i : best)));
    furthest.push(seen.reduce((best, i) => (off(poses[i]) > off(poses[best]) ? i : best)));
  }
  return { frontal, furthest };
}

/** The handler's largest frame a side (LIVE_FRAMES in the protocol): pictures up to it share one buffer, larger ones get their own. */
const SHARED_SIDE = 640;
let shared;

/**
 * The picture's red, green and blue as the models take them: floats, in a square whose bottom or
 * right is black. face-api pads every picture so for its detector, concatenating zeros to a copy
 * cast to floats; a square of floats it takes as it is, and finds the same faces at the same
 * places. One loop, where `Int32Array.from`, a tensor of four channels and a slice took 36 ms.
 */
function squareRgbOf(image) {
  const side = Math.max(image.width, image.height);
  // One buffer for every frame, zeroed where the last one wrote: TensorFlow.js's WASM backend
  // copies a tensor's values into its own heap as it is made, and a new 5 MB array a frame
  // is garbage that brings the collector round sooner.
  const length = side * side * 3;
  const rgb = side <= SHARED_SIDE ? (shared ??= new Float32Array(SHARED_SIDE * SHARED_SIDE * 3)).subarray(0, length).fill(0) : new Float32Array(length);
  for (let y = 0; y < image.height; y++) {
    for (let x = 0, i = y * image.width * 4, j = y * side * 3; x < image.width; x++, i += 4, j += 3) {
      rgb[j] = image.data[i];
      rgb[j + 1] = image.data[i + 1];
      rgb[j + 2] = image.data[i + 2];
    }
  }
  return { rgb, side };
}

/**
 * The face's box as a face detector of SSD's kind draws it, from the landmarks, whichever detector
 * found the face: the passive model's crops are multiples of that box, and the tiny detector's own
 * is a third wider. On the fixtures' photos SSD MobileNet's box is 0.93 times the landmarks' width
 * and 1.33 times their height, its middle 0.15 of that height above theirs (the forehead).
 */
function faceBox(landmarks) {
  const { left, right, top, bottom } = bounds(landmarks);
  const [width, height] = [0.93 * (right - left), 1.33 * (bottom - top)];
  const [cx, cy] = [(left + right) / 2, (top + bottom) / 2 - 0.15 * (bottom - top)];
  return { x: cx - width / 2, y: cy - height / 2, width, height };
}

/** The landmarks' extent. */
function bounds(landmarks) {
  const xs = landmarks.map((p) => p.x);
  const ys = landmarks.map((p) => p.y);
  return { left: Math.min(...xs), right: Math.max(...xs), top: Math.min(...ys), bottom: Math.max(...ys) };
}

/** Eye distance, in pixels of the crop: enough texture to follow, little to carry. */
const CROP_EYES = 40;

/**
 * The face's surroundings in grey levels, averaged down so that the eyes are about 40 px apart:
 * what the judge follows the nose's texture in (parallax.ts).
 */
function lumaAround(image, landmarks) {
  const [leftEye, rightEye] = [landmarks.slice(36, 42), landmarks.slice(42, 48)].map((eye) => ({ x: eye.reduce((s, p) => s + p.x, 0) / 6, y: eye.reduce((s, p) => s + p.y, 0) / 6 }));
  const eyes = Math.hypot(leftEye.x - rightEye.x, leftEye.y - rightEye.y) || 1;
  const scale = Math.min(1, CROP_EYES / eyes);
  const { left, right, top, bottom } = bounds(landmarks);
  const half = 0.75 * Math.max(right - left, bottom - top);
  const [cx, cy] = [(left + right) / 2, (top + bottom) / 2];
  const [x0, y0] = [Math.max(0, Math.floor(cx - half)), Math.max(0, Math.floor(cy - half))];
  const [x1, y1] = [Math.min(image.width, Math.ceil(cx + half)), Math.min(image.height, Math.ceil(cy + half))];
  const [width, height] = [Math.max(1, Math.floor((x1 - x0) * scale)), Math.max(1, Math.floor((y1 - y0) * scale))];
  const data = new Uint8Array(width * height);
  // The frame's pixels under crop pixel k, along one axis: at least one, for a scale of 1.
  const under = (origin, end, k) => [Math.floor(origin + k / scale), Math.min(end, Math.max(Math.floor(origin + k / scale) + 1, Math.floor(origin + (k + 1) / scale)))];
  for (let v = 0; v < height; v++) {
    const [top, bottom] = under(y0, y1, v);
    for (let u = 0; u < width; u++) {
      const [left, right] = under(x0, x1, u);
      // Their mean (a box filter), in Rec. 601 luma.
      let sum = 0;
      let count = 0;
      for (let y = top; y < bottom; y++) {
        for (let x = left; x < right; x++) {
          const i = (y * image.width + x) * 4;
          sum += 0.299 * image.data[i] + 0.587 * image.data[i + 1] + 0.114 * image.data[i + 2];
          count++;
        }
      }
      data[v * width + u] = count ? Math.round(sum / count) : 0;
    }
  }
  return { data, width, height, x0, y0, scale };
}

/** Linear light, 0 to 1, of each 8-bit sRGB value. */
const LINEAR = Float32Array.from({ length: 256 }, (_, v) => (v / 255 <= 0.04045 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4));
/** Cells a side of the colour grid: the face's box is about 21 across. */
const GRID = 64;

/**
 * The face and the room around it in mean linear colours, on a grid three times the face's size:
 * what the light challenge's judge reads the screen's reflection from (light.ts). Cells outside
 * the frame are NaN.
 */
function coloursAround(image, landmarks) {
  const { left, right, top, bottom } = bounds(landmarks);
  const cell = (3 * Math.max(right - left, bottom - top)) / GRID;
  const [x0, y0] = [(left + right) / 2 - (GRID / 2) * cell, (top + bottom) / 2 - (GRID / 2) * cell];
  const sums = new Float64Array(GRID * GRID * 4);
  const [u0, v0] = [Math.max(0, Math.ceil(x0)), Math.max(0, Math.ceil(y0))];
  const [u1, v1] = [Math.min(image.width, Math.floor(x0 + GRID * cell)), Math.min(image.height, Math.floor(y0 + GRID * cell))];
  for (let y = v0; y < v1; y++) {
    const row = Math.min(GRID - 1, Math.floor((y - y0) / cell)) * GRID;
    for (let x = u0; x < u1; x++) {
      const k = (row + Math.min(GRID - 1, Math.floor((x - x0) / cell))) * 4;
      const i = (y * image.width + x) * 4;
      sums[k] += LINEAR[image.data[i]];
      sums[k + 1] += LINEAR[image.data[i + 1]];
      sums[k + 2] += LINEAR[image.data[i + 2]];
      sums[k + 3]++;
    }
  }
  const data = new Float32Array(GRID * GRID * 3).fill(NaN);
  for (let k = 0; k < GRID * GRID; k++) if (sums[k * 4 + 3]) for (let c = 0; c < 3; c++) data[k * 3 + c] = sums[k * 4 + c] / sums[k * 4 + 3];
  return { data, size: GRID, x0, y0, cell };
}

let loading;

parentPort?.on('message', async ({ id, moves, light, video, opening }) => {
  try {
    loading ??= load();
    const { find, track } = await loading;
    const started = process.cpuUsage();
    const found = { moves: [], light: [], ...(video ? { video: await track(video, opening) } : {}) };
    for (const image of moves) found.moves.push(await find(image));
    // The light's frames: the recognition model on the first only (judge.ts says why).
    for (const [i, image] of light.entries()) found.light.push(await find(image, { lit: true, describe: i === 0 }));
    const used = process.cpuUsage(started);
    parentPort.postMessage({ id, ...found, cpuMs: (used.user + used.system) / 1000 });
  } catch (error) {
    parentPort.postMessage({ id, error: error?.message ?? String(error), unreadable: error?.unreadable === true });
  }
});
