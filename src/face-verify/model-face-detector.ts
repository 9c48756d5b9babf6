/**
 * A model-based face detector for browsers without the Shape Detection API (most desktops): the
 * Tiny Face Detector of `@vladmandic/face-api` (MIT), whose package brings its weights with it.
 *
 * Nothing is fetched until the first frame is measured: the library (TensorFlow.js inside, about
 * 1.3 MB) is a dynamic import, so it stays out of the widget's bundle, and the weights (190 KB)
 * come from `modelUrl`, a folder the host serves itself: never a CDN.
 *
 * ```js
 * import { modelFaceDetector } from 'verify-widgets/face-detector';
 * document.querySelector('face-verify').detector = modelFaceDetector({ modelUrl: '/models/' });
 * ```
 * where `/models/` serves `node_modules/@vladmandic/face-api/model/tiny_face_detector_model*`.
 */
import type { FaceDetectorLike } from './later/face-detector.js';

export interface ModelFaceDetectorOptions {
  /** The folder holding `tiny_face_detector_model-weights_manifest.json` and its `.bin`. */
  modelUrl: string | URL;
  /** The side the frame is scaled to for the network: a multiple of 32; larger finds smaller faces, slower. */
  inputSize?: number;
  /** The least confidence counted as a face. */
  scoreThreshold?: number;
}

type FaceApi = typeof import('@vladmandic/face-api');

export function modelFaceDetector({ modelUrl, inputSize = 224, scoreThreshold = 0.5 }: ModelFaceDetectorOptions): FaceDetectorLike {
  let ready: Promise<FaceApi> | undefined;
  const load = async (): Promise<FaceApi> => {
    const faceapi = await import('@vladmandic/face-api');
    await faceapi.nets.tinyFaceDetector.loadFromUri(new URL(String(modelUrl), document.baseURI).href.replace(/\/?$/, ''));
    return faceapi;
  };
  return {
    async detect(image) {
      // A failed load is retried on the next frame rather than remembered for good.
      const faceapi = await (ready ??= load().catch((error: unknown) => {
        ready = undefined;
        throw error;
      }));
      const found = await faceapi.detectAllFaces(image, new faceapi.TinyFaceDetectorOptions({ inputSize, scoreThreshold }));
      return found.map(({ box }) => ({ x: box.x, y: box.y, width: box.width, height: box.height }));
    },
  };
}
