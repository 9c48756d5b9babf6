/**
 * A camera the test draws: the page's getUserMedia answers a canvas's stream, and the test paints
 * into the canvas what is in front of the camera. `follow` plays a person (or an attacker) answering
 * a live challenge: it watches the widget's instruction and shows the head in the pose asked for.
 */
import type { Page } from 'puppeteer-core';
import type { LivenessMove } from '../../../src/core/protocol.js';
import type { Rgba } from '../liveness/head.js';
import { awaitOutcome, press, untilStep, type Demo } from './demo-browser.js';

/** Installs the canvas camera for the next page loads (a reload puts it in place). */
export interface CanvasCamera {
  show(image: Rgba): Promise<void>;
  /**
   * What the camera sees while the page shows each colour (keyed as the CSSOM gives it back,
   * `rgb(0, 0, 255)`), switched by the page itself as the colour is set: light reaches a face at once.
   */
  underLight(images: Record<string, Rgba>): Promise<void>;
}

export async function canvasCamera(page: Page): Promise<CanvasCamera> {
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
    // What the camera sees under each colour the page shows (the light challenge's box), when set.
    let underLight: Record<string, ImageData> = {};
    (window as any).__underLight = (base64s: Record<string, string>) => {
      underLight = Object.fromEntries(Object.entries(base64s).map(([colour, base64]) => [colour, new ImageData(Uint8ClampedArray.from(atob(base64), (c) => c.charCodeAt(0)), 640, 480)]));
    };
    // A canvas's stream sends a frame when the canvas is drawn: drawn 15 times a second, as a camera sends.
    // (No named functions in here: the test's compiler would wrap them in a helper the page lacks.)
    setInterval(() => {
      const colour = (document.querySelector('face-verify')?.shadowRoot?.querySelector('.lighting') as HTMLElement | null)?.style.backgroundColor;
      context.putImageData(underLight[colour ?? ''] ?? picture, 0, 0);
    }, 66);
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
    underLight: async (images) => {
      const base64s = Object.fromEntries(Object.entries(images).map(([colour, image]) => [colour, Buffer.from(image.data).toString('base64')]));
      await page.evaluate((all) => (window as any).__underLight(all), base64s);
    },
  };
}

/** A person's poses before the camera: the front and each movement, and close to the screen for the light. */
export type Poses = Record<'front' | LivenessMove, Rgba> & { close?: Rgba };

/** The light challenge's warning is on screen, its start not yet pressed. */
function lightWarned(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const root = document.querySelector('face-verify')?.shadowRoot;
    return root?.querySelector('.guide ellipse')?.getAttribute('rx') === '30' && !root.querySelector('.lighting') && !!root.querySelector('[part~="submit"]');
  });
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
export async function follow(page: Page, camera: Pick<CanvasCamera, 'show'>, poses: Poses, done: Promise<unknown>): Promise<LivenessMove[]> {
  let finished = false;
  void done.finally(() => (finished = true));
  let shown: keyof Poses | null = null;
  const asked: LivenessMove[] = [];
  while (!finished) {
    const warned = poses.close && (await lightWarned(page).catch(() => false));
    if (warned) {
      // Told about the light: comes close to the screen, then starts the colours.
      await camera.show(poses.close!);
      shown = 'close';
      await page.evaluate(() => (document.querySelector('face-verify')!.shadowRoot!.querySelector('[part~="submit"]') as HTMLElement).click());
      continue;
    }
    if (shown === 'close') {
      await new Promise((resolve) => setTimeout(resolve, 50));
      continue;
    }
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

/**
 * In the demo: frames the face, presses the shutter (unless the widget, seeing the face held well,
 * started the challenge itself), and follows the movements, and the light when asked, until the
 * widget's outcome.
 */
export async function answerChallenge(demo: Demo, camera: Pick<CanvasCamera, 'show'>, poses: Poses): Promise<{ outcome: string; asked: LivenessMove[] }> {
  const widget = 'face-verify';
  await camera.show(poses.front);
  await press(demo.page, widget, 'submit');
  await untilStep(demo.page, widget, 'preview');
  await demo.page.waitForFunction((w) => document.querySelector<any>(w).shadowRoot.querySelector('video')?.videoWidth > 0, {}, widget);
  const outcome = awaitOutcome(demo.page, widget);
  await demo.page.evaluate((w) => {
    const element = document.querySelector<any>(w);
    if (element.step === 'preview') element.shadowRoot.querySelector('[part~="shutter"]').click();
  }, widget);
  const asked = await follow(demo.page, camera, poses, outcome);
  return { outcome: await outcome, asked };
}
