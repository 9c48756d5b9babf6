/**
 * The suites every shared store passes (DESIGN §6: one store contract, every engine): the contract
 * of `VerifyStore` on one store, and a fleet of handler instances sharing one engine, one person's
 * calls landing round-robin.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createVerifyHandler, ReceiptError, StoreUnavailableError, type VerifyHandlerOptions, type VerifyStore } from '../../../src/server/index.js';
import { startEmulator, type RunningEmulator } from '../../../src/emulator/index.js';
import { KEY, until } from '../helpers.js';
import { ORIGIN, SECRET } from './handler-setup.js';
import { planContract } from './plan-contract.js';

/** The contract of a VerifyStore, on stores made by `make` (a fresh key space each). */
export function storeContract(name: string, make: () => VerifyStore): void {
  describe(`${name}: the store contract`, () => {
    it('counts within a window, reports its seconds left, and reads a count back with get', async () => {
      const store = make();
      assert.deepEqual(await store.increment('c', 60), { count: 1, ttl: 60 });
      const second = await store.increment('c', 60);
      assert.equal(second.count, 2);
      assert.ok(second.ttl > 0 && second.ttl <= 60);
      // The handler reads pressure (a number's wrong codes, an address's sends) without counting.
      assert.equal(await store.get('c'), '2');
      await store.decrement('c');
      assert.equal(await store.get('c'), '1');
    });

    it('spends a budget that comes back evenly: refused with the seconds until one is back, given back, read without spending', async () => {
      const store = make();
      // Three an hour: one back every 20 minutes.
      const taken = await Promise.all(Array.from({ length: 5 }, () => store.spend('b', 3, 3600)));
      assert.deepEqual(taken.map((t) => t.spent).sort(), [false, false, true, true, true]);
      const refused = taken.find((t) => !t.spent)!;
      assert.equal(refused.used, 3);
      assert.ok(refused.retryAfter > 1190 && refused.retryAfter <= 1200, `${refused.retryAfter} s`);
      assert.deepEqual(await store.spend('b', 3, 3600, 0), { spent: false, used: 3, retryAfter: refused.retryAfter });
      await store.spend('b', 3, 3600, -1);
      assert.deepEqual(await store.spend('b', 3, 3600, 0), { spent: true, used: 2, retryAfter: 0 });
      assert.equal((await store.spend('b', 3, 3600)).spent, true);
      // Given back past empty, it holds nothing: no credit is kept.
      for (let i = 0; i < 5; i++) await store.spend('b', 3, 3600, -1);
      assert.deepEqual(await store.spend('b', 3, 3600, 0), { spent: true, used: 0, retryAfter: 0 });
      assert.equal(await store.get('b'), null);
      // Two in 4 s: spent, one is back 2 s after it was taken, not at the window's end.
      const fastFrom = performance.now();
      await store.spend('fast', 2, 4);
      await store.spend('fast', 2, 4);
      assert.equal((await store.spend('fast', 2, 4)).spent, false);
      await until('one to come back', async () => (await store.spend('fast', 2, 4, 0)).spent, 5000);
      assert.ok(performance.now() - fastFrom > 1500, 'not before its time');
      assert.equal((await store.spend('fast', 2, 4)).spent, true);
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

    planContract(make);
  });
}

/**
 * One instance of a fleet, wherever it runs (this process, another process, a Worker's isolate): it
 * answers the widget's routes for a session, and checks a receipt as the host's server would.
 */
export interface FleetInstance {
  post(route: string, body: object, session: string): Promise<Response>;
  /** 'accepted', or the reason the check refused it. */
  redeem(receipt: string, session: string): Promise<string>;
}

/** The limits every fleet runs with, so that each rule below can be reached in a few calls. */
export const FLEET_LIMITS = {
  resendCooldownSeconds: 30,
  sendsPerIdentifierAllCallers: { max: 3, windowSeconds: 600 },
  sendsPerIp: { max: 1000, windowSeconds: 600 },
  maxWrongCodes: 5,
  // All the fleet's callers share one address: the ceiling over all callers is the cap under test.
  friction: { freeSendsPerIdentifierPerNetwork: 1000 },
} satisfies VerifyHandlerOptions['limits'];

/** A handler in this process on `store`, with the fleet's limits. */
export function localInstance(emu: RunningEmulator, store: VerifyStore): FleetInstance {
  const handler = createVerifyHandler({
    baseUrl: emu.baseUrl,
    apiKey: KEY,
    basePath: '/verify',
    receiptSecret: SECRET,
    allowedCountries: ['SA'],
    getUser: () => null,
    getSessionId: (request) => request.headers.get('x-test-session'),
    getClientIp: () => '127.0.0.1',
    store,
    limits: FLEET_LIMITS,
  });
  return {
    post: (route, body, session) =>
      handler(new Request(`${ORIGIN}/verify/${route}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: ORIGIN, 'x-test-session': session }, body: JSON.stringify(body) })),
    redeem: (receipt, session) => handler.verifyReceipt(receipt, { session }).then(() => 'accepted', (error: ReceiptError) => error.reason),
  };
}

/** Handler instances in this process, each with its own store from `make` over one shared engine. */
export function fleetFlows(name: string, make: () => VerifyStore): void {
  fleetSuite(name, (emu, count) =>
    Promise.all(
      Array.from({ length: count }, async () => {
        const store = make();
        // Connected before the flows start: a client still connecting answers a fast 503 (a loaded machine takes longer).
        await until('the store to answer', () => store.get('fleet:warm-up').then(() => true, () => false), 10_000, 50);
        return localInstance(emu, store);
      }),
    ),
  );
}

/**
 * The rules of DESIGN §4 on a fleet: `start` gives `count` instances sharing one store, in front of
 * `emu`, and one person's calls go to each in turn. Each rule holds across them exactly as on one.
 */
export function fleetSuite(name: string, start: (emu: RunningEmulator, count: number) => Promise<FleetInstance[]>, stop?: () => Promise<void>): void {
  describe(name, () => {
    let emu: RunningEmulator;
    let fleet: FleetInstance[];
    before(async () => {
      emu = await startEmulator({ apiKeys: [KEY] });
      fleet = await start(emu, 5);
    });
    after(async () => {
      await stop?.();
      await emu?.close();
    });
    /** Each call to the next instance, round-robin. */
    let turn = 0;
    const next = () => fleet[turn++ % 3]!;
    const codeIn = (email: string) => emu.state.outbox.list(email).map((message: { code: string }) => message.code);
    async function send(instance: FleetInstance, email: string, session: string) {
      const res = await instance.post('send-otp', { method: 'email', email }, session);
      return { status: res.status, json: await res.json() };
    }

    it('a code sent through one instance is verified by the next, and its receipt redeemed once, by any', async () => {
      const first = await send(next(), "rr@example.com", "rr");
      assert.equal(first.status, 200, JSON.stringify(first.json));
      const [otp] = codeIn('rr@example.com');
      const verified = await next().post('verify-otp', { email: 'rr@example.com', otp }, 'rr');
      assert.equal(verified.status, 200);
      const { receipt } = await verified.json();
      const outcomes = [];
      for (const instance of fleet.slice(0, 3)) outcomes.push(await instance.redeem(receipt, 'rr'));
      assert.deepEqual(outcomes, ['accepted', 'replayed', 'replayed']);
    });

    it('a wrong code on each of five instances reaches the cap exactly once: the fifth is the last', async () => {
      assert.equal((await send(fleet[0]!, 'five@example.com', 'five')).status, 200);
      const [otp] = codeIn('five@example.com');
      // Five different wrong codes (the same one again would be answered without counting).
      const wrong = (shift: number) => otp!.replace(/\d/g, (digit) => String((Number(digit) + shift) % 10));
      const answers = [];
      for (const [i, instance] of fleet.entries()) answers.push((await (await instance.post('verify-otp', { email: 'five@example.com', otp: wrong(i + 1) }, 'five')).json()).error?.code);
      assert.deepEqual(answers, ['wrong_code', 'wrong_code', 'wrong_code', 'wrong_code', 'too_many_attempts']);
      // The right code now, on any of them, is refused: the code was used up by the cap.
      assert.notEqual((await fleet[2]!.post('verify-otp', { email: 'five@example.com', otp }, 'five')).status, 200);
    });

    it('a cooldown started on one holds on the others: the same code again, and nothing sent twice', async () => {
      assert.equal((await send(next(), 'cool@example.com', 'cool')).status, 200);
      for (let i = 0; i < 3; i++) {
        const again = await send(next(), 'cool@example.com', 'cool');
        assert.equal(again.status, 200);
        assert.equal(again.json.alreadySent, true);
        assert.ok(again.json.resendAfter > 0 && again.json.resendAfter <= 30);
      }
      assert.equal(codeIn('cool@example.com').length, 1);
    });

    it('the cap on codes to one number, from every caller together, holds across the instances', async () => {
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push((await send(next(), 'capped@example.com', `caller${i}`)).status);
      assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
      assert.equal(codeIn('capped@example.com').length, 3);
    });

    it('ten right codes at once, across three instances, give one receipt', async () => {
      assert.equal((await send(next(), 'race@example.com', 'race')).status, 200);
      const [otp] = codeIn('race@example.com');
      const answers = await Promise.all(Array.from({ length: 10 }, () => next().post('verify-otp', { email: 'race@example.com', otp }, 'race')));
      const statuses = answers.map((a) => a.status);
      // One is verified; the others find the code used up (422) or the attempts spent (429).
      assert.equal(statuses.filter((status) => status === 200).length, 1, String(statuses));
      assert.ok(statuses.every((status) => status === 200 || status === 422 || status === 429), String(statuses));
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
    // Anything but the check's own refusal (the store unavailable, a cluster's slot moving) is tried again.
    outcome = await handler.verifyReceipt(receipt, { anyUser: true }).then(() => 'accepted', (error) => (error instanceof ReceiptError ? error.reason : ''));
    return outcome !== '';
  }, 5000, 100);
  return outcome;
}
