/**
 * The quality gate's sampling: about four times a second, off the paint path, a small copy of the
 * preview's current frame is measured (light, sharpness) and given to the face detector, and the
 * element hears what is wrong with it. Sampling stops when the element says so (a photo was taken),
 * when the step is over, and when the element leaves the page.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { FaceDetectorLike } from './face-detector.js';
import { lumaGridSize, measureFrame, qualityProblems, type QualityProblem } from './frame-quality.js';

const INTERVAL_MS = 250;

export interface FrameSamplerOptions {
  /** The preview, while there is one to sample. */
  video(): HTMLVideoElement | null;
  detector(): FaceDetectorLike | null;
  /** Whether the preview step still shows. */
  active(): boolean;
  /** What this frame lacks (nothing: good); answers false to stop sampling. */
  measured(problems: QualityProblem[]): boolean;
}

export class FrameSampler implements ReactiveController {
  #timer?: ReturnType<typeof setTimeout>;

  constructor(
    host: ReactiveControllerHost,
    private readonly options: FrameSamplerOptions,
  ) {
    host.addController(this);
  }

  /** Samples the next frame in a moment, and goes on until stopped. */
  start(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#sample(), INTERVAL_MS);
  }

  hostDisconnected(): void {
    clearTimeout(this.#timer);
  }

  async #sample(): Promise<void> {
    if (!this.options.active()) return;
    const video = this.options.video();
    if (video && video.videoWidth) {
      const { width, height } = lumaGridSize(video.videoWidth, video.videoHeight);
      const canvas = document.createElement('canvas');
      Object.assign(canvas, { width, height });
      const context = canvas.getContext('2d', { willReadFrequently: true })!;
      context.drawImage(video, 0, 0, width, height);
      const measures = measureFrame(context.getImageData(0, 0, width, height));
      const detector = this.options.detector();
      const faces = detector ? await detector.detect(canvas).catch(() => undefined) : undefined;
      if (!this.options.measured(qualityProblems(measures, { width, height }, faces))) return;
    }
    this.start();
  }
}
