/**
 * Frames under the light challenge's colours, for the light's tests: a rendered head (head.ts) lit
 * by a screen a forearm away, as its camera takes it (an exposure and a white balance that adjust
 * to the picture), and what an attacker could send instead: the same head unlit (a recording), its
 * frames under other colours, the recording behind a screen's glass that reflects the colours over
 * everything, one tint painted evenly over the face's outline, a flat print lit by the screen.
 */
import { inside, type Point } from '../../../src/server/liveness/geometry.js';
import { PALETTE, type LightColour } from '../../../src/server/liveness/light.js';
import { render, toJpeg, toLinear, toSrgb, type Pose, type Rgba, type Shape } from './head.js';

/**
 * The camera's own adjustments to what it sees: its exposure brings the frame's mean brightness back
 * to `brightness`, and its white balance takes out `balance` of the frame's mean tint (a grey-world
 * balance, half-way: a webcam's settles over a second or two).
 */
export function camera(image: Rgba, brightness: number, balance = 0.5): Rgba {
  const mean = [0, 0, 0];
  const pixels = image.width * image.height;
  for (let i = 0; i < image.data.length; i += 4) for (let c = 0; c < 3; c++) mean[c]! += toLinear(image.data[i + c]!) / pixels;
  const grey = (mean[0]! + mean[1]! + mean[2]!) / 3;
  const luma = 0.2126 * mean[0]! + 0.7152 * mean[1]! + 0.0722 * mean[2]!;
  const gains = mean.map((m) => (grey / m) ** balance * (brightness / luma));
  const out = new Uint8ClampedArray(image.data.length);
  for (let i = 0; i < image.data.length; i += 4) {
    for (let c = 0; c < 3; c++) out[i + c] = toSrgb(toLinear(image.data[i + c]!) * gains[c]!);
    out[i + 3] = 255;
  }
  return { data: out, width: image.width, height: image.height };
}

/** The frame's mean brightness (linear luma): what a camera's exposure holds. */
export function brightnessOf(image: Rgba): number {
  let sum = 0;
  for (let i = 0; i < image.data.length; i += 4) sum += 0.2126 * toLinear(image.data[i]!) + 0.7152 * toLinear(image.data[i + 1]!) + 0.0722 * toLinear(image.data[i + 2]!);
  return sum / (image.width * image.height);
}

/** Adds `strength` of each colour's linear light to every pixel: a screen's glass reflecting it over the picture behind. */
export function glass(image: Rgba, colour: LightColour, strength: number): Rgba {
  const rgb = PALETTE[colour];
  const out = new Uint8ClampedArray(image.data);
  for (let i = 0; i < out.length; i += 4) for (let c = 0; c < 3; c++) out[i + c] = toSrgb(toLinear(image.data[i + c]!) + strength * rgb[c]!);
  return { data: out, width: image.width, height: image.height };
}

/** Multiplies the light inside the face's outline (the jaw and the brows) evenly by the colour: one tint painted over it. */
export function paint(image: Rgba, outline: Point[], colour: LightColour, strength: number): Rgba {
  const rgb = PALETTE[colour];
  const out = new Uint8ClampedArray(image.data);
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      if (!inside(outline, { x, y })) continue;
      const i = (y * image.width + x) * 4;
      for (let c = 0; c < 3; c++) out[i + c] = toSrgb(toLinear(image.data[i + c]!) * (1 + strength * rgb[c]!));
    }
  }
  return { data: out, width: image.width, height: image.height };
}

/**
 * A head (or a print) held still in front of the screen: each frame a little off the last, as a
 * person holds; `drift` pixels further sideways each frame, for a person who does not.
 */
export function litFrames(source: Rgba, landmarks: Point[], colours: readonly (LightColour | null)[], strength: number, random: () => number, shape: Shape = 'head', drift = 0): Rgba[] {
  const size = { width: 320, height: 240 };
  const jitter = (i: number): Pose => ({ yaw: (random() - 0.5) * 4, pitch: (random() - 0.5) * 4, shiftX: (random() - 0.5) * 3 + i * drift, shiftY: (random() - 0.5) * 3, distance: 0.7 });
  const brightness = brightnessOf(render(source, landmarks, shape, { distance: 0.7 }, size));
  return colours.map((colour, i) => camera(render(source, landmarks, shape, jitter(i), size, colour ? { rgb: PALETTE[colour], strength } : undefined), brightness));
}

export const jpegOf = (image: Rgba) => toJpeg(image, 85);

/** A seeded generator: the same renders and sequences on every run. */
export function seeded(seed: number): () => number {
  return () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
}
