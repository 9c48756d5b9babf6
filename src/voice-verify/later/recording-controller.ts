/**
 * One recording of <voice-verify>: the microphone's frames as they come (the meter's levels, the
 * time spoken, a warning while it can still be mended, and their 16-bit PCM), stopped by the person
 * or at the longest duration; then, once the worklet has handed over every frame it made before the
 * stop, the gate's verdict and the WAV.
 *
 * Does not own: the microphone (opened before, released after, by the element's flow) or the steps.
 */
import type { ReactiveControllerHost } from 'lit';
import { bytesToBase64 } from '../../core/base64.js';
import { PcmWriter } from '../../core/wav.js';
import type { MicrophoneController } from './microphone-controller.js';
import { OUTPUT_RATE, type VoiceFrame } from './voice-frames.js';
import { analyseVoice, dbfs, liveWarning, type FrameStats, type VoiceProblem } from './voice-quality.js';

/** Bars in the level meter: the last second and a half of sound, drawn. */
const METER_BARS = 30;

export interface RecordingOptions {
  workletUrl(): string;
  /** Longest recording, and least detected speech for an upload, in seconds. */
  maxDuration(): number;
  minSpeech(): number;
  /** Whether the flow still records (a released microphone ends it without a stop). */
  recording(): boolean;
  warning(problem: VoiceProblem | null): void;
  /** The recording, with the gate's problems; `audio` is the WAV in base64, empty when refused. */
  recorded(result: { audio: string; seconds: number; problems: VoiceProblem[] }): void;
  /** No AudioWorklet (an old or in-app browser), or the worklet file is not served. */
  unsupported(): void;
}

export class RecordingController {
  /** Recent frame levels in dBFS, oldest first. */
  levels: number[] = [];
  /** Seconds recorded so far. */
  elapsed = 0;
  /** The last recording, mono at OUTPUT_RATE, for playback. */
  samples: Float32Array<ArrayBuffer> | null = null;
  #frames: VoiceFrame[] = [];
  #pcm = new PcmWriter();
  #inputRate = 0;
  #stopping = false;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly microphone: MicrophoneController,
    private readonly options: RecordingOptions,
  ) {}

  /** Starts on the open microphone; call it from the person's gesture (see MicrophoneController.record). */
  async start(): Promise<void> {
    this.#frames = [];
    this.#pcm = new PcmWriter(Math.ceil(this.options.maxDuration() * OUTPUT_RATE));
    this.levels = [];
    this.elapsed = 0;
    this.#stopping = false;
    this.host.requestUpdate();
    try {
      this.#inputRate = await this.microphone.record(this.options.workletUrl(), (frame) => this.#onFrame(frame));
    } catch {
      this.options.unsupported();
    }
  }

  #onFrame(frame: VoiceFrame): void {
    // Past the longest duration nothing more is kept, the frames still coming after a stop included.
    if (this.elapsed >= this.options.maxDuration()) return;
    this.#frames.push(frame);
    this.#pcm.append(frame.samples);
    this.elapsed += frame.count / this.#inputRate;
    this.levels = [...this.levels.slice(1 - METER_BARS), dbfs(frame.rms)];
    this.host.requestUpdate();
    this.options.warning(liveWarning(this.#frames as FrameStats[]));
    if (this.elapsed >= this.options.maxDuration()) void this.stop();
  }

  /** Stop: the frames made before it, then the microphone released, the gate, and the WAV. */
  async stop(): Promise<void> {
    if (!this.options.recording() || this.#stopping) return;
    this.#stopping = true;
    performance.mark('verify-voice-stop');
    await this.microphone.finish();
    // Released while the last frames came (the page hidden): the flow has started over.
    if (!this.options.recording()) return;
    const frames = this.#frames;
    const samples = new Float32Array(this.#pcm.length);
    frames.reduce((offset, f) => (samples.set(f.samples, offset), offset + f.samples.length), 0);
    this.samples = samples;
    const { problems } = analyseVoice(frames, { minSpeechSeconds: this.options.minSpeech() });
    const audio = problems.length ? '' : bytesToBase64(this.#pcm.wav(OUTPUT_RATE));
    performance.measure('verify-voice-wav', 'verify-voice-stop');
    this.options.recorded({ audio, seconds: samples.length / OUTPUT_RATE, problems });
  }
}
