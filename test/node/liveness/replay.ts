/**
 * What a camera sees when a picture of a person is shown to it instead of the person: a frame of a
 * genuine clip played on a monitor (or a phone) held in front of the camera, or a photo printed on
 * paper. The geometry of holding and moving them is head.ts's; these are the pixels, the part a
 * passive model judges.
 *
 * A screen: the picture drawn by the screen's own pixel grid (red, green and blue stripes with dark
 * gaps between them) at a pitch finer than the camera's pixels, seen through the camera's sampling
 * at a small angle, so that the two grids beat into moiré; the screen's tone curve and cold white;
 * a glare where a lamp reflects off its glass; the bezel around it; the sensor's noise. A print:
 * ink's narrower range and duller colours, a halftone screen of dots, paper's grain, light falling
 * off across the sheet.
 */
import type { Rgba } from './head.js';

export interface ScreenOptions {
  /** Screen pixels per camera pixel, across: 1 for a monitor filling the view, 2 to 3 for a phone's dense screen. */
  density?: number;
  /** The screen's angle to the camera's rows, in degrees. */
  angle?: number;
  /** The glare's centre, as shares of the frame, and its strength in grey levels. */
  glare?: { x: number; y: number; strength: number };
  /** The screen's share of the frame, the rest is its bezel and the room. */
  fill?: number;
  /** A seed for the sensor's noise. */
  seed?: number;
}

/** A small, seeded random source: the same attack gives the same frame on every run. */
function random(seed: number) {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

const sample = (image: Rgba, x: number, y: number, channel: number) => {
  const [u, v] = [Math.min(image.width - 1, Math.max(0, Math.floor(x))), Math.min(image.height - 1, Math.max(0, Math.floor(y)))];
  return image.data[(v * image.width + u) * 4 + channel]!;
};

/** `picture` played on a screen that fills `fill` of a camera frame the size of `size`. */
export function onScreen(picture: Rgba, { density = 1.6, angle = 3, glare = { x: 0.7, y: 0.25, strength: 70 }, fill = 0.92, seed = 1 }: ScreenOptions = {}, size = { width: 640, height: 480 }): Rgba {
  const noise = random(seed);
  const out = new Uint8ClampedArray(size.width * size.height * 4);
  // The screen's active area in the frame, keeping the picture's proportions.
  const fit = Math.min((size.width * fill) / picture.width, (size.height * fill) / picture.height);
  const [w, h] = [picture.width * fit, picture.height * fit];
  const [left, top] = [(size.width - w) / 2, (size.height - h) / 2];
  const bezel = 0.06 * size.width;
  const [cos, sin] = [Math.cos((angle * Math.PI) / 180), Math.sin((angle * Math.PI) / 180)];
  const [cx, cy] = [size.width / 2, size.height / 2];
  const SUB = 4;
  for (let y = 0; y < size.height; y++) {
    for (let x = 0; x < size.width; x++) {
      const rgb = [0, 0, 0];
      for (let j = 0; j < SUB; j++) {
        for (let i = 0; i < SUB; i++) {
          // The sample's place on the screen, turned by the screen's angle about the frame's centre.
          const [px, py] = [x + (i + 0.5) / SUB - cx, y + (j + 0.5) / SUB - cy];
          const [sx, sy] = [cx + px * cos + py * sin - left, cy - px * sin + py * cos - top];
          if (sx < 0 || sy < 0 || sx >= w || sy >= h) {
            const inBezel = sx > -bezel && sy > -bezel && sx < w + bezel && sy < h + bezel;
            for (let c = 0; c < 3; c++) rgb[c] = rgb[c]! + (inBezel ? 22 : [120, 110, 98][c]!);
            continue;
          }
          // Which stripe of which screen pixel the sample falls on: a third of a pixel each, a dark gap between.
          const [gx, gy] = [sx * density, sy * density];
          const stripe = gx - Math.floor(gx);
          const c = Math.floor(stripe * 3);
          if (gy - Math.floor(gy) >= 0.85 || stripe * 3 - c > 0.8) continue;
          const value = sample(picture, sx / fit, sy / fit, c);
          // The screen's tone (gamma 2.2 against the camera's 1/2.4) and its cold white; the camera's
          // exposure makes the lit stripes (about 70 % of the area) as bright as the picture.
          rgb[c] = rgb[c]! + ((3 / 0.7) * 255 * (value / 255) ** (2.2 / 2.4) * [0.92, 1, 1.1][c]!);
        }
      }
      const g = glare.strength * Math.exp(-((x / size.width - glare.x) ** 2 + (y / size.height - glare.y) ** 2) / 0.02);
      const at = (y * size.width + x) * 4;
      for (let c = 0; c < 3; c++) out[at + c] = rgb[c]! / (SUB * SUB) + g + (noise() - 0.5) * 6;
      out[at + 3] = 255;
    }
  }
  return blur({ data: out, width: size.width, height: size.height });
}

/** The camera's lens: a 3 x 3 binomial blur, which softens the moiré without removing it. */
function blur(image: Rgba): Rgba {
  const { width, height, data } = image;
  const out = new Uint8ClampedArray(data.length);
  const k = [1, 2, 1];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < 4; c++) {
        let sum = 0;
        for (let j = -1; j <= 1; j++) for (let i = -1; i <= 1; i++) sum += k[i + 1]! * k[j + 1]! * data[(Math.min(height - 1, Math.max(0, y + j)) * width + Math.min(width - 1, Math.max(0, x + i))) * 4 + c]!;
        out[(y * width + x) * 4 + c] = sum / 16;
      }
    }
  }
  return { data: out, width, height };
}

/** `photo` printed: ink's range and colours, a halftone of dots every `pitch` pixels, paper's grain and uneven light. */
export function printed(photo: Rgba, { pitch = 3, seed = 1 } = {}): Rgba {
  const noise = random(seed);
  const out = new Uint8ClampedArray(photo.data.length);
  const [cos, sin] = [Math.cos(Math.PI / 4), Math.sin(Math.PI / 4)];
  for (let y = 0; y < photo.height; y++) {
    for (let x = 0; x < photo.width; x++) {
      const at = (y * photo.width + x) * 4;
      const grey = (photo.data[at]! + photo.data[at + 1]! + photo.data[at + 2]!) / 3;
      // The halftone cell's distance from its dot's centre, on a screen turned 45°.
      const [u, v] = [(x * cos + y * sin) / pitch, (-x * sin + y * cos) / pitch];
      const d = Math.hypot(u - Math.round(u), v - Math.round(v)) / Math.SQRT1_2;
      const light = 0.85 + 0.15 * (1 - y / photo.height) + (noise() - 0.5) * 0.06;
      for (let c = 0; c < 3; c++) {
        // Duller colours, a narrower range; ink covers the cell's middle as far as the tone is dark.
        const tone = 0.75 * photo.data[at + c]! + 0.25 * grey;
        const ink = d < Math.sqrt(1 - tone / 255) ? 0.35 : 1;
        out[at + c] = (28 + (tone * 200) / 255) * (0.6 + 0.4 * ink) * light;
      }
      out[at + 3] = 255;
    }
  }
  return { data: out, width: photo.width, height: photo.height };
}
