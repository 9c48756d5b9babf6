/**
 * Cuts a microphone's samples into the voice widget's 20 ms frames: resampled to 16 kHz, each with
 * its RMS, and the peak and clipped count of the microphone samples it came from (counted before
 * filtering rounds them off). Runs in the recorder worklet; pure, so Node tests feed it files.
 */
import { Resampler } from './resampler.js';
import type { FrameStats } from './voice-quality.js';

export const OUTPUT_RATE = 16_000;
const FRAME = OUTPUT_RATE / 50;
const CLIP = 0.999;

export interface VoiceFrame extends FrameStats {
  /** 20 ms of 16 kHz mono samples (fewer in the last frame). */
  samples: Float32Array;
}

/** What the recorder worklet answers the page's stop with, after the last frame. */
export const FLUSHED = 'flushed';

export class VoiceFramer {
  #resampler: Resampler;
  #frame = new Float32Array(FRAME);
  #filled = 0;
  #peak = 0;
  #clipped = 0;
  #count = 0;

  constructor(inputRate: number) {
    this.#resampler = new Resampler(inputRate, OUTPUT_RATE);
  }

  /** Takes mono microphone samples; gives the frames they complete. */
  push(mono: Float32Array): VoiceFrame[] {
    for (const sample of mono) {
      const size = Math.abs(sample);
      if (size > this.#peak) this.#peak = size;
      if (size >= CLIP) this.#clipped++;
    }
    this.#count += mono.length;
    return this.#take(this.#resampler.push(mono));
  }

  /** The rest, as the last (possibly short) frame. */
  flush(): VoiceFrame[] {
    const frames = this.#take(this.#resampler.flush());
    if (this.#filled) frames.push(this.#emit(this.#frame.slice(0, this.#filled)));
    return frames;
  }

  #take(samples: Float32Array): VoiceFrame[] {
    const frames: VoiceFrame[] = [];
    for (const sample of samples) {
      this.#frame[this.#filled++] = sample;
      if (this.#filled === FRAME) {
        frames.push(this.#emit(this.#frame));
        this.#frame = new Float32Array(FRAME);
        this.#filled = 0;
      }
    }
    return frames;
  }

  #emit(samples: Float32Array): VoiceFrame {
    const rms = Math.sqrt(samples.reduce((sum, s) => sum + s * s, 0) / samples.length);
    const frame = { samples, rms, peak: this.#peak, clipped: this.#clipped, count: this.#count };
    this.#peak = this.#clipped = this.#count = this.#filled = 0;
    return frame;
  }
}
