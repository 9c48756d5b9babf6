// A worker thread that finds faces: `@vladmandic/face-api` (MIT) on TensorFlow.js's WASM backend,
// whose binary ships in its npm package (nothing is downloaded at run time): SSD MobileNet finds
// each face, the 68-landmark model places its points, and the ResNet-34 recognition model embeds it
// as 128 numbers. The models load once, on the first message. Each message is a list of JPEG or PNG
// pictures; the answer is what was found in each, and the CPU time it took.
//
// Plain JavaScript, so that Node runs it as it is in a worker thread, from the source as from the
// build (a worker does not inherit the loader that runs the TypeScript tests). Its messages are
// typed in face-pool.ts.
import { parentPort } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';

async function load() {
  const require = createRequire(import.meta.url);
  // The package's WASM build: its `main` needs the native tfjs-node, which this package avoids.
  const faceapi = require('@vladmandic/face-api/dist/face-api.node-wasm.js');
  const tf = require('@tensorflow/tfjs');
  await tf.setBackend('wasm');
  await tf.ready();
  const modelDir = join(dirname(require.resolve('@vladmandic/face-api/package.json')), 'model');
  for (const [net, name] of [
    [faceapi.nets.ssdMobilenetv1, 'ssd_mobilenetv1_model'],
    [faceapi.nets.faceLandmark68Net, 'face_landmark_68_model'],
    [faceapi.nets.faceRecognitionNet, 'face_recognition_model'],
  ]) {
    const manifest = JSON.parse(readFileSync(join(modelDir, `${name}-weights_manifest.json`), 'utf8'));
    const bytes = Buffer.concat(manifest.flatMap((group) => group.paths.map((path) => readFileSync(join(modelDir, path)))));
    net.loadFromWeightMap(faceapi.tf.io.decodeWeights(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), manifest.flatMap((group) => group.weights)));
  }
  const options = new faceapi.SsdMobilenetv1Options({ minConfidence: 0.5 });
  /** @param {Uint8Array} bytes */
  return async (bytes) => {
    const image = bytes[0] === 0x89 ? PNG.sync.read(Buffer.from(bytes)) : jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: 5, maxMemoryUsageInMB: 64 });
    const input = tf.tidy(() => tf.slice(tf.tensor3d(Int32Array.from(image.data), [image.height, image.width, 4], 'int32'), [0, 0, 0], [-1, -1, 3]));
    try {
      const faces = await faceapi.detectAllFaces(input, options).withFaceLandmarks().withFaceDescriptors();
      return faces.map((face) => ({ landmarks: face.landmarks.positions.map(({ x, y }) => ({ x, y })), descriptor: Array.from(face.descriptor) }));
    } finally {
      input.dispose();
    }
  };
}

let loading;

parentPort?.on('message', async ({ id, images }) => {
  try {
    loading ??= load();
    const find = await loading;
    const started = process.cpuUsage();
    const frames = [];
    for (const image of images) frames.push(await find(image));
    const used = process.cpuUsage(started);
    parentPort.postMessage({ id, frames, cpuMs: (used.user + used.system) / 1000 });
  } catch (error) {
    parentPort.postMessage({ id, error: error?.message ?? String(error) });
  }
});
