/**
 * A signal that aborts when the caller's does or when `ms` have passed, telling which: what
 * `AbortSignal.any([signal, AbortSignal.timeout(ms)])` gives where that exists (not in Safari
 * before 17.4, nor in Vercel's Edge runtime). Call `clear()` once the work is done.
 */
export interface Deadline {
  readonly signal: AbortSignal;
  readonly timedOut: boolean;
  clear(): void;
}

export function deadline(ms: number, caller?: AbortSignal): Deadline {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException(`No answer within ${ms} ms`, 'TimeoutError'));
  }, ms);
  const stop = () => controller.abort(caller?.reason);
  if (caller?.aborted) stop();
  else caller?.addEventListener('abort', stop, { once: true });
  return {
    signal: controller.signal,
    get timedOut() {
      return timedOut;
    },
    clear() {
      clearTimeout(timer);
      caller?.removeEventListener('abort', stop);
    },
  };
}

/** The promise's outcome, or `late()` thrown once `ms` have passed without one. */
export async function withinTime<T>(promise: Promise<T>, ms: number, late: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(late()), ms);
  });
  try {
    return await Promise.race([promise, expired]);
  } finally {
    clearTimeout(timer);
  }
}
