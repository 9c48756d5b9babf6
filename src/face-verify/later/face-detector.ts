/**
 * What the quality gate asks of a face detector. The browser's own (the Shape Detection API's
 * FaceDetector) is used where it exists; a page can plug in a model-based one through the
 * element's `detector` property: anything whose `detect` resolves boxes in the frame's pixels.
 */
import type { FaceBox } from './frame-quality.js';

export interface FaceDetectorLike {
  detect(image: HTMLCanvasElement): Promise<FaceBox[]>;
}

interface ShapeDetectionFaceDetector {
  detect(image: ImageBitmapSource): Promise<{ boundingBox: DOMRectReadOnly }[]>;
}

/** The Shape Detection API's detector, or null where the browser has none (most desktops). */
export function browserFaceDetector(): FaceDetectorLike | null {
  const FaceDetector = (globalThis as { FaceDetector?: new (options: object) => ShapeDetectionFaceDetector }).FaceDetector;
  if (!FaceDetector) return null;
  const detector = new FaceDetector({ fastMode: true, maxDetectedFaces: 3 });
  return {
    detect: async (image) => (await detector.detect(image)).map(({ boundingBox: b }) => ({ x: b.x, y: b.y, width: b.width, height: b.height })),
  };
}
