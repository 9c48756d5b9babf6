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
   * What the camera sees while the page shows a colour, worked out by the page itself as the colour
   * is set (light reaches a face at once): `base`, what it sees under no colour, plus what `white`
   * adds to it, in linear light, times each channel of the colour; then, with `brightness`, the
   * camera's exposure bringing the frame's mean back to it and its white balance taking out half of
   * the frame's tint (lit-frames.ts's `camera`). Null: the colours light nothing the camera sees.
   */
  underLight(mix: LightMix | null): Promise<void>;
}

export interface LightMix {
  base: Rgba;
  white: Rgba;
  brightness?: number;
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
    // What the camera sees under the colour the page shows, when set: mixed once per colour.
    let mix: { base: Float32Array; white: Float32Array; brightness?: number } | null = null;
    let mixed: { colour: string; image: ImageData } | null = null;
    const linear = Float32Array.from({ length: 256 }, (_, v) => (v / 255 <= 0.04045 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4));
    (window as any).__underLight = (given: { base: string; white: string; brightness?: number } | null) => {
      mix = given && { base: Float32Array.from(atob(given.base), (c) => linear[c.charCodeAt(0)]!), white: Float32Array.from(atob(given.white), (c) => linear[c.charCodeAt(0)]!), brightness: given.brightness };
      mixed = null;
    };
    (window as any).__mixed = (colour: string): ImageData | null => {
      if (!mix || !colour) return null;
      if (mixed?.colour === colour) return mixed.image;
      const rgb = (colour.match(/\d+/g) ?? []).map((v) => linear[Number(v)]!);
      const { base, white, brightness } = mix;
      const out = new Float32Array(base.length);
      const mean = [0, 0, 0];
      for (let i = 0; i < base.length; i += 4) for (let c = 0; c < 3; c++) mean[c] = mean[c]! + (out[i + c] = base[i + c]! + rgb[c]! * (white[i + c]! - base[i + c]!));
      const grey = (mean[0]! + mean[1]! + mean[2]!) / 3;
      const luma = 0.2126 * mean[0]! + 0.7152 * mean[1]! + 0.0722 * mean[2]!;
      const gains = mean.map((m) => (brightness ? (grey / m) ** 0.5 * ((brightness * base.length) / 4 / luma) : 1));
      const image = new ImageData(640, 480);
      for (let i = 0; i < base.length; i += 4) {
        for (let c = 0; c < 3; c++) {
          const l = Math.min(1, out[i + c]! * gains[c]!);
          image.data[i + c] = 255 * (l <= 0.0031308 ? 12.92 * l : 1.055 * l ** (1 / 2.4) - 0.055);
        }
        image.data[i + 3] = 255;
      }
      mixed = { colour, image };
      return image;
    };
    // A canvas's stream sends a frame when the canvas is drawn: drawn 15 times a second, as a camera sends.
    // (No named functions in here: the test's compiler would wrap them in a helper the page lacks.)
    setInterval(() => {
      const colour = (document.querySelector('face-verify')?.shadowRoot?.querySelector('.lighting') as HTMLElement | null)?.style.backgroundColor;
      context.putImageData((window as any).__mixed(colour ?? '') ?? picture, 0, 0);
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
    underLight: async (given) => {
      const base64 = (image: Rgba) => Buffer.from(image.data).toString('base64');
      await page.evaluate((all) => (window as any).__underLight(all), given && { base: base64(given.base), white: base64(given.white), brightness: given.brightness });
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
