/**
 * A busy site's people typing the right code meet no proof of work. Friction weighs the site's and
 * each network's wrong codes; 2,000 people verifying within seconds, 250 behind each of eight
 * carriers' networks (one /24 each, as behind a carrier's NAT), type none, on a host sized as the
 * limits table tells a busy site (its free sends a minute raised to its traffic). Real handler and
 * emulator, on the MemoryStore and on two instances sharing Redis.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { storeBackends } from './backends.js';
import { codeSentTo } from './handler-setup.js';

const backends = storeBackends();
const NETWORKS = 8;
const PER_NETWORK = 250;

const people = Array.from({ length: NETWORKS * PER_NETWORK }, (_, i) => ({
  phone: `+96650${String(1_000_000 + i).padStart(7, '0')}`,
  as: { session: `person${i}`, headers: { 'x-test-ip': `100.64.${i % NETWORKS}.${1 + Math.floor(i / NETWORKS)}` } },
}));

/** Runs `task` over `items`, `width` at a time: a crowd, not one request after another. */
async function crowd<T, R>(items: T[], width: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += width) results.push(...(await Promise.all(items.slice(i, i + width).map(task))));
  return results;
}

const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((counts, status) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {});

for (const [name, open] of backends) {
  describe(`a busy site: 2,000 right codes from eight networks, 250 at a time (${name})`, () => {
    it('every one verifies without a proof of work; a wrong code after them still counts', async () => {
      // Sized for its traffic: free sends a minute, and the pumping alerts, above it.
      const limits = { friction: { freeSendsPerMinute: 5000 }, sendsPerCountry: { alertAt: 5000, max: Infinity, windowSeconds: 3600 }, sendsPerPrefix: { alertAt: 5000, max: Infinity, windowSeconds: 3600 } };
      // The store's deadline is not what this test is about: beside a CPU-bound test file, 250 at
      // once outran its 500 ms (65 of 2,000 answered 503, the store's answer, in one CI run).
      const t = await open({ limits, storeTimeoutMs: 3000 }, { startingBalance: 10_000 });
      try {
        const sent = await crowd(people, 250, async ({ phone, as }) => (await t.call('send-otp', { method: 'sms', phone }, as)).status);
        assert.deepEqual(tally(sent), { 200: people.length });
        const codes = await Promise.all(people.map(({ phone }) => codeSentTo(t.emu, phone, 20_000)));
        const started = performance.now();
        // In waves of 250 at once: more at once outruns a shared Redis's deadline on a busy test
        // machine (503, the store's answer, not friction's), and 250 in flight already pass the
        // site's free 200 and each network's free 30, as every check in flight once counted.
        const verified = await crowd(people.map((person, i) => ({ ...person, otp: codes[i]! })), 250, ({ phone, as, otp }) => t.call('verify-otp', { phone, otp }, as));
        const seconds = (performance.now() - started) / 1000;
        console.log(`# ${name}: ${people.length} right codes in ${seconds.toFixed(1)} s: ${JSON.stringify(tally(verified.map((v) => v.status)))}`);
        assert.deepEqual(tally(verified.map((answer) => answer.status)), { 200: people.length });

        // The counts were given nothing by right codes, and still take wrong ones: one network's
        // 31st wrong code within the hour (its free allowance is 30) asks for a proof.
        const guesser = (i: number) => ({ session: `guesser${i}`, headers: { 'x-test-ip': `100.64.0.${200 + (i % 50)}` } });
        const phones = Array.from({ length: 31 }, (_, i) => `+96655${String(1_000_000 + i).padStart(7, '0')}`);
        for (const [i, phone] of phones.entries()) assert.equal((await t.call('send-otp', { method: 'sms', phone }, guesser(i))).status, 200);
        const wrong = [];
        for (const [i, phone] of phones.entries()) {
          const code = await codeSentTo(t.emu, phone);
          wrong.push((await t.call('verify-otp', { phone, otp: code === '000000' ? '000001' : '000000' }, guesser(i))).status);
        }
        assert.deepEqual(wrong.slice(0, 30), Array(30).fill(422));
        assert.equal(wrong[30], 428);
      } finally {
        await t.close();
      }
    });
  });
}
