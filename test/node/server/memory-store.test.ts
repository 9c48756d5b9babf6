/** Issue 14, item 8: MemoryStore is bounded, so a flood cannot grow one instance without limit. */
import { describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryStore } from '../../../src/server/index.js';
import { setup } from './handler-setup.js';

describe('MemoryStore is bounded', () => {
  it('keeps at most maxEntries: expired entries go first, then the least recently written, with one warning', async () => {
    const warn = mock.method(console, 'warn', () => {});
    let now = 0;
    const store = new MemoryStore({ maxEntries: 100, now: () => now });
    try {
      for (let i = 0; i < 50; i++) await store.set(`short${i}`, 1, 'x');
      for (let i = 0; i < 50; i++) await store.increment(`long${i}`, 3600);
      now = 2000;
      // The 50 expired entries make room: nothing live is dropped, nothing said.
      for (let i = 0; i < 50; i++) await store.claim(`new${i}`, 3600);
      assert.equal(store.size, 100);
      assert.equal(await store.get('long0'), '1');
      assert.equal(warn.mock.callCount(), 0);
      // Rewriting long0 makes it recent; then a flood drops the others, oldest first.
      await store.increment('long0', 3600);
      for (let i = 0; i < 1000; i++) await store.increment(`flood${i}`, 3600);
      assert.equal(store.size, 100);
      assert.equal(await store.get('long1'), null);
      assert.equal(await store.get('flood999'), '1');
      assert.equal(warn.mock.callCount(), 1);
      assert.match(String(warn.mock.calls[0]!.arguments[0]), /100 entries, so the least recently written are being dropped/);
    } finally {
      warn.mock.restore();
    }
  });

  it('a flood of refused sends from 3,000 sessions leaves one handler instance at its bound', async () => {
    const warn = mock.method(console, 'warn', () => {});
    const store = new MemoryStore({ maxEntries: 500 });
    const t = await setup({ store, limits: { sendsPerIp: { max: 5, windowSeconds: 3600 } } });
    try {
      const statuses = new Map<number, number>();
      for (let i = 0; i < 3000; i++) {
        const { status } = await t.call('send-otp', { method: 'sms', phone: `+9665012${String(i).padStart(5, '0')}` }, { session: `flood${i}` });
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
      // Refused for the address's cap (429), or first asked for a proof of work (428), which stores nothing.
      assert.equal((statuses.get(429) ?? 0) + (statuses.get(428) ?? 0) > 2900, true, JSON.stringify([...statuses]));
      // Unbounded, each refused session leaves its counter: 3,026 entries here.
      assert.ok(store.size <= 500, `entries: ${store.size}`);
    } finally {
      warn.mock.restore();
      await t.close();
    }
  });
});
