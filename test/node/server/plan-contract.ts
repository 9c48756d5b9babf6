/**
 * Issue 45: a route's plan (src/server/store/plan.ts) answers alike on every store, whether it runs
 * in one step (`run`: Lua on Redis and Upstash, the MemoryStore's own pass) or with the single
 * operations (a Cluster, Durable Objects, a host's store): the same results, the same stops, and
 * everything put back when it stops. Part of the store contract (store-suites.ts).
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryStore, type VerifyStore } from '../../../src/server/index.js';
import { runPlan, runWith, type PlanAnswer, type PlanStep } from '../../../src/server/store/plan.js';

/** A send in small: a cooldown, a read put back on undo, a budget weighed then taken, a count weighed again, a capped count. */
const SEND: PlanStep[] = [
  { op: 'claim', key: 'cool', seconds: 30, need: 'cooldown' },
  { op: 'get', key: 'code' },
  { op: 'spend', key: 'budget', max: 2, seconds: 60, step: 0, need: 'cap', weigh: ['b', 1, 1] },
  { op: 'gate', over: 5, proof: 'pow', seconds: 300 },
  { op: 'spend', key: 'budget', max: 2, seconds: 60, step: 1, need: 'cap' },
  { op: 'increment', key: 'net', seconds: 60, weigh: ['b', 1, 1, -1] },
  { op: 'check' },
  { op: 'set', key: 'code', seconds: 60, value: 'sms', was: 1 },
  { op: 'increment', key: 'dest', seconds: 60, max: 1, need: 'dest' },
];

/** An answer as compared: each result up to where it stopped, absent ones as null. */
function comparable({ results, stop }: PlanAnswer, length: number): object {
  const upTo = stop ? stop.at + 1 : length;
  return { results: Array.from({ length: upTo }, (_, i) => results[i] ?? null), stop: stop ?? null };
}

async function state(store: VerifyStore, keys: string[]): Promise<(string | null)[]> {
  return Promise.all(keys.map((key) => store.get(key)));
}

export function planContract(make: () => VerifyStore): void {
  it('runs a plan as a MemoryStore does: each result, each stop, and everything put back when it stops', async () => {
    const [store, reference] = [make(), new MemoryStore()];
    const answers: object[][] = [[], []];
    for (let i = 0; i < 4; i++) {
      for (const [j, each] of [store, reference].entries()) {
        answers[j]!.push(comparable(await runPlan(each, SEND), SEND.length));
        await each.delete('cool');
      }
    }
    assert.deepEqual(answers[0], answers[1]);
    // The first passed; the second stopped at the capped count, and its steps were put back (the
    // code as it was, the budget's one given back, the counts taken back); the third met pressure
    // it carried proof for, claimed once; the fourth carried the same proof again.
    assert.deepEqual(
      answers[0]!.map((answer) => (answer as PlanAnswer).stop?.reason ?? 'passed'),
      ['passed', 'dest', 'proof', 'proof'],
    );
    assert.deepEqual(await state(store, ['code', 'net', 'dest', 'pow', 'cool']), await state(reference, ['code', 'net', 'dest', 'pow', 'cool']));
    assert.deepEqual(await state(store, ['code', 'net', 'dest', 'pow']), ['sms', '1', '1', '1']);
    assert.equal((await store.spend('budget', 2, 60, 0)).used, 1);
  });

  it('stops at a held cooldown with what it read, and at a gate with the level asked (the own slot added once there is pressure)', async () => {
    const store = make();
    await store.set('code', 60, 'email');
    await store.claim('cool', 30);
    await store.increment('own', 60);
    await store.increment('own', 60);
    const held = await runPlan(store, SEND);
    assert.equal(held.stop?.reason, 'cooldown');
    assert.ok(held.stop!.retryAfter > 0 && held.stop!.retryAfter <= 30);
    assert.equal(held.results[1], 'email');
    const verify: PlanStep[] = [
      { op: 'get', key: 'code', need: 'expired' },
      { op: 'get', key: 'wrong', weigh: ['site', 0, 1] },
      { op: 'get', key: 'own', max: 5, need: 'attempts', weigh: ['own', 1, 1] },
      { op: 'gate', over: 2, seconds: 300, proof: 'pow2', plus: 'own' },
      { op: 'increment', key: 'own', seconds: 60, max: 5, need: 'attempts' },
    ];
    // Pressure 1 (the site's slot, free 0) and 2 wrong codes of its own: level 3, above the proof's 2.
    const asked = await runPlan(store, verify);
    assert.deepEqual({ reason: asked.stop?.reason, level: asked.stop?.level }, { reason: 'proof', level: 3 });
    assert.equal(await store.get('own'), '2');
    assert.equal(await store.get('pow2'), null, 'a proof too easy is not used up');
    const expired = await runPlan(store, [{ ...verify[0]!, key: 'none' } as PlanStep, ...verify.slice(1)]);
    assert.equal(expired.stop?.reason, 'expired');
  });

  it('undo steps answer as the single operations do: a budget given back, a count taken back', async () => {
    const [store, reference] = [make(), new MemoryStore()];
    const undo: PlanStep[] = [
      { op: 'giveBack', key: 'spent', max: 3, seconds: 60 },
      { op: 'decrement', key: 'counted' },
      { op: 'delete', key: 'held', seconds: 60 },
    ];
    for (const each of [store, reference]) {
      await each.spend('spent', 3, 60);
      await each.spend('spent', 3, 60);
      await each.increment('counted', 60);
      await each.set('held', 60, 'x');
    }
    assert.deepEqual(comparable(await runPlan(store, undo), undo.length), comparable(await runPlan(reference, undo), undo.length));
    assert.deepEqual(await state(store, ['counted', 'held']), ['0', null]);
    assert.equal((await store.spend('spent', 3, 60, 0)).used, 1);
  });

  it('with the single operations, a store failing midway (a master dying) changes nothing: what ran is put back, and the failure thrown', async () => {
    const store = make();
    await store.set('code', 60, 'email');
    // The destination's master is gone: every other operation of the send has run when its fails.
    const failing = new Proxy(store, {
      get: (target, name, receiver) => {
        const value = Reflect.get(target, name, receiver);
        if (typeof value !== 'function') return value;
        return (key: string, ...rest: unknown[]) => (key === 'dest' ? Promise.reject(new Error('the master is gone')) : value.call(target, key, ...rest));
      },
    });
    await assert.rejects(runWith(failing, SEND), /the master is gone/);
    assert.deepEqual(await state(store, ['cool', 'code', 'net', 'dest']), [null, 'email', '0', null]);
    assert.equal((await store.spend('budget', 2, 60, 0)).used, 0, 'the budget given back');
  });

  it('with the single operations (a store without run), the same answers', async () => {
    const [store, reference] = [make(), new MemoryStore()];
    for (let i = 0; i < 4; i++) {
      assert.deepEqual(comparable(await runWith(store, SEND), SEND.length), comparable(await runPlan(reference, SEND), SEND.length));
      await Promise.all([store.delete('cool'), reference.delete('cool')]);
    }
  });
}
