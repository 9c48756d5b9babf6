/**
 * While the light's colours show, the face is watched in the larger oval, where a detector is at
 * hand (the browser's, or the page's `detector`): the oval and its words say when the face has left
 * it or gone back from the screen, and again when it has returned, in time for the next colour. It
 * only tells the person: the host judges the frames. Without a detector the oval says nothing.
 */
import type { FaceDetectorLike } from './face-detector.js';
import { centred, lumaGridSize, type FaceBox } from './frame-quality.js';
import { pause } from './live-challenge.js';

/** A look about five times a second: a colour holds 400 ms at least. */
const INTERVAL_MS = 200;

/**
 * The face in the larger oval (templates' OVALS.close, 60 % wide and 88 % high): one face, its
 * middle within a wider ellipse than the framed oval's gate (frame-quality.ts), and at least 0.4 of
 * the frame's height (a face that filled the framed oval, 0.25 at least, and then came closer).
 */
export const CLOSE_OVAL = { offCentre: { x: 0.25, y: 0.3 }, minFaceHeight: 0.4 };

export function inCloseOval(faces: FaceBox[], frame: { width: number; height: number }): boolean {
  return faces.length === 1 && centred(faces[0]!, frame, CLOSE_OVAL.offCentre) && faces[0]!.height / frame.height >= CLOSE_OVAL.minFaceHeight;
}

/**
 * Looks for the face in `video` while `going`, and reports whether it is away from the oval: after
 * two looks in a row without it (one look missed under a strong colour is not the face gone), and
 * back after one look with it.
 */
export async function watchCloseFace(video: HTMLVideoElement, detector: FaceDetectorLike, going: () => boolean, report: (away: boolean) => void): Promise<void> {
  const canvas = document.createElement('canvas');
  let missed = 0;
  while (going()) {
    if (video.videoWidth) {
      Object.assign(canvas, lumaGridSize(video.videoWidth, video.videoHeight));
      canvas.getContext('2d')!.drawImage(video, 0, 0, canvas.width, canvas.height);
      // A detector that fails says nothing: the oval keeps its last word.
      const faces = await detector.detect(canvas).catch(() => undefined);
      if (faces && going()) {
        missed = inCloseOval(faces, canvas) ? 0 : missed + 1;
        if (missed !== 1) report(missed > 1);
      }
    }
    await pause(INTERVAL_MS);
  }
}
