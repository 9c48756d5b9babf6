/**
 * Plays a recording back through Web Audio (no blob: or data: URL for a page's CSP to allow), one
 * at a time, and stops it when asked, when it ends, and when the element leaves the page.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';

export class PlaybackController implements ReactiveController {
  #context: AudioContext | null = null;

  constructor(private readonly host: ReactiveControllerHost) {
    host.addController(this);
  }

  get playing(): boolean {
    return this.#context !== null;
  }

  /** Plays `samples` (mono, at `sampleRate`), or stops what is playing. */
  toggle(samples: Float32Array<ArrayBuffer> | null, sampleRate: number): void {
    if (this.playing) return this.stop();
    if (!samples?.length) return;
    const context = (this.#context = new AudioContext());
    const buffer = context.createBuffer(1, samples.length, sampleRate);
    buffer.copyToChannel(samples, 0);
    const source = context.createBufferSource();
    source.buffer = buffer;
    source.connect(context.destination);
    source.onended = () => this.stop();
    source.start();
    this.host.requestUpdate();
  }

  stop(): void {
    if (!this.#context) return;
    void this.#context.close().catch(() => {});
    this.#context = null;
    this.host.requestUpdate();
  }

  hostDisconnected(): void {
    this.stop();
  }
}
