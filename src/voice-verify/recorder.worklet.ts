/**
 * The voice recorder's AudioWorklet: on the audio thread it mixes the microphone to mono and hands
 * the page 16 kHz frames of 20 ms with their levels (VoiceFramer), so recording costs the main
 * thread almost nothing and the samples are ready when the person presses stop.
 *
 * It ships as its own file, loaded with addModule from the same origin as the widget, so a strict
 * CSP (`script-src 'self'`) allows it: no blob: URL, no eval.
 */
import { FLUSHED, VoiceFramer, type VoiceFrame } from './later/voice-frames.js';

// The AudioWorkletGlobalScope, which TypeScript's DOM library does not describe.
declare const sampleRate: number;
declare function registerProcessor(name: string, processor: new () => AudioWorkletProcessor): void;
declare class AudioWorkletProcessor {
  readonly port: MessagePort;
}

class VoiceRecorder extends AudioWorkletProcessor {
  #framer = new VoiceFramer(sampleRate);

  constructor() {
    super();
    // The page's stop: what is left of a frame goes out, then FLUSHED. The port keeps its order, so
    // when the page reads FLUSHED it has every frame made before the press, however busy it was.
    this.port.onmessage = () => {
      this.#send(this.#framer.flush());
      this.port.postMessage(FLUSHED);
    };
  }

  // Runs until the page disconnects the node and closes its context.
  process(inputs: Float32Array[][]): boolean {
    const channels = inputs[0];
    if (!channels?.length) return true;
    const mono = channels.length === 1 ? channels[0]! : channels[0]!.map((_, i) => channels.reduce((sum, c) => sum + c[i]!, 0) / channels.length);
    this.#send(this.#framer.push(mono));
    return true;
  }

  #send(frames: VoiceFrame[]): void {
    for (const frame of frames) this.port.postMessage(frame, [frame.samples.buffer]);
  }
}

registerProcessor('verify-voice-recorder', VoiceRecorder);
