/**
 * Digits heard off the event loop: one worker thread (digit-worker.mjs), started on the first
 * recording, its recogniser loaded once per language, and a bounded queue in front of it. A
 * recording of 3 s takes it about 50 to 70 ms; a crowd past the queue is refused at once (503),
 * as the face pool's is.
 */
import { Worker } from 'node:worker_threads';
import { decodeWav, toMono } from '../../core/wav.js';
import { digitGrammar, digitsOf, UnreadableRecordingError, type DigitLanguage, type DigitListener } from '../liveness/digits.js';

type DigitAnswer = { id: number; text: string; cpuMs: number } | { id: number; error: string; unreadable: boolean };

export class DigitListenerBusyError extends Error {
  override name = 'DigitListenerBusyError';
}

export interface DigitListenerHandle extends DigitListener {
  /** CPU time the worker spent on the last recording, in ms (for the benchmark). */
  readonly lastCpuMs: number;
  close(): Promise<void>;
}

/** The recogniser's package is an optional peer of this one, not installed. */
export class DigitModelsMissingError extends TypeError {
  override name = 'DigitModelsMissingError';
  readonly install = 'npm install soundswallower';
  constructor() {
    super(
      "Hearing spoken digits (voiceLiveness, on for a handler serving voice) needs the recogniser beside the package: npm install soundswallower. " +
        "Or set voiceLiveness: false, and any recording of the person's voice passes.",
    );
  }
}

/** Refuses at once, not at a person's first recording, where the recogniser is not installed. */
export function createDigitListener({ maxQueue = 32 }: { maxQueue?: number } = {}): DigitListenerHandle {
  try {
    import.meta.resolve('soundswallower');
  } catch {
    throw new DigitModelsMissingError();
  }
  let worker: Worker | undefined;
  const waiting = new Map<number, { resolve(text: string): void; reject(error: Error): void }>();
  let nextId = 0;
  let lastCpuMs = 0;

  const started = () => {
    if (worker) return worker;
    const thread = new Worker(new URL('./digit-worker.mjs', import.meta.url));
    thread.unref();
    thread.on('message', (answer: DigitAnswer) => {
      const job = waiting.get(answer.id);
      waiting.delete(answer.id);
      if ('error' in answer) job?.reject(answer.unreadable ? new UnreadableRecordingError(answer.error) : new Error(`digit recogniser: ${answer.error}`));
      else {
        lastCpuMs = answer.cpuMs;
        job?.resolve(answer.text);
      }
    });
    // A worker that dies fails what it held; the next recording starts a new one.
    thread.on('error', (error) => {
      for (const job of waiting.values()) job.reject(error);
      waiting.clear();
      worker = undefined;
    });
    return (worker = thread);
  };

  return {
    hear(wav: Uint8Array, language: DigitLanguage, count: number) {
      if (waiting.size >= maxQueue) return Promise.reject(new DigitListenerBusyError('Too many recordings are waiting'));
      const audio = decodeWav(wav);
      const samples = toMono(audio);
      const id = nextId++;
      return new Promise<string>((resolve, reject) => {
        waiting.set(id, { resolve: (text) => resolve(digitsOf(language, text)), reject });
        started().postMessage({ id, samples, sampleRate: audio.sampleRate, language, grammar: digitGrammar(language, count) }, [samples.buffer as ArrayBuffer]);
      });
    },
    get lastCpuMs() {
      return lastCpuMs;
    },
    async close() {
      await worker?.terminate();
      worker = undefined;
    },
  };
}
