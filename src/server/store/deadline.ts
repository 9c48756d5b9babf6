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

export function withDeadline(store: VerifyStore, timeoutMs: number): VerifyStore {
  let restingUntil = 0;
  const bounded =
    <Args extends unknown[], T>(name: keyof VerifyStore, operation: (...args: Args) => Promise<T>) =>
    async (...args: Args): Promise<T> => {
      if (performance.now() < restingUntil) throw new StoreUnavailableError('The store failed a moment ago');
      try {
        return await withinTime(operation.apply(store, args), timeoutMs, () => new StoreUnavailableError(`The store did not answer ${name} within ${timeoutMs} ms`));
      } catch (error) {
        restingUntil = performance.now() + timeoutMs;
        throw error;
      }
    };
  return {
    increment: bounded('increment', store.increment),
    spend: bounded('spend', store.spend),
    claim: bounded('claim', store.claim),
    set: bounded('set', store.set),
    decrement: bounded('decrement', store.decrement),
    get: bounded('get', store.get),
    take: bounded('take', store.take),
    delete: bounded('delete', store.delete),
  };
}
