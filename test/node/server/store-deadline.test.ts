/**
 * Issue 44, item 6: a store that failed rests, but the first request after it returns is served;
 * while it rests, one call at a time finds out, and the others fail at once.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryStore, StoreUnavailableError } from '../../../src/server/index.js';
import { withDeadline } from '../../../src/server/store/deadline.js';

/** A MemoryStore whose calls fail, hang or answer, as `mode` says at the time of the call. */
function flaky() {
  const inner = new MemoryStore();
  const state = { mode: 'up' as 'up' | 'down' | 'stalled', calls: 0 };
  const store = new Proxy(inner, {
    get: (target, name) => {
      const value = Reflect.get(target, name);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        state.calls++;
        if (state.mode === 'down') return Promise.reject(new Error('ECONNREFUSED'));
        if (state.mode === 'stalled') return new Promise(() => {});
        return value.apply(target, args);
      };
    },
  });
  return { store, state };
}

describe('a store call\u2019s deadline and rest', () => {
  it('the first call after the store returns is served, though the rest has not ended', async () => {
    const { store, state } = flaky();
    const bounded = withDeadline(store, 500);
    state.mode = 'down';
    await assert.rejects(bounded.get('k'), /ECONNREFUSED/);
    state.mode = 'up';
    assert.equal(await bounded.get('k'), null);
    assert.equal((await bounded.increment('k', 60)).count, 1);
  });

  it('while a stalled store rests, one call at a time waits for it and the others fail at once', async () => {
    const { store, state } = flaky();
    const bounded = withDeadline(store, 300);
    state.mode = 'stalled';
    await assert.rejects(bounded.get('k'), StoreUnavailableError);
    const started = performance.now();
    const answers = await Promise.allSettled(Array.from({ length: 10 }, async () => {
      const asked = performance.now();
      await bounded.get('k').catch(() => {});
      return performance.now() - asked;
    }));
    const times = answers.map((a) => (a as PromiseFulfilledResult<number>).value).sort((a, b) => a - b);
    // One probe waited for the deadline; nine were answered at once, without calling the store.
    assert.ok(times[8]! < 150 && times[9]! >= 290, times.map(Math.round).join(', '));
    assert.equal(state.calls, 2);
    assert.ok(performance.now() - started < 1000);
  });
});
