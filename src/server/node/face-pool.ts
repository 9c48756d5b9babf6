/**
 * Face models off the event loop: a few worker threads (face-worker.mjs), started on the first
 * check, each loading the models once, and a bounded queue in front of them. A check that finds the
 * queue full is refused at once (the caller answers 503 and the person retries), rather than
 * waiting behind a crowd or growing the process.
 */
import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { UnreadablePictureError, type FaceObserver, type Observed, type Pictures } from '../liveness/judge.js';

/** A message to face-worker.mjs, and its answer. */
type FaceRequest = Pictures & { id: number };
type FaceAnswer = ({ id: number; cpuMs: number } & Observed) | { id: number; error: string; unreadable: boolean };

export interface FacePoolOptions {
  /** Worker threads; one fewer than the cores by default, at least one. */
  workers?: number;
  /** Checks waiting beyond those running; 32 by default. */
  maxQueue?: number;
}

export class FacePoolBusyError extends Error {
  override name = 'FacePoolBusyError';
}

export interface FacePool extends FaceObserver {
  /** CPU time the workers spent on the last check, in ms (for the benchmark). */
  readonly lastCpuMs: number;
  close(): Promise<void>;
}

interface Job {
  request: FaceRequest;
  resolve(found: Observed): void;
  reject(error: Error): void;
}

/**
 * A face worker's JavaScript heap. The pictures and the models live outside it (typed arrays, the
 * WASM heaps, onnxruntime); what is in it dies young: the crops' and the answers' small objects.
 * Left to V8's defaults, a worker let that garbage grow before collecting it: with these limits a
 * server held 341 to 345 MB after 20 checks instead of 372 to 455, at the same CPU. A worker that
 * outgrows them fails its own check (503) and the next starts a new one. The young generation at
 * 8 MB rather than 16: the server with 20 checks at once holds about 10 MB less (371 to 383
 * against 390 to 393; the budget is 400), and since the JPEG decoder is WASM and the models' input
 * one buffer, for no more CPU (223 ms a check against 218, median, the worker alone).
 */
const WORKER_HEAP = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 8 };

export function createFacePool({ workers = Math.max(1, availableParallelism() - 1), maxQueue = 32 }: FacePoolOptions = {}): FacePool {
  const script = new URL('./face-worker.mjs', import.meta.url);
  const idle: Worker[] = [];
  const all: Worker[] = [];
  const queue: Job[] = [];
  const running = new Map<number, { worker: Worker; job: Job }>();
  let nextId = 0;
  let lastCpuMs = 0;

  const start = () => {
    const worker = new Worker(script, { resourceLimits: WORKER_HEAP });
    worker.unref();
    worker.on('message', (answer: FaceAnswer) => {
      const entry = running.get(answer.id);
      if (!entry) return;
      running.delete(answer.id);
      if ('error' in answer) entry.job.reject(answer.unreadable ? new UnreadablePictureError(answer.error) : new Error(`face models: ${answer.error}`));
      else {
        lastCpuMs = answer.cpuMs;
        const { id: _, cpuMs: __, ...found } = answer;
        entry.job.resolve(found);
      }
      idle.push(worker);
      pump();
    });
    // A worker that dies fails its own check only: it leaves the pool, and the queue goes on in a new one.
    worker.on('error', (error) => {
      for (const [id, entry] of running) {
        if (entry.worker !== worker) continue;
        running.delete(id);
        entry.job.reject(error);
      }
      for (const list of [all, idle]) if (list.includes(worker)) list.splice(list.indexOf(worker), 1);
      pump();
    });
    all.push(worker);
    idle.push(worker);
  };

  const pump = () => {
    while (queue.length && (idle.length || all.length < workers)) {
      if (!idle.length) start();
      const worker = idle.pop()!;
      const job = queue.shift()!;
      running.set(job.request.id, { worker, job });
      worker.postMessage(job.request);
    }
  };

  return {
    observe(parts) {
      if (queue.length >= maxQueue) return Promise.reject(new FacePoolBusyError('Too many face checks are waiting'));
      return new Promise((resolve, reject) => {
        queue.push({ request: { id: nextId++, ...parts }, resolve, reject });
        pump();
      });
    },
    get lastCpuMs() {
      return lastCpuMs;
    },
    async close() {
      await Promise.all(all.map((worker) => worker.terminate()));
      all.length = 0;
      idle.length = 0;
    },
  };
}
