/**
 * Issue 45, item 1: a route's store round trips are pinned, so that none grows unnoticed. The store
 * here answers as a pipelining client over a network does (ioredis with auto-pipelining, Upstash's
 * client): what a request issues before any answer comes back travels together, as one round trip,
 * answered after every pending microtask has run. Sequential steps (one waiting on another's
 * answer) are so many round trips. The same figures on Redis and Upstash: npm run bench:stores.
 * Before issue 45 the routes took 12, 8, 1 and 4; its first session brought them to 8, 4, 1, 3, its
 * second to 3, 3, 1, 2; a route's steps as one plan (store/plan.ts), to 1, 2, 1, 1; a verify that
 * counts its check as wrong up front and claims the code typed, to 1, 1 (+1 after the answer), 1, 1.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryStore, type VerifyStore } from '../../../src/server/index.js';
import { codeSentTo, setup } from './handler-setup.js';

/** A MemoryStore behind a pipelining link: counts the batches it is sent (round trips) and the operations. */
class PipelinedStore {
  trips = 0;
  ops = 0;
  #batch: (() => void)[] | null = null;
  readonly store: VerifyStore;
  constructor(inner: VerifyStore = new MemoryStore()) {
    this.store = new Proxy(inner, {
      get: (target, key) => {
        const value = Reflect.get(target, key);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          this.ops++;
          if (!this.#batch) {
            this.trips++;
            const batch: (() => void)[] = (this.#batch = []);
            // Sent once the request's synchronous work and microtasks are done, answered together.
            setImmediate(() => {
              this.#batch = null;
              for (const run of batch) run();
            });
          }
          return new Promise((resolve, reject) => this.#batch!.push(() => (value.apply(target, args) as Promise<unknown>).then(resolve, reject)));
        };
      },
    });
  }
  take(): { ops: number; trips: number } {
    const counts = { ops: this.ops, trips: this.trips };
    this.ops = this.trips = 0;
    return counts;
  }
}

describe('store round trips per route (a pipelining store)', () => {
  const link = new PipelinedStore();
  let t: Awaited<ReturnType<typeof setup>>;
  before(async () => {
    t = await setup({ store: link.store, allowedChannels: ['email', 'sms'], limits: { resendCooldownSeconds: 30, sendsPerSession: { max: 3, windowSeconds: 600 } } });
  });
  after(() => t.close());

  it("an OTP flow: send 1, a wrong code 1 (its pressure's signals after the answer: 1 more), verify 1 (its clean-up after the answer, where the runtime lets it: 1 more), the receipt 1; a send refused by its session cap 1", async () => {
    const email = 'trips@example.com';
    const options = { session: 'trips' };
    await t.call('config', undefined, options);
    link.take();
    const sent = await t.call('send-otp', { method: 'email', email }, options);
    assert.equal(sent.status, 200, JSON.stringify(sent.json));
    const send = link.take();
    // As on Workers or Vercel: the adapter passes waitUntil, and the answer does not wait for the clean-up.
    const later: Promise<unknown>[] = [];
    const code = await codeSentTo(t.emu, email);
    const wrongAnswer = await t.handler(t.request('verify-otp', { email, otp: code === '0000' ? '1111' : '0000' }, options), { waitUntil: (work: Promise<unknown>) => later.push(work) });
    const wrong = link.take();
    assert.equal((await wrongAnswer.json()).error.code, 'wrong_code');
    // The pressure's signals (a wrong code answered), written after the answer.
    assert.equal(later.length, 1);
    await Promise.all(later.splice(0));
    const wrongAfter = link.take();
    const answer = await t.handler(t.request('verify-otp', { email, otp: code }, options), { waitUntil: (work: Promise<unknown>) => later.push(work) });
    const verify = link.take();
    const verified = { status: answer.status, json: await answer.json() };
    assert.equal(verified.status, 200, JSON.stringify(verified.json));
    assert.equal(later.length, 1);
    await Promise.all(later);
    const cleanUp = link.take();
    assert.equal((await t.call('config', undefined, options)).json.pending, null, 'the clean-up ran: nothing pending');
    link.take();
    await t.handler.verifyReceipt(verified.json.receipt, { session: 'trips' });
    const receipt = link.take();
    // A session past its cap (3 sends in 10 minutes here): what each refusal costs.
    const flood = { session: 'trips-flood' };
    for (let i = 0; i < 3; i++) assert.equal((await t.call('send-otp', { method: 'email', email: `f${i}@example.com` }, flood)).status, 200);
    link.take();
    const refusedAnswer = await t.call('send-otp', { method: 'email', email: 'f9@example.com' }, flood);
    assert.equal(refusedAnswer.status, 429);
    const refused = link.take();
    assert.deepEqual(
      { send: send.trips, wrong: wrong.trips, wrongAfter: wrongAfter.trips, verify: verify.trips, cleanUp: cleanUp.trips, receipt: receipt.trips, refused: refused.trips },
      { send: 1, wrong: 1, wrongAfter: 1, verify: 1, cleanUp: 1, receipt: 1, refused: 1 },
      `operations: send ${send.ops}, wrong ${wrong.ops} (+${wrongAfter.ops}), verify ${verify.ops}, clean-up ${cleanUp.ops}, receipt ${receipt.ops}, refused ${refused.ops}`,
    );
  });
});
