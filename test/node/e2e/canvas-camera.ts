/**
 * A camera the test draws: the page's getUserMedia answers a canvas's stream, and the test paints
 * into the canvas what is in front of the camera. `follow` plays a person (or an attacker) answering
 * a live challenge: it watches the widget's instruction and shows the head in the pose asked for.
 */
import type { Page } from 'puppeteer-core';
import type { LivenessMove } from '../../../src/core/protocol.js';
import type { Rgba } from '../liveness/head.js';

/** Installs the canvas camera for the next page loads (a reload puts it in place). */
export async function canvasCamera(page: Page): Promise<{ show(image: Rgba): Promise<void> }> {
  await page.evaluateOnNewDocument(() => {
    // A page with no camera API at all (about:blank) is left as it is.
    if (!navigator.mediaDevices) return;
    const canvas = document.createElement('canvas');
    [canvas.width, canvas.height] = [640, 480];
    const context = canvas.getContext('2d')!;
    let picture = new ImageData(640, 480);
    (window as any).__show = (base64: string) => {
      picture = new ImageData(Uint8ClampedArray.from(atob(base64), (c) => c.charCodeAt(0)), 640, 480);
    };
    // A canvas's stream sends a frame when the canvas is drawn: drawn 15 times a second, as a camera sends.
    setInterval(() => context.putImageData(picture, 0, 0), 66);
    // A new stream for each opening, as a camera gives: the widget stops its tracks when it is done.
    // A microphone asked alone is the browser's own.
    const microphone = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
    navigator.mediaDevices.getUserMedia = async (constraints) => (constraints?.video ? canvas.captureStream(15) : microphone(constraints));
  });
  await page.reload();
  return {
    show: async (image) => {
      await page.evaluate((base64) => (window as any).__show(base64), Buffer.from(image.data).toString('base64'));
    },
  };
}

/** The movement on screen in `tag`'s live challenge: null before and at the frontal look. */
function movementShown(page: Page, tag: string): Promise<LivenessMove | null> {
  return page.evaluate((t) => {
    const arrow = document.querySelector<any>(t)?.shadowRoot?.querySelector('[part~="arrow"]');
    return arrow ? ([...arrow.classList].find((c: string) => c !== 'arrow') ?? null) : null;
  }, tag) as Promise<LivenessMove | null>;
}

/**
 * Shows `poses.front` until the widget asks for a movement, then that movement's picture, until
 * `done` resolves: a person following the arrows as soon as they appear.
 */
export async function follow(page: Page, camera: { show(image: Rgba): Promise<void> }, poses: Record<'front' | LivenessMove, Rgba>, done: Promise<unknown>): Promise<LivenessMove[]> {
  let finished = false;
  void done.finally(() => (finished = true));
  let shown: LivenessMove | 'front' | null = null;
  const asked: LivenessMove[] = [];
  while (!finished) {
    const move = (await movementShown(page, 'face-verify').catch(() => null)) ?? 'front';
    if (move !== shown) {
      await camera.show(poses[move]);
      shown = move;
      if (move !== 'front') asked.push(move);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return asked;
}
