/**
 * Every store call inside a deadline: a store that is down or stalled must cost a request a fast
 * 503, never a wait of a minute while a client library queues and reconnects. After a failure the
 * store rests for as long again: while it rests, one call at a time finds out whether it is back
 * (and ends the rest if it is), and the others fail at once. So an outage costs each request nothing
 * but its answer, a stalled store holds one request at a time, and the first request after the
 * store returns is served, not answered 503 for a rest that is no longer needed.
 */
import { withinTime } from '../../core/deadline.js';
import { runPlan, type PlanStep } from './plan.js';
import type { VerifyStore } from './store.js';

export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';
}

export function withDeadline(store: VerifyStore, timeoutMs: number): VerifyStore {
  let restingUntil = 0;
  let probing = false;
  const bounded =
    <Args extends unknown[], T>(name: keyof VerifyStore, operation: (...args: Args) => Promise<T>) =>
    async (...args: Args): Promise<T> => {
      const probe = performance.now() < restingUntil;
      if (probe && probing) throw new StoreUnavailableError('The store failed a moment ago');
      if (probe) probing = true;
      try {
        const result = await withinTime(operation.apply(store, args), timeoutMs, () => new StoreUnavailableError(`The store did not answer ${name} within ${timeoutMs} ms`));
        restingUntil = 0;
        return result;
      } catch (error) {
        restingUntil = performance.now() + timeoutMs;
        throw error;
      } finally {
        if (probe) probing = false;
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
    // A plan is one call under one deadline, whether the store runs it in one step or operation by operation.
    run: bounded('run', (plan: PlanStep[]) => runPlan(store, plan)),
  };
}
