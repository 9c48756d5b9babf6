/**
 * Owns the microphone of a widget (see DeviceController) and the AudioContext that records it:
 * the recorder worklet turns the microphone into 16 kHz frames off the main thread. Releasing it
 * stops every track, unhooks the audio graph and closes the AudioContext: Chromium keeps a worklet
 * node alive through its port's handler, and that handler holds the element.
 */
import { DeviceController } from '../../biometric/later/device-controller.js';
import type { VoiceFrame } from './voice-frames.js';

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
    recorder.port.onmessage = ({ data }: MessageEvent<VoiceFrame>) => onFrame(data);
    (this.#source = context.createMediaStreamSource(stream)).connect(recorder);
    await resumed;
    return context.sampleRate;
  }

  override stop(): void {
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
