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
