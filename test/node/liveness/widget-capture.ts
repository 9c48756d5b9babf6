/**
 * Frames as <face-verify> sends them: each picture shown to a 640 x 480 camera (a canvas's stream
 * in a <video>, in Chromium), the face at the share of the frame asked, the picture filling the
 * camera's view as a camera's does, then taken by the widget's own shutter (snapshot.ts: its
 * resize and the browser's JPEG encoder). A black border round the picture would be a screen's
 * edge to the passive model, which no camera shows.
 */
import { build } from 'esbuild';
import puppeteer from 'puppeteer-core';
import type { Point } from '../../../src/server/liveness/geometry.js';
import type { Rgba } from './head.js';

export interface Framing {
  /** Where the face's centre is in the pictures, in their pixels: it goes to the camera's centre. */
  centre: { x: number; y: number };
  /** How many camera pixels a picture's pixel covers: at least enough to fill the view. */
  scale: number;
}

/**
 * The framings that put a clip's face at each of `shares` of the widget's 480 px: its box as a
 * detector draws it (a third taller than the landmarks, on average over the clip) scaled to that
 * share, centred on its mean nose tip.
 */
export function framingsOf(faces: { landmarks: Point[] }[], shares: number[]): Framing[] {
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  const height = (marks: Point[]) => Math.max(...marks.map((p) => p.y)) - Math.min(...marks.map((p) => p.y));
  const box = 1.33 * mean(faces.map((face) => height(face.landmarks)));
  const centre = { x: mean(faces.map((face) => face.landmarks[30]!.x)), y: mean(faces.map((face) => face.landmarks[30]!.y)) };
  return shares.map((share) => ({ centre, scale: (share * 480) / box }));
}

export async function throughWidget(pictures: Rgba[], framings: Framing[]): Promise<Uint8Array[][]> {
  const shutter = await build({ entryPoints: [new URL('../../../src/face-verify/later/snapshot.ts', import.meta.url).pathname], bundle: true, format: 'iife', globalName: 'shutter', write: false, target: 'es2022' });
  const browser = await puppeteer.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--no-first-run'], protocolTimeout: 30_000 });
  try {
    const page = await browser.newPage();
    await page.evaluate(shutter.outputFiles[0]!.text);
    // A string, not a function: the test loader's helpers do not exist in the page.
    await page.evaluate(`(() => {
      const canvas = Object.assign(document.createElement('canvas'), { width: 640, height: 480 });
      const context = canvas.getContext('2d');
      const video = Object.assign(document.createElement('video'), { muted: true, playsInline: true, srcObject: canvas.captureStream(15) });
      document.body.append(video);
      void video.play();
      // The picture painted 30 times a second, as a camera sends frames whether or not they change.
      let paint = () => {};
      setInterval(() => paint(), 33);
      window.__take = async (base64, width, height, scale, cx, cy) => {
        const picture = await createImageBitmap(new ImageData(Uint8ClampedArray.from(atob(base64), (c) => c.charCodeAt(0)), width, height));
        const x = Math.min(0, Math.max(640 - width * scale, 320 - cx * scale));
        const y = Math.min(0, Math.max(480 - height * scale, 240 - cy * scale));
        paint = () => context.drawImage(picture, x, y, width * scale, height * scale);
        paint();
        // Two of the video's frames after it, so that the one taken shows this picture, not the last.
        for (let i = 0; i < 2; i++) await new Promise((resolve) => video.requestVideoFrameCallback(resolve));
        return (await shutter.snapshot(video, { maxSide: 640, maxBase64: 300 * 1024 })).base64;
      };
    })()`);
    const taken: Uint8Array[][] = [];
    for (const { centre, scale } of framings) {
      const fill = Math.max(scale, 640 / pictures[0]!.width, 480 / pictures[0]!.height);
      const frames: Uint8Array[] = [];
      for (const { data, width, height } of pictures) {
        const base64 = (await page.evaluate(`__take(${JSON.stringify(Buffer.from(data).toString('base64'))}, ${width}, ${height}, ${fill}, ${centre.x}, ${centre.y})`)) as string;
        frames.push(Buffer.from(base64, 'base64'));
      }
      taken.push(frames);
    }
    return taken;
  } finally {
    await browser.close();
  }
}
