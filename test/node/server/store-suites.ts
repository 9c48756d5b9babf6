/**
 * The suites every shared store passes (DESIGN §6: one store contract, every engine): the contract
 * of `VerifyStore` on one store, and a fleet of handler instances sharing one engine, one person's
 * calls landing round-robin.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createVerifyHandler, StoreUnavailableError, type ReceiptError, type VerifyStore } from '../../../src/server/index.js';
import { startEmulator, type RunningEmulator } from '../../../src/emulator/index.js';
import { KEY, until } from '../helpers.js';
import { ORIGIN, SECRET } from './handler-setup.js';

/** The contract of a VerifyStore, on stores made by `make` (a fresh key space each). */
export function storeContract(name: string, make: () => VerifyStore): void {
  describe(`${name}: the store contract`, () => {
    it('counts within a window and reports its seconds left', async () => {
      const store = make();
      assert.deepEqual(await store.increment('c', 60), { count: 1, ttl: 60 });
      const second = await store.increment('c', 60);
      assert.equal(second.count, 2);
      assert.ok(second.ttl > 0 && second.ttl <= 60);
    });

    it('claims a key once, and tells how long it still lives', async () => {
      const store = make();
      assert.deepEqual(await store.claim('k', 30, 'sms'), { claimed: true, ttl: 30 });
      const again = await store.claim('k', 30);
      assert.equal(again.claimed, false);
      assert.ok(again.ttl > 0 && again.ttl <= 30);
      assert.equal(await store.get('k'), 'sms');
      await store.delete('k');
      assert.equal(await store.get('k'), null);
      assert.equal((await store.claim('k', 30)).claimed, true);
    });

    it('increments atomically under concurrency', async () => {
      const store = make();
      const results = await Promise.all(Array.from({ length: 50 }, () => store.increment('race', 60)));
      assert.deepEqual(results.map((r) => r.count).sort((a, b) => a - b), Array.from({ length: 50 }, (_, i) => i + 1));
    });

    it('sets a key whatever it held, for the seconds given', async () => {
      const store = make();
      await store.claim('over', 30, 'old');
      await store.set('over', 60, 'new');
      assert.equal(await store.get('over'), 'new');
      assert.equal((await store.claim('over', 5)).ttl > 30, true);
    });

    it('takes a key once: of concurrent takers, one gets the value', async () => {
      const store = make();
      await store.claim('once', 30, 'sms');
      const taken = await Promise.all(Array.from({ length: 10 }, () => store.take('once')));
      assert.deepEqual(taken.filter((v) => v !== null), ['sms']);
      assert.equal(await store.get('once'), null);
      assert.equal(await store.take('absent'), null);
    });

    it('gives back a count within its window, never below zero, never reviving an expired one', async () => {
      const store = make();
      await store.increment('back', 60);
      await store.increment('back', 60);
      await store.decrement('back');
      assert.equal((await store.increment('back', 60)).count, 2);
      await store.decrement('none');
      assert.equal(await store.get('none'), null);
      await store.decrement('back');
      await store.decrement('back');
      await store.decrement('back');
      assert.equal(await store.get('back'), '0');
      // A counter that lived and expired stays gone: giving back to it makes no new one.
      await store.increment('gone', 1);
      assert.equal(await store.get('gone'), '1');
      await until('the counter to expire', async () => (await store.get('gone')) === null, 5000);
      await store.decrement('gone');
      assert.equal(await store.get('gone'), null);
      assert.deepEqual(await store.increment('gone', 60), { count: 1, ttl: 60 });
    });

    it('forgets a key after its window, not before', async () => {
      const store = make();
      await store.claim('short', 1, 'x');
      const started = performance.now();
      assert.equal(await store.get('short'), 'x');
      const ms = await until('the claim to expire', async () => (await store.get('short')) === null, 5000);
      // Redis expires a key within a millisecond of its time; well before a second is too early.
      assert.ok(performance.now() - started > 500, `gone after ${ms.toFixed(0)} ms`);
      assert.equal((await store.claim('short', 30)).claimed, true);
    });
  });
}

/** Handler instances, each with its own store from `make` over one shared engine, one person's calls going to each in turn. */
export function fleetFlows(name: string, make: () => VerifyStore): void {
  describe(name, () => {
    let emu: RunningEmulator;
    before(async () => (emu = await startEmulator({ apiKeys: [KEY] })));
    after(() => emu.close());

    const instance = () =>
      createVerifyHandler({
        baseUrl: emu.baseUrl,
        apiKey: KEY,
        basePath: '/verify',
        receiptSecret: SECRET,
        allowedCountries: ['SA'],
        getUser: () => null,
        getSessionId: (request) => request.headers.get('x-test-session'),
        getClientIp: () => '127.0.0.1',
        store: make(),
        limits: { resendCooldownSeconds: 0, sendsPerIdentifier: { max: 3, windowSeconds: 600 }, maxWrongCodes: 2 },
      });
    const post = (handler: ReturnType<typeof instance>, route: string, body: object) =>
      handler(new Request(`${ORIGIN}/verify/${route}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: ORIGIN, 'x-test-session': 'one' }, body: JSON.stringify(body) }));
    /** Sends a code by email through `handler`, and answers it as the outbox has it. */
    async function codeVia(handler: ReturnType<typeof instance>, email: string): Promise<string> {
      const res = await post(handler, 'send-otp', { method: 'email', email });
      assert.equal(res.status, 200, await res.text());
      return emu.state.outbox.list(email)[0]!.code;
    }

    it('the send cap holds across the instances', async () => {
      const [a, b] = [instance(), instance()];
      const statuses = [];
      for (const handler of [a, b, a, b]) statuses.push((await post(handler, 'send-otp', { method: 'email', email: 'redis@example.com' })).status);
      assert.deepEqual(statuses, [200, 200, 200, 429]);
    });

    it('a challenge opened on one instance verifies on the other, and the wrong-code cap is shared', async () => {
      const [a, b] = [instance(), instance()];
      const code = await codeVia(a, 'pair@example.com');
      assert.equal((await post(b, 'verify-otp', { email: 'pair@example.com', otp: '00000000' })).status, 422);
      const second = await post(a, 'verify-otp', { email: 'pair@example.com', otp: '00000000' });
      assert.equal((await second.json()).error.code, 'too_many_attempts');
      assert.equal((await post(b, 'verify-otp', { email: 'pair@example.com', otp: code })).status, 429);
    });

    it('ten right codes at once, across three instances, give one receipt', async () => {
      const instances = [instance(), instance(), instance()];
      const otp = await codeVia(instances[0]!, 'race@example.com');
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => post(instances[i % 3]!, 'verify-otp', { email: 'race@example.com', otp })));
      const statuses = answers.map((a) => a.status);
      // One is verified; the others find the code used up (422) or the attempts spent (429).
      assert.equal(statuses.filter((status) => status === 200).length, 1, String(statuses));
      assert.ok(statuses.every((status) => status === 200 || status === 422 || status === 429), String(statuses));
    });

    it('a receipt from one instance is accepted once by the other, and refused after', async () => {
      const [a, b] = [instance(), instance()];
      const otp = await codeVia(a, 'receipt@example.com');
      const { receipt } = await (await post(a, 'verify-otp', { email: 'receipt@example.com', otp })).json();
      assert.equal((await b.verifyReceipt(receipt, { session: 'one' })).mth, 'otp');
      await assert.rejects(a.verifyReceipt(receipt, { session: 'one' }), { reason: 'replayed' });
    });
  });
}

/**
 * A host's check of a receipt: accepted, or why not. An instance that met the outage rests its
 * store for a moment after a failure (a fast 503 to its callers), so the check is tried again then.
 */
export async function redeem(handler: { verifyReceipt(token: string, expect: { anyUser: true }): Promise<unknown> }, receipt: string): Promise<string> {
  let outcome = '';
  await until('the instance to reach the store again', async () => {
    outcome = await handler.verifyReceipt(receipt, { anyUser: true }).then(() => 'accepted', (error) => (error instanceof StoreUnavailableError ? '' : (error as ReceiptError).reason));
    return outcome !== '';
  }, 5000, 100);
  return outcome;
}
