/**
 * Frames of the fixtures' clips of real people. A GIF is decoded here (omggif); an H.264 MP4 by
 * Chromium, each frame read back from a canvas at its own size: Node has no video decoder of its
 * own, and Chromium is on every machine that runs the browser tests.
 */
import { readFileSync } from 'node:fs';
import { GifReader } from 'omggif';
import puppeteer from 'puppeteer-core';
import type { Rgba } from './head.js';

/** Every frame of a GIF, each drawn over the last as the GIF plays. */
export function gifFrames(path: string): Rgba[] {
  const gif = new GifReader(readFileSync(path));
  const pixels = new Uint8ClampedArray(gif.width * gif.height * 4);
  return Array.from({ length: gif.numFrames() }, (_, i) => {
    gif.decodeAndBlitFrameRGBA(i, pixels);
    return { data: pixels.slice(), width: gif.width, height: gif.height };
  });
}

/** The frames of `path` every `step` seconds, from `from` to `to` (the end by default). */
export async function videoFrames(path: string, { step = 0.2, from = 0, to = Infinity } = {}): Promise<Rgba[]> {
  const browser = await puppeteer.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    // The page is the file's own folder, so that its canvas may read the video back.
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--no-first-run', '--allow-file-access-from-files', '--autoplay-policy=no-user-gesture-required'],
  });
  try {
    const page = await browser.newPage();
    await page.goto(`file://${path}`);
    // A string, not a function: the test loader's helpers do not exist in the page.
    const frames = (await page.evaluate(`(async () => {
      const video = document.createElement('video');
      video.muted = true;
      video.src = ${JSON.stringify(`file://${path}`)};
      await new Promise((resolve, reject) => Object.assign(video, { onloadeddata: resolve, onerror: () => reject(new Error('cannot play ' + video.src)) }));
      const canvas = Object.assign(document.createElement('canvas'), { width: video.videoWidth, height: video.videoHeight });
      const context = canvas.getContext('2d', { willReadFrequently: true });
      const out = [];
      for (let t = ${from}; t <= Math.min(${to === Infinity ? 'Infinity' : to}, video.duration - 0.05); t += ${step}) {
        video.currentTime = t;
        await new Promise((resolve) => (video.onseeked = resolve));
        context.drawImage(video, 0, 0);
        const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
        let text = '';
        for (let i = 0; i < data.length; i += 0x8000) text += String.fromCharCode(...data.subarray(i, i + 0x8000));
        out.push(btoa(text));
      }
      return { width: canvas.width, height: canvas.height, out };
    })()`)) as { width: number; height: number; out: string[] };
    return frames.out.map((base64) => ({ data: new Uint8ClampedArray(Buffer.from(base64, 'base64')), width: frames.width, height: frames.height }));
  } finally {
    await browser.close();
  }
}
