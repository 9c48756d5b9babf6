/**
 * Owns the microphone of a widget (see DeviceController) and the AudioContext that records it:
 * the recorder worklet turns the microphone into 16 kHz frames off the main thread. Releasing it
 * stops every track, unhooks the audio graph and closes the AudioContext: Chromium keeps a worklet
 * node alive through its port's handler, and that handler holds the element.
 */
import { DeviceController } from '../../biometric/later/device-controller.js';
import { FLUSHED, type VoiceFrame } from './voice-frames.js';

/**
 * How long a stop waits for the worklet's last frames. Its answer takes a few ms; an audio thread
 * that does not answer (a suspended context) must not hold the person up.
 */
const FLUSH_WAIT_MS = 250;

/** Browser processing of the microphone; off by default, since speaker verification wants raw audio. */
export interface AudioProcessing {
  echoCancellation: boolean;
  noiseSuppression: boolean;
  autoGainControl: boolean;
}

export class MicrophoneController extends DeviceController {
  protected readonly missing = 'no-microphone';
  context: AudioContext | null = null;
  #recorder: AudioWorkletNode | null = null;
  #source: MediaStreamAudioSourceNode | null = null;
  #flushed: (() => void) | null = null;

  /** Opens the microphone, mono; call it from a user gesture. */
  open(processing: AudioProcessing): Promise<MediaStream> {
    return this.acquire({ audio: { channelCount: 1, ...processing }, video: false });
  }

  /**
   * Starts recording the open microphone; each 20 ms frame goes to `onFrame`. Call it from a user
   * gesture: the AudioContext is created before the first await, where browsers let it start.
   */
  async record(workletUrl: string | URL, onFrame: (frame: VoiceFrame) => void): Promise<number> {
    const stream = this.stream;
    if (!stream) throw new Error('the microphone is not open');
    const context = (this.context = new AudioContext());
    const resumed = context.resume();
    await context.audioWorklet.addModule(workletUrl);
    if (this.context !== context) throw new Error('released while starting');
    const recorder = (this.#recorder = new AudioWorkletNode(context, 'verify-voice-recorder', { numberOfOutputs: 0 }));
    recorder.port.onmessage = ({ data }: MessageEvent<VoiceFrame | typeof FLUSHED>) => (data === FLUSHED ? this.#flushed?.() : onFrame(data));
    (this.#source = context.createMediaStreamSource(stream)).connect(recorder);
    await resumed;
    return context.sampleRate;
  }

  /**
   * Ends a recording: resolves once every frame the worklet made before the call has reached
   * `onFrame`, then releases the microphone. A page busy when the person pressed stop holds frames
   * not yet delivered (each 20 ms of it, one frame), and closing the port at once would drop them:
   * the last digit said, on a slow phone.
   */
  async finish(): Promise<void> {
    const recorder = this.#recorder;
    if (recorder) {
      await new Promise<void>((resolve) => {
        this.#flushed = resolve;
        setTimeout(resolve, FLUSH_WAIT_MS);
        recorder.port.postMessage('flush');
      });
      this.#flushed = null;
    }
    // Released meanwhile (the page hidden), and perhaps opened again since: not this call's to stop.
    if (this.#recorder === recorder) this.stop();
  }

  override stop(): void {
    this.#flushed?.();
    if (this.#recorder) {
      this.#recorder.port.onmessage = null;
      this.#recorder.port.close();
      this.#recorder.disconnect();
    }
    this.#source?.disconnect();
    this.#recorder = this.#source = null;
    void this.context?.close().catch(() => {});
    this.context = null;
    super.stop();
  }
}
