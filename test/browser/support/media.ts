/** What a person's camera and microphone give, read the way the tests need it. */

declare global {
  interface Window {
    /** The fixture files feeding Chromium's fake devices in this group, or null. */
    FEED: { video: string; audio: string } | null;
  }
}

export interface Frame {
  width: number;
  height: number;
  /** Luma of a small grid over the frame, row by row. */
  luma: Float64Array;
  mean: { r: number; g: number; b: number };
}

const GRID_W = 64;
const GRID_H = 48;

function sample(source: CanvasImageSource, width: number, height: number): Frame {
  const canvas = document.createElement('canvas');
  canvas.width = GRID_W;
  canvas.height = GRID_H;
  const context = canvas.getContext('2d', { willReadFrequently: true })!;
  context.drawImage(source, 0, 0, GRID_W, GRID_H);
  const { data } = context.getImageData(0, 0, GRID_W, GRID_H);
  const luma = new Float64Array(GRID_W * GRID_H);
  const mean = { r: 0, g: 0, b: 0 };
  for (let i = 0; i < luma.length; i++) {
    const [r, g, b] = [data[i * 4]!, data[i * 4 + 1]!, data[i * 4 + 2]!];
    luma[i] = 0.299 * r + 0.587 * g + 0.114 * b;
    mean.r += r / luma.length;
    mean.g += g / luma.length;
    mean.b += b / luma.length;
  }
  return { width, height, luma, mean };
}

/** A playing <video> of the camera, once `frames` real frames have arrived. */
export async function liveVideo(constraints: MediaTrackConstraints = { width: 640, height: 480 }, frames = 1) {
  const stream = await navigator.mediaDevices.getUserMedia({ video: constraints });
  const video = document.createElement('video');
  video.muted = true;
  video.playsInline = true;
  video.srcObject = stream;
  await video.play();
  for (let i = 0; i < frames; i++) await new Promise((done) => video.requestVideoFrameCallback(() => done(undefined)));
  return { video, stream };
}

/** Opens the camera, waits for a few real frames, and samples the last one. */
export async function captureCameraFrame(): Promise<{ frame: Frame; stream: MediaStream }> {
  const { video, stream } = await liveVideo({ width: 640, height: 480 }, 3);
  const frame = sample(video, video.videoWidth, video.videoHeight);
  video.srcObject = null;
  return { frame, stream };
}

/** The first JPEG of an MJPEG fixture, decoded by the browser. */
export async function firstMjpegFrame(path: string): Promise<Frame> {
  const bytes = new Uint8Array(await (await fetch(`/fixtures/${path}`)).arrayBuffer());
  let end = 0;
  while (!(bytes[end] === 0xff && bytes[end + 1] === 0xd9)) end++;
  const bitmap = await createImageBitmap(new Blob([bytes.subarray(0, end + 2)], { type: 'image/jpeg' }));
  return sample(bitmap, bitmap.width, bitmap.height);
}

/** Pearson correlation of two equally long series. */
export function correlation(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = Math.min(a.length, b.length);
  let [ma, mb] = [0, 0];
  for (let i = 0; i < n; i++) [ma, mb] = [ma + a[i]! / n, mb + b[i]! / n];
  let [num, da, db] = [0, 0, 0];
  for (let i = 0; i < n; i++) {
    num += (a[i]! - ma) * (b[i]! - mb);
    da += (a[i]! - ma) ** 2;
    db += (b[i]! - mb) ** 2;
  }
  return da && db ? num / Math.sqrt(da * db) : 0;
}

/** Records `seconds` of the microphone through an AudioWorklet, off the main thread. */
export async function recordMicrophone(seconds: number): Promise<{ samples: Float32Array; sampleRate: number; stream: MediaStream }> {
  const stream = await navigator.mediaDevices.getUserMedia({
    audio: { echoCancellation: false, noiseSuppression: false, autoGainControl: false, channelCount: 1 },
  });
  const context = new AudioContext();
  await context.resume();
  await context.audioWorklet.addModule(new URL('./recorder.worklet.js', import.meta.url));
  const source = context.createMediaStreamSource(stream);
  const recorder = new AudioWorkletNode(context, 'test-recorder');
  const wanted = Math.round(seconds * context.sampleRate);
  const samples = new Float32Array(wanted);
  let filled = 0;
  await new Promise<void>((done) => {
    recorder.port.onmessage = ({ data }: MessageEvent<Float32Array>) => {
      const take = Math.min(data.length, wanted - filled);
      samples.set(data.subarray(0, take), filled);
      filled += take;
      if (filled >= wanted) done();
    };
    source.connect(recorder);
  });
  source.disconnect();
  const { sampleRate } = context;
  await context.close();
  return { samples, sampleRate, stream };
}

/** Loudness envelope: RMS over consecutive windows of `ms` milliseconds. */
export function envelope(samples: Float32Array, sampleRate: number, ms = 10): Float64Array {
  const size = Math.round((sampleRate * ms) / 1000);
  const out = new Float64Array(Math.floor(samples.length / size));
  for (let w = 0; w < out.length; w++) {
    let sum = 0;
    for (let i = w * size; i < (w + 1) * size; i++) sum += samples[i]! ** 2;
    out[w] = Math.sqrt(sum / size);
  }
  return out;
}

/**
 * The best correlation of a short captured envelope against a looping reference envelope, over
 * every offset: the fake microphone loops the file and starts wherever it happens to be.
 */
export function bestLoopCorrelation(captured: Float64Array, reference: Float64Array): number {
  let best = -1;
  const window = new Float64Array(captured.length);
  for (let offset = 0; offset < reference.length; offset++) {
    for (let i = 0; i < captured.length; i++) window[i] = reference[(offset + i) % reference.length]!;
    best = Math.max(best, correlation(captured, window));
  }
  return best;
}

export function rms(samples: Float32Array): number {
  let sum = 0;
  for (const s of samples) sum += s * s;
  return Math.sqrt(sum / samples.length);
}

/** Zero crossings per second: about twice the frequency of a pure tone. */
export function zeroCrossingRate(samples: Float32Array, sampleRate: number): number {
  let crossings = 0;
  for (let i = 1; i < samples.length; i++) if (samples[i - 1]! < 0 !== samples[i]! < 0) crossings++;
  return (crossings * sampleRate) / samples.length;
}

export function stopAll(stream: MediaStream): void {
  for (const track of stream.getTracks()) track.stop();
}

const kept = new Set<MediaDevices>();

/**
 * For tests that stub `navigator.mediaDevices.getUserMedia`: puts the real one back after each test
 * of the enclosing suite, and returns it.
 */
export function restoreGetUserMedia(): MediaDevices['getUserMedia'] {
  // Held for the page's life: WebKit may collect the wrapper of navigator.mediaDevices while the
  // widget fetches its recording code, and hand out a fresh one without the stub on it.
  kept.add(navigator.mediaDevices);
  const real = navigator.mediaDevices.getUserMedia;
  afterEach(() => {
    navigator.mediaDevices.getUserMedia = real;
  });
  return real;
}
