/**
 * The camera step's code: the camera, the quality gate's sampling, the shutter and the live
 * challenge. <face-verify> fetches it when the person starts or picks a file, so that a page that
 * shows only the priming step does not carry it.
 */
import type { ReactiveControllerHost } from 'lit';
import type { CameraFailure, LivenessMove } from '../core/protocol.js';
import { failureOf } from '../internal/device-controller.js';
import { CameraController } from './camera-controller.js';
import { browserFaceDetector, type FaceDetectorLike } from './face-detector.js';
import { FrameSampler, type FrameSamplerOptions } from './frame-sampler.js';
import { runChallenge } from './live-challenge.js';
import { snapshot } from './snapshot.js';

/**
 * Each movement's arrow, drawn on the mirrored preview: the person's own left is on the screen's
 * left there, whatever the page's direction, so the arrows are physical, never flipped for
 * right-to-left text (the words say "your left").
 */
const ARROWS: Record<LivenessMove, string> = {
  left: 'M66 50H34M46 38L34 50L46 62',
  right: 'M34 50H66M54 38L66 50L54 62',
  up: 'M50 64V30M38 42L50 30L62 42',
  down: 'M50 30V64M38 52L50 64L62 52',
  closer: 'M38 38L26 26M26 36V26H36M62 38L74 26M64 26H74V36M38 62L26 74M26 64V74H36M62 62L74 74M74 64V74H64',
};

/** `sampling.detector` answers undefined for the browser's own detector, where there is one. */
export function captureTools(host: ReactiveControllerHost & HTMLElement, released: () => void, sampling: Omit<FrameSamplerOptions, 'detector'> & { detector(): FaceDetectorLike | null | undefined }) {
  const browserDetector = browserFaceDetector();
  const detector = () => {
    const chosen = sampling.detector();
    return chosen === undefined ? browserDetector : chosen;
  };
  return {
    camera: new CameraController(host, released),
    sampler: new FrameSampler(host, { ...sampling, detector }),
    /** The shutter, for review: the canvas shown as a picture the review's heading already names. */
    async shoot(source: HTMLVideoElement | ImageBitmap, maxSide: number) {
      const shot = await snapshot(source, { maxSide });
      shot.canvas.setAttribute('part', 'photo');
      shot.canvas.setAttribute('aria-hidden', 'true');
      return shot;
    },
    runChallenge,
    arrows: ARROWS,
    /** Why the camera did not open. */
    failure: failureOf<CameraFailure>,
  };
}

export type CaptureTools = ReturnType<typeof captureTools>;
