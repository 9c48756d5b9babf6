/**
 * Face recognition for the emulator: `@vladmandic/face-api` (MIT) finds each face (SSD MobileNet),
 * places its 68 landmarks to align it, and embeds it with its ResNet-34 recognition model as 128
 * numbers; two faces of one person lie within 0.6 of each other (the model's own threshold).
 * TensorFlow.js runs on its WASM backend, whose binary ships inside its npm package, so nothing is
 * downloaded at run time. All three packages are optional: when they are absent the emulator says
 * so once and compares pictures instead (face-compare.ts).
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

type FaceApi = typeof import('@vladmandic/face-api');
type TensorFlow = typeof import('@tensorflow/tfjs');

export interface Rgba {
  data: Uint8Array | Uint8ClampedArray;
  width: number;
  height: number;
}

/** The embedding of each face found, in the order found. */
export type FaceEmbedder = (image: Rgba) => Promise<Float32Array[]>;

/** Detection works at 512 px; a larger picture costs decoding time and finds nothing more. */
const MAX_SIDE = 1024;

let loading: Promise<FaceEmbedder | null> | undefined;

/** The models, loaded once, on first use; null when the packages are not installed. */
export function faceEmbedder(): Promise<FaceEmbedder | null> {
  loading ??= loadFaceEmbedder();
  return loading;
}

/** Loads the models with `require`; resolves null, and says why once, when that fails. */
export async function loadFaceEmbedder(require: NodeJS.Require = createRequire(import.meta.url)): Promise<FaceEmbedder | null> {
  try {
    return await load(require);
  } catch (error) {
    console.warn(`Face recognition model unavailable (${error instanceof Error ? error.message.split('\n')[0] : error}); comparing pictures instead.`);
    return null;
  }
}

async function load(require: NodeJS.Require): Promise<FaceEmbedder> {
  // The package's WASM build: its `main` needs the native tfjs-node, which this package avoids.
  const faceapi = require('@vladmandic/face-api/dist/face-api.node-wasm.js') as FaceApi;
  // The same instance the build uses (it requires this package), with the types of the whole library.
  const tf = require('@tensorflow/tfjs') as TensorFlow;
  await tf.setBackend('wasm');
  await tf.ready();
  const modelDir = join(dirname(require.resolve('@vladmandic/face-api/package.json')), 'model');
  for (const [net, name] of [
    [faceapi.nets.ssdMobilenetv1, 'ssd_mobilenetv1_model'],
    [faceapi.nets.faceLandmark68Net, 'face_landmark_68_model'],
    [faceapi.nets.faceRecognitionNet, 'face_recognition_model'],
  ] as const) {
    const manifest = JSON.parse(readFileSync(join(modelDir, `${name}-weights_manifest.json`), 'utf8')) as { paths: string[]; weights: never[] }[];
    const bytes = Buffer.concat(manifest.flatMap((group) => group.paths.map((path) => readFileSync(join(modelDir, path)))));
    const weights = faceapi.tf.io.decodeWeights(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), manifest.flatMap((group) => group.weights));
    net.loadFromWeightMap(weights);
  }
  const options = new faceapi.SsdMobilenetv1Options({ minConfidence: 0.5 });
  return async (image) => {
    const input = tf.tidy(() => {
      const rgba = tf.tensor3d(Int32Array.from(image.data), [image.height, image.width, 4], 'int32');
      const rgb = tf.slice(rgba, [0, 0, 0], [-1, -1, 3]);
      const scale = MAX_SIDE / Math.max(image.width, image.height);
      if (scale >= 1) return rgb;
      const size: [number, number] = [Math.round(image.height * scale), Math.round(image.width * scale)];
      return tf.cast(tf.image.resizeBilinear(rgb, size), 'int32');
    });
    try {
      const faces = await faceapi.detectAllFaces(input as never, options).withFaceLandmarks().withFaceDescriptors();
      return faces.map((face) => face.descriptor);
    } finally {
      input.dispose();
    }
  };
}
