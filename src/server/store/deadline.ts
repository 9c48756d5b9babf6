/**
 * Every store call inside a deadline: a store that is down or stalled must cost a request a fast
 * 503, never a wait of a minute while a client library queues and reconnects. After a failure the
 * store is left alone for as long again (calls fail at once), so that an outage costs each request
 * nothing but its answer, and one call a while finds out when the store is back.
 */
import { withinTime } from '../../core/deadline.js';
import type { VerifyStore } from './store.js';

export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';
}

const OPERATIONS = ['increment', 'claim', 'set', 'decrement', 'get', 'take', 'delete'] as const;

export function withDeadline(store: VerifyStore, timeoutMs: number): VerifyStore {
  let restingUntil = 0;
  const bounded = {} as Record<string, unknown>;
  for (const name of OPERATIONS) {
    const operation = store[name] as (...args: unknown[]) => Promise<unknown>;
    bounded[name] = async (...args: unknown[]) => {
      if (performance.now() < restingUntil) throw new StoreUnavailableError('The store failed a moment ago');
      try {
        return await withinTime(operation.apply(store, args), timeoutMs, () => new StoreUnavailableError(`The store did not answer ${name} within ${timeoutMs} ms`));
      } catch (error) {
        restingUntil = performance.now() + timeoutMs;
        throw error;
      }
    };
  }
  return bounded as unknown as VerifyStore;
}
